/**
 * AWS SDK clients, one of each per process (module scope), so a warm Lambda container reuses
 * their connections across invocations.
 *
 * Region and credentials come from the SDK's usual chain (AWS_REGION, AWS_PROFILE, the Lambda role).
 * Emulators (fauxqs, LocalStack, MinIO): set AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3 /
 * AWS_ENDPOINT_URL_SQS). With an endpoint override, S3 uses path-style addressing
 * (`http://host:port/bucket/key`), which every emulator answers without wildcard DNS;
 * SPIDER_S3_FORCE_PATH_STYLE=true|false decides explicitly.
 */
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';

export type Env = Readonly<Record<string, string | undefined>>;

function endpointFor(service: 'S3' | 'SQS' | 'CLOUDWATCH', env: Env): string | undefined {
  return env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL || undefined;
}

export function s3ClientConfig(env: Env = process.env): S3ClientConfig {
  const endpoint = endpointFor('S3', env);
  const explicit = env.SPIDER_S3_FORCE_PATH_STYLE;
  const forcePathStyle = explicit !== undefined && explicit !== '' ? /^(1|true)$/i.test(explicit) : endpoint !== undefined;
  return { ...(endpoint ? { endpoint } : {}), forcePathStyle };
}

export function sqsClientConfig(env: Env = process.env): SQSClientConfig {
  const endpoint = endpointFor('SQS', env);
  // With an endpoint override, send every call there rather than to the host in the queue URL.
  return endpoint ? { endpoint, useQueueUrlAsEndpoint: false } : {};
}

/** CloudWatch (only `spider status` reads it: the queues' age of oldest message). */
export function cloudWatchClientConfig(env: Env = process.env): { endpoint?: string } {
  const endpoint = endpointFor('CLOUDWATCH', env);
  return endpoint ? { endpoint } : {};
}

let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/** The process's S3 client (created on first use). */
export function s3Client(): S3Client {
  s3 ??= new S3Client(s3ClientConfig());
  return s3;
}

/** The process's SQS client (created on first use). */
export function sqsClient(): SQSClient {
  sqs ??= new SQSClient(sqsClientConfig());
  return sqs;
}
