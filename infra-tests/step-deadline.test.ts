/**
 * The apply and fetch functions near their timeout: a record whose step still runs when only the
 * answer margin (ANSWER_MARGIN_MS) of the invocation is left fails as retryable, and the invocation
 * answers its batch, where a step held by a hung S3 request (each SDK attempt up to the clients'
 * timeouts, three attempts: lib/aws/clients.ts) held the invocation past Lambda's timeout, its whole
 * batch unanswered. The real handler and SDK against a server on 127.0.0.1 that takes the
 * connection and never answers; the invocation's clock is vitest's fake one, so the hung request
 * stays hung (the SDK's own timers never reach their time) and nothing here waits in real time.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSWER_MARGIN_MS } from '../lib/aws/sqs-records';
import { importHandler } from './lambda-poller';

type Handler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** Real time, while the clock is vitest's fake one. */
const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

let endpoint = '';
let asked = 0;
const server = net.createServer((socket) => {
  socket.on('error', () => undefined);
  socket.once('data', () => asked++);
});
const sockets = new Set<net.Socket>();
server.on('connection', (s) => sockets.add(s));

const savedEnv = { ...process.env };
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the SDK reads region and credentials when a request is sent, after the handler's import
  Object.assign(process.env, env());
});
afterAll(async () => {
  process.env = savedEnv;
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const env = () => ({
  AWS_ENDPOINT_URL: endpoint,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  SPIDER_BUCKET: 'hung-bucket',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
});

function sqsRecord(id: string, body: unknown): SQSRecord {
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
    awsRegion: 'us-east-1',
  };
}

/** Invokes the handler with `leftMs` of the invocation left, on the fake clock, and moves that clock to the answer margin. */
async function invokeNearTheEnd(handler: Handler, records: SQSRecord[], leftMs: number): Promise<SQSBatchResponse | undefined> {
  const end = Date.now() + leftMs;
  const context = { functionName: 'spider-test', functionVersion: '1', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:spider-test', memoryLimitInMB: '128', awsRequestId: 'req', getRemainingTimeInMillis: () => end - Date.now() } as unknown as Context;
  let answer: SQSBatchResponse | undefined;
  const before = asked;
  let failed: unknown;
  void handler({ Records: records }, context).then((a) => (answer = a), (e: unknown) => (failed = e));
  // the step's first S3 request reaches the server, which never answers
  for (let i = 0; i < 200 && asked === before && !answer && !failed; i++) await realPause(25);
  expect(failed).toBeUndefined();
  expect(answer, 'the step should be held by its S3 request').toBeUndefined();
  expect(asked).toBeGreaterThan(before);
  await vi.advanceTimersByTimeAsync(leftMs - ANSWER_MARGIN_MS + 50);
  for (let i = 0; i < 40 && !answer; i++) await realPause(25);
  return answer;
}

describe('a step held by a hung S3 request fails at the answer margin and the batch is answered', () => {
  it('apply', async () => {
    const { handler } = await importHandler(() => import('../functions/apply'), {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const answer = await invokeNearTheEnd(handler as Handler, [sqsRecord('a1', { v: 1, site: 'a.com', pageId: 'p1' })], 8_000);
      expect(answer, 'the invocation answered before its timeout').toEqual({ batchItemFailures: [{ itemIdentifier: 'a1' }] });
    } finally {
      vi.useRealTimers();
    }
  });

  it('fetch (its fetch budget covers the fetch alone)', async () => {
    const { handler } = await importHandler(() => import('../functions/fetch'), {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // 40 s left: the fetch would get 10 s (the function keeps 30 s back), but the step is held before it, reading the site's rules
      const answer = await invokeNearTheEnd(handler as Handler, [sqsRecord('f1', { v: 1, url: 'https://a.com/p1' })], 40_000);
      expect(answer, 'the invocation answered before its timeout').toEqual({ batchItemFailures: [{ itemIdentifier: 'f1' }] });
    } finally {
      vi.useRealTimers();
    }
  });
});
