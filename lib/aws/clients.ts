/**
 * AWS SDK clients, one of each per process (module scope), so a warm Lambda container reuses
 * their connections across invocations.
 *
 * Region and credentials come from the SDK's usual chain (AWS_REGION, AWS_PROFILE, the Lambda role).
 * Emulators (fauxqs, LocalStack, MinIO): set AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3 /
 * AWS_ENDPOINT_URL_SQS). With an endpoint override, S3 uses path-style addressing
 * (`http://host:port/bucket/key`), which every emulator answers without wildcard DNS;
 * SPIDER_S3_FORCE_PATH_STYLE=true|false decides explicitly.
 *
 * Every request has timeouts (CLIENT_TIMEOUTS): the SDK sets none of its own (but a 15-minute idle
 * socket on SQS), so a TCP connection that hangs, or an endpoint that never answers, would hold a
 * Lambda invocation until Lambda's timeout, its whole batch unanswered.
 */
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The longest long poll (ReceiveMessage's WaitTimeSeconds) this code asks (lib/aws/dead-letters.ts):
 * the server says nothing for that long, so every timeout below must exceed it. (The functions' own
 * queues are polled by Lambda's event source mapping, not by these clients.)
 */
export const LONG_POLL_SECONDS = 1;

export interface ClientTimeouts {
  /** To establish the TCP connection (ms). */
  readonly connectionMs: number;
  /** From the request's start to the response's headers, the request body's upload included (ms). */
  readonly requestMs: number;
  /** Of silence on an open connection, a response body that stops coming among others (ms). */
  readonly socketIdleMs: number;
}

/**
 * The S3 and SQS clients' timeouts. A request that passes one fails with a TimeoutError, which the SDK
 * retries on a new connection (3 attempts in all by default): a request that hangs on each is given
 * up after some 40 s (silent: the handler arms a socket timeout of 6 s or more 3 s late) or 90 s (headers
 * that trickle), longer than a step can wait near the end of an invocation, so the fetch and apply
 * functions give a step up before it (withinInvocation, lib/aws/sqs-records.ts).
 * - connection, 3 s: TCP to S3 or SQS in the function's region takes milliseconds; 3 s leaves room
 *   for a lost SYN's retransmission (1 s).
 * - request, 30 s: the largest object a step writes is a page's snapshot, at most a few times
 *   SPIDER_MAX_HTML_BYTES (10 MB by default, 200 MB at most), sent to S3 from Lambda at tens of MB/s;
 *   and more than the longest long poll (LONG_POLL_SECONDS).
 * - socket idle, 10 s: S3 and SQS answer or stream in milliseconds once asked; a long poll is silent
 *   for at most LONG_POLL_SECONDS. It bounds what the request timeout does not: a response body that
 *   stops coming after its headers (an S3 GetObject).
 */
export const CLIENT_TIMEOUTS: ClientTimeouts = { connectionMs: 3_000, requestMs: 30_000, socketIdleMs: 10_000 };

/**
 * The timeouts of the S3 client that uploads (S3Store's puts): those given, but socket idle as long as
 * the request timeout. While a request body is sent, the bytes the kernel has taken but the link has
 * not yet carried leave the socket silent to Node: over a slow uplink (a user's, `spider submit` with
 * archived HTML) that is seconds for each write, and the idle timeout fired though the body was
 * flowing (infra-tests/slow-upload.test.ts). An upload's response is a few headers, so the idle
 * timeout guards nothing there that the request timeout does not; the request timeout then bounds
 * each request, and S3Store sends a large body in parts (MULTIPART_PART_BYTES) so that each part,
 * not the whole body, must fit in it.
 */
export function uploadTimeouts(timeouts: ClientTimeouts = CLIENT_TIMEOUTS): ClientTimeouts {
  return { ...timeouts, socketIdleMs: Math.max(timeouts.socketIdleMs, timeouts.requestMs) };
}

/**
 * The request handler's options (the SDK's NodeHttpHandler, given as its options). `requestTimeout`
 * alone only logs a warning when passed: `throwOnRequestTimeout` makes it fail the request.
 */
function requestHandler(timeouts: ClientTimeouts) {
  return {
    connectionTimeout: timeouts.connectionMs,
    requestTimeout: timeouts.requestMs,
    throwOnRequestTimeout: true,
    socketTimeout: timeouts.socketIdleMs,
  } satisfies S3ClientConfig['requestHandler'] & SQSClientConfig['requestHandler'];
}

function endpointFor(service: 'S3' | 'SQS' | 'CLOUDWATCH', env: Env): string | undefined {
  return env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL || undefined;
}

export function s3ClientConfig(env: Env = process.env, timeouts: ClientTimeouts = CLIENT_TIMEOUTS): S3ClientConfig {
  const endpoint = endpointFor('S3', env);
  const explicit = env.SPIDER_S3_FORCE_PATH_STYLE;
  const forcePathStyle = explicit !== undefined && explicit !== '' ? /^(1|true)$/i.test(explicit) : endpoint !== undefined;
  return { ...(endpoint ? { endpoint } : {}), forcePathStyle, requestHandler: requestHandler(timeouts) };
}

export function sqsClientConfig(env: Env = process.env, timeouts: ClientTimeouts = CLIENT_TIMEOUTS): SQSClientConfig {
  const endpoint = endpointFor('SQS', env);
  // With an endpoint override, send every call there rather than to the host in the queue URL.
  return { ...(endpoint ? { endpoint, useQueueUrlAsEndpoint: false } : {}), requestHandler: requestHandler(timeouts) };
}

/** CloudWatch (only `spider status` reads it: the queues' age of oldest message). */
export function cloudWatchClientConfig(env: Env = process.env, timeouts: ClientTimeouts = CLIENT_TIMEOUTS): { endpoint?: string; requestHandler: ReturnType<typeof requestHandler> } {
  const endpoint = endpointFor('CLOUDWATCH', env);
  return { ...(endpoint ? { endpoint } : {}), requestHandler: requestHandler(timeouts) };
}

let s3: S3Client | undefined;
let s3Upload: S3Client | undefined;
let sqs: SQSClient | undefined;

/** The process's S3 client (created on first use). */
export function s3Client(): S3Client {
  s3 ??= new S3Client(s3ClientConfig());
  return s3;
}

/** The process's S3 client for uploads (created on first use): uploadTimeouts. */
export function s3UploadClient(): S3Client {
  s3Upload ??= new S3Client(s3ClientConfig(process.env, uploadTimeouts()));
  return s3Upload;
}

/** The process's SQS client (created on first use). */
export function sqsClient(): SQSClient {
  sqs ??= new SQSClient(sqsClientConfig());
  return sqs;
}
