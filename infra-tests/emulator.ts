/**
 * A local AWS for the infra tests: fauxqs (S3 + SQS, wire-compatible with the AWS SDK) started in
 * this process, behind a small HTTP proxy that adds what fauxqs lacks: S3 conditional writes.
 * fauxqs ignores If-Match / If-None-Match on PutObject; the proxy answers them as S3 does
 * (412 PreconditionFailed, 404 NoSuchKey for If-Match on a missing key), serialized per key, and
 * passes every other request through unchanged. Clients use the proxy's address as their endpoint.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { startFauxqs, type FauxqsServer } from 'fauxqs';

export const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

export interface Emulator {
  /** The proxy: use as AWS_ENDPOINT_URL. */
  readonly endpoint: string;
  readonly fauxqs: FauxqsServer;
  readonly s3: S3Client;
  readonly sqs: SQSClient;
  /** Conditional PutObject requests the proxy refused. */
  readonly refusedConditionalPuts: number;
  /** PutObject requests failed on purpose (fault injection), so far. */
  readonly injectedWriteFailures: number;
  /**
   * Fault injection: from now on, fail this share of PutObject requests to `bucket` (conditional ones
   * included) with S3's 503 SlowDown, drawn from a seeded generator. 0 stops it.
   */
  failWrites(bucket: string, rate: number, seed?: number): void;
  /** Environment for code that builds its own clients (lib/aws/clients.ts). */
  env(): Record<string, string>;
  createQueue(name: string, attributes?: Record<string, string>): Promise<{ url: string; arn: string }>;
  /**
   * A step's queue as the stack makes it: a DLQ of its own and a redrive policy (learn's pair FIFO,
   * with content-based deduplication), with a visibility timeout short enough for retries to come
   * back within a test.
   */
  createStepQueues(name: string, options: StepQueueOptions): Promise<StepQueues>;
  /** Receives every message now visible on a queue (a DLQ, typically), with all their attributes. */
  drain(url: string): Promise<Message[]>;
  stop(): Promise<void>;
}

export interface StepQueueOptions {
  readonly fifo?: boolean;
  readonly visibilitySeconds: number;
  readonly maxReceiveCount: number;
}

export interface StepQueues {
  readonly url: string;
  readonly arn: string;
  readonly dlqUrl: string;
}

export async function startEmulator(): Promise<Emulator> {
  const fauxqs = await startFauxqs({ port: 0, logger: false, defaultRegion: REGION });
  const upstream = fauxqs.address;
  const locks = new Map<string, Promise<unknown>>();
  let refused = 0;
  let injected = 0;
  let faults: { bucket: string; rate: number; next: () => number } | undefined;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const segments = url.pathname.split('/');
    if (faults && req.method === 'PUT' && segments.length > 2 && segments[1] === faults.bucket && faults.next() < faults.rate) {
      injected++;
      req.resume();
      return s3Error(res, 503, 'SlowDown', 'Please reduce your request rate.', url.pathname);
    }
    const conditional =
      req.method === 'PUT' &&
      (req.headers['if-match'] !== undefined || req.headers['if-none-match'] !== undefined) &&
      !req.headers['x-amz-copy-source'] &&
      [...url.searchParams.keys()].every((k) => k === 'x-id') &&
      url.pathname.split('/').length > 2;
    if (!conditional) {
      forward(req, res, upstream);
      return;
    }
    const key = url.pathname;
    const previous = locks.get(key) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const body = await readBody(req);
      const head = await fetch(upstream + key, { method: 'HEAD' });
      const exists = head.status === 200;
      const etag = head.headers.get('etag') ?? '';
      const ifMatch = req.headers['if-match'] as string | undefined;
      const ifNoneMatch = req.headers['if-none-match'] as string | undefined;
      if (ifNoneMatch === '*' && exists) {
        refused++;
        return s3Error(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', key);
      }
      if (ifMatch !== undefined && !exists) {
        refused++;
        return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.', key);
      }
      if (ifMatch !== undefined && unquote(ifMatch) !== unquote(etag)) {
        refused++;
        return s3Error(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', key);
      }
      await forwardBuffered(req, body, res, upstream);
    });
    const settled = turn.catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
    locks.set(key, settled);
    void settled.finally(() => {
      if (locks.get(key) === settled) locks.delete(key);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const s3 = new S3Client({ endpoint, region: REGION, credentials: CREDENTIALS, forcePathStyle: true });
  const sqs = new SQSClient({ endpoint, region: REGION, credentials: CREDENTIALS, useQueueUrlAsEndpoint: false });

  const createQueue = async (name: string, attributes: Record<string, string> = {}) => {
    const out = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: out.QueueUrl, AttributeNames: ['QueueArn'] }));
    return { url: out.QueueUrl!, arn: attrs.Attributes!.QueueArn! };
  };

  return {
    endpoint,
    fauxqs,
    s3,
    sqs,
    get refusedConditionalPuts() {
      return refused;
    },
    get injectedWriteFailures() {
      return injected;
    },
    failWrites(bucket, rate, seed = 1) {
      // mulberry32: the same seed, the same sequence of draws.
      let a = seed >>> 0;
      const next = () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      faults = rate > 0 ? { bucket, rate, next } : undefined;
    },
    env: () => ({
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    }),
    createQueue,
    async createStepQueues(name, { fifo = false, visibilitySeconds, maxReceiveCount }) {
      const suffix = fifo ? '.fifo' : '';
      const fifoAttrs: Record<string, string> = fifo ? { FifoQueue: 'true' } : {};
      const dlq = await createQueue(`${name}-dlq${suffix}`, fifoAttrs);
      const queue = await createQueue(`${name}${suffix}`, {
        ...fifoAttrs,
        ...(fifo ? { ContentBasedDeduplication: 'true' } : {}),
        VisibilityTimeout: String(visibilitySeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: String(maxReceiveCount) }),
      });
      return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url };
    },
    async drain(url) {
      const out: Message[] = [];
      for (;;) {
        const res = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'], VisibilityTimeout: 60 }),
        );
        if (!res.Messages?.length) return out;
        out.push(...res.Messages);
      }
    },
    async stop() {
      s3.destroy();
      sqs.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fauxqs.stop();
    },
  };
}

function forward(req: http.IncomingMessage, res: http.ServerResponse, upstream: string): void {
  const target = new URL(req.url ?? '/', upstream);
  const out = http.request(target, { method: req.method, headers: req.headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502).end(String(error));
    else res.destroy(error);
  });
  req.pipe(out);
}

function forwardBuffered(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, upstream: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(req.url ?? '/', upstream);
    const headers = { ...req.headers };
    delete headers['if-match'];
    delete headers['if-none-match'];
    const out = http.request(target, { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on('end', () => resolve());
      up.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function s3Error(res: http.ServerResponse, status: number, code: string, message: string, resource: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>emulator</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) }).end(body);
}

function unquote(etag: string): string {
  return etag.replace(/^(W\/)?"(.*)"$/, '$2');
}
