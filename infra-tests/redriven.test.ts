/**
 * A dead letter moved back to its queue starts afresh: the counts a deferred copy carries in its message
 * attributes (`spider.deferrals`, `spider.notStarted`, `spider.priorReceives`) are its own only on that
 * copy. SQS's redrive policy moves a copy whose invocations died to the dead-letter queue with its
 * attributes, and a move back (StartMessageMoveTask, the console's "DLQ redrive") sends it again with
 * them: counted, the redriven message would be a dead letter again on its first deferral or failure.
 * Through the real SDK and fauxqs: the copies are the handler's deferral sender's; fauxqs has no move
 * task, so the move back is what SQS does, a new send of the body and attributes. A copy written an
 * hour before it is moved back (its life in the queue and the dead-letter queue) is given by the
 * sender's clock.
 */
import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { SendMessageCommand, type MessageAttributeValue } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqsDeferralSender, sqsRecordHandler, type DeadLetterSender, type Deferral } from '../lib/aws/sqs-records';
import { RenderMessageSchema } from '../lib/types/messages';
import { HostBusyError, StepNotStartedError } from '../lib/util/errors';
import { startEmulator, type Emulator } from './emulator';
import { LambdaPoller } from './lambda-poller';

const MAX_RECEIVE_COUNT = 5;
const MAX_DEFERRALS = 3;
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator();
}, 60_000);
afterAll(async () => {
  await emu?.stop();
});

/** What the handler did with a record: a dead letter (its reason), a deferral (the copy's counts), or a failure. */
type Fate = { dead: string } | { deferred: Deferral } | { failed: string };

/**
 * A copy of a message at the bounds of its counts, sent by the handler's deferral sender at `writtenAt`
 * (ms ago), then moved to the dead-letter queue and back as SQS does when `redriven`; received from the
 * queue as Lambda's event source receives it, and handled by a record handler whose step throws `error`.
 */
async function fateOf(name: string, counts: Deferral, error: Error, redriven: boolean): Promise<Fate> {
  const queue = await emu.createQueue(name);
  const dlq = await emu.createQueue(`${name}-dlq`);
  const writtenAt = Date.now() - (redriven ? 3_600_000 : 0);
  const original: SQSRecord = {
    messageId: `${name}-original`,
    receiptHandle: 'rh',
    body: JSON.stringify({ v: 1, url: 'https://a.com/x' }),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(writtenAt), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(writtenAt) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: queue.arn,
    awsRegion: 'us-east-1',
  };
  // the copy, with its counts, where it lands: its queue, or (its invocations died) the dead-letter queue it is moved back from
  await new SqsDeferralSender(redriven ? dlq.url : queue.url, emu.sqs, () => writtenAt).send(original, 0, counts);
  if (redriven) {
    const [moved] = await emu.drain(dlq.url);
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: moved.Body, MessageAttributes: moved.MessageAttributes as Record<string, MessageAttributeValue> }));
  }

  const fates: Fate[] = [];
  const deadLetters: DeadLetterSender = { send: async (_r, reason) => void fates.push({ dead: reason }) };
  const deferrals = { queueUrl: queue.url, send: async (_r: SQSRecord, _delay: number, deferral: Deferral) => void fates.push({ deferred: deferral }) };
  const handle = sqsRecordHandler({
    schema: RenderMessageSchema,
    logger,
    deadLetters,
    deferrals,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    maxDeferrals: MAX_DEFERRALS,
    step: async () => {
      throw error;
    },
  });
  const poller = new LambdaPoller({
    name,
    sqs: emu.sqs,
    queueUrl: queue.url,
    queueArn: queue.arn,
    batchSize: 1,
    timeoutMs: 10_000,
    handler: async (event): Promise<SQSBatchResponse> => {
      const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
      for (const r of event.Records) {
        await handle(r).catch((e: Error) => {
          fates.push({ failed: e.message });
          batchItemFailures.push({ itemIdentifier: r.messageId });
        });
      }
      return { batchItemFailures };
    },
  });
  expect((await poller.pollOnce()).received).toBe(1);
  expect(fates).toHaveLength(1);
  return fates[0];
}

describe('a dead letter moved back to its queue starts afresh', () => {
  const busy = () => new HostBusyError('a.com', 1_000);
  const noTime = () => new StepNotStartedError('only 100 ms left in this invocation; not starting the step');
  const down = () => new Error('HTTP 503 from https://a.com/x');

  it('its host deferred maxDeferrals times: the copy is a dead letter on its next deferral; moved back, it is deferred, counted from one', async () => {
    const counts: Deferral = { deferrals: MAX_DEFERRALS, priorReceives: 0 };
    expect(await fateOf('deferrals', counts, busy(), false)).toEqual({ dead: expect.stringMatching(/^deferred 3 times, its host's turn never came/) });
    expect(await fateOf('deferrals-redriven', counts, busy(), true)).toEqual({ deferred: { deferrals: 1, priorReceives: 0 } });
  });

  it('not started maxDeferrals times: the copy is a dead letter the next time; moved back, it is sent again, counted from one', async () => {
    const counts: Deferral = { deferrals: 0, priorReceives: 0, notStarted: MAX_DEFERRALS };
    expect(await fateOf('not-started', counts, noTime(), false)).toEqual({ dead: expect.stringMatching(/^not started 3 times, its invocations never had the time left for it/) });
    expect(await fateOf('not-started-redriven', counts, noTime(), true)).toEqual({ deferred: { deferrals: 0, priorReceives: 0, notStarted: 1 } });
  });

  it('receives spent before its deferral: the copy is a dead letter on its first failure; moved back, that failure is retried', async () => {
    const counts: Deferral = { deferrals: 1, priorReceives: MAX_RECEIVE_COUNT - 1 };
    expect(await fateOf('prior-receives', counts, down(), false)).toEqual({ dead: expect.stringMatching(/^failed 5 times; last error: HTTP 503/) });
    expect(await fateOf('prior-receives-redriven', counts, down(), true)).toEqual({ failed: 'HTTP 503 from https://a.com/x' });
  });
});
