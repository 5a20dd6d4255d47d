/**
 * The handler plumbing: record parsing and retry meaning, dead-lettering with a reason, Powertools'
 * partial batch responses (standard and FIFO), and the render deadline, without AWS; a deferred
 * message's copy sent through the real AWS SDK to the SQS emulator.
 */
import { BatchProcessor, EventType, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { sqsBatchHandler } from '../lib/aws/batch-handler';
import { RendererHolder } from '../lib/aws/renderer-holder';
import { ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { deferralDelaySeconds, hostOfRecord, oneAtATimePer, parseMessage, recordBudget, sqsRecordHandler, SqsDeferralSender, type DeadLetterSender, type Deferral, type DeferralSender, type StoredOutcome } from '../lib/aws/sqs-records';
import { silentLogger } from '../lib/step/context';
import { LearnMessageSchema, RenderMessageSchema, type RenderMessage } from '../lib/types/messages';
import { DeadlineExceededError, HostBusyError, NonRetryableError, StepNotStartedError, deferralOf, failureKind, isNonRetryable } from '../lib/util/errors';
import { startEmulator } from './emulator';

const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

/** An SQS record as Lambda delivers it. */
function record(body: unknown, overrides: Partial<SQSRecord> & { groupId?: string; receiveCount?: number } = {}): SQSRecord {
  const { groupId, receiveCount, ...rest } = overrides;
  const id = rest.messageId ?? `m-${Math.random().toString(36).slice(2)}`;
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: String(receiveCount ?? 1),
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
      ...(groupId ? { MessageGroupId: groupId, MessageDeduplicationId: id, SequenceNumber: '1' } : {}),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
    awsRegion: 'us-east-1',
    ...rest,
  };
}

/** A record's message attributes as Lambda delivers them. */
function attributes(values: Record<string, string>): SQSRecord['messageAttributes'] {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { dataType: 'Number', stringValue: v, stringListValues: [], binaryListValues: [] }]));
}

function deferrals(): DeferralSender & { sent: { id: string; delaySeconds: number; deferral: Deferral }[] } {
  const sent: { id: string; delaySeconds: number; deferral: Deferral }[] = [];
  return {
    sent,
    async send(r, delaySeconds, deferral) {
      sent.push({ id: r.messageId, delaySeconds, deferral });
    },
  };
}

function deadLetters(): DeadLetterSender & { sent: { id: string; reason: string }[] } {
  const sent: { id: string; reason: string }[] = [];
  return {
    sent,
    async send(r, reason) {
      sent.push({ id: r.messageId, reason });
    },
  };
}

describe('parseMessage', () => {
  it('returns the parsed message with schema defaults', () => {
    expect(parseMessage('{"v":1,"site":"a.com"}', LearnMessageSchema)).toEqual({ v: 1, site: 'a.com', force: false });
  });

  it('a body that is not JSON or fails the schema can never succeed: NonRetryableError naming the problem', () => {
    const notJson = () => parseMessage('<html>', RenderMessageSchema);
    expect(notJson).toThrow(/invalid message: body is not JSON/);
    try {
      parseMessage('{"v":2,"url":"https://a.com/"}', RenderMessageSchema);
      expect.unreachable();
    } catch (error) {
      expect(isNonRetryable(error)).toBe(true);
      expect((error as Error).message).toMatch(/^invalid message: v: /);
    }
    // Even when validation itself throws on odd input (a refinement calling new URL), it is the message's fault.
    expect(() => parseMessage('{"v":1,"url":"not a url"}', RenderMessageSchema)).toThrow(NonRetryableError);
  });
});

describe('sqsRecordHandler', () => {
  it('calls the step with the parsed message and the Lambda context', async () => {
    const step = vi.fn(async () => undefined);
    const handle = sqsRecordHandler({ schema: LearnMessageSchema, logger, step });
    const r = record({ v: 1, site: 'a.com', force: true });
    const context = { getRemainingTimeInMillis: () => 1000 } as never;
    await handle(r, context);
    expect(step).toHaveBeenCalledWith({ v: 1, site: 'a.com', force: true }, r, context);
  });

  it('retryable failures are thrown (the record is reported failed and redelivered)', async () => {
    const dlq = deadLetters();
    const handle = sqsRecordHandler({ schema: LearnMessageSchema, logger, deadLetters: dlq, step: async () => Promise.reject(new Error('S3 throttled')) });
    await expect(handle(record({ v: 1, site: 'a.com' }))).rejects.toThrow('S3 throttled');
    expect(dlq.sent).toEqual([]);
  });

  it('never-succeeding messages go to the dead-letter queue at once with the reason, and count as processed', async () => {
    const dlq = deadLetters();
    const step = vi.fn(async () => {
      throw new NonRetryableError('HTTP 404 for https://a.com/x');
    });
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, step });
    const bad = record('not json', { messageId: 'bad' });
    const gone = record({ v: 1, url: 'https://a.com/x' }, { messageId: 'gone' });
    await handle(bad);
    await handle(gone);
    expect(dlq.sent).toEqual([
      { id: 'bad', reason: expect.stringMatching(/^invalid message: body is not JSON/) },
      { id: 'gone', reason: expect.stringMatching(/HTTP 404 for https:\/\/a\.com\/x$/) },
    ]);
    expect(step).toHaveBeenCalledTimes(1);
  });

  it('without a dead-letter queue, never-succeeding messages are thrown and left to the redrive policy', async () => {
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, step: async () => undefined });
    await expect(handle(record({ v: 1, url: 'mailto:x@y' }))).rejects.toThrow(/invalid message/);
  });

  it('if the dead-letter send fails, the record fails (retried, never lost)', async () => {
    const handle = sqsRecordHandler({
      schema: RenderMessageSchema,
      logger,
      deadLetters: { send: async () => Promise.reject(new Error('SQS unavailable')) },
      step: async () => undefined,
    });
    await expect(handle(record('nope'))).rejects.toThrow('SQS unavailable');
  });
});

describe('sqsRecordHandler: the last receive (maxReceiveCount) and deferrals (HostBusyError)', () => {
  const failing = (error: Error) => async () => Promise.reject(error);

  it('a retryable failure on the last receive goes to the dead-letter queue with the reason, counted as retries-exhausted, and is processed', async () => {
    const dlq = deadLetters();
    const dead: unknown[] = [];
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, maxReceiveCount: 5, onDeadLetter: (e) => dead.push(e), step: failing(new Error('HTTP 503 for https://a.com/x')) });
    for (const n of [1, 4]) await expect(handle(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: n }))).rejects.toThrow('HTTP 503');
    expect(dlq.sent).toEqual([]);
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'last', receiveCount: 5 }));
    expect(dlq.sent).toEqual([{ id: 'last', reason: 'failed 5 times; last error: HTTP 503 for https://a.com/x' }]);
    expect(dead.map(failureKind)).toEqual(['retries-exhausted']);
  });

  it('without maxReceiveCount or a dead-letter queue, the last receive is thrown too (the redrive policy takes it)', async () => {
    const dlq = deadLetters();
    const noCount = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, step: failing(new Error('down')) });
    await expect(noCount(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 50 }))).rejects.toThrow('down');
    const noDlq = sqsRecordHandler({ schema: RenderMessageSchema, logger, maxReceiveCount: 5, step: failing(new Error('down')) });
    await expect(noDlq(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 5 }))).rejects.toThrow('down');
    expect(dlq.sent).toEqual([]);
  });

  it('a receive beyond maxReceiveCount (the last one never answered: the invocation died) is a dead letter that says so, the step not run again', async () => {
    const dlq = deadLetters();
    const dead: unknown[] = [];
    const step = vi.fn(async () => undefined);
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, maxReceiveCount: 5, onDeadLetter: (e) => dead.push(e), step });
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'died', receiveCount: 6 }));
    expect(step).not.toHaveBeenCalled();
    expect(dlq.sent).toEqual([
      {
        id: 'died',
        reason:
          "received 5 times and never answered on its last receive: the Lambda invocation handling it timed out, ran out of memory, crashed or was throttled (an invocation's log names its batch's message ids when it starts)",
      },
    ]);
    expect(dead.map(failureKind)).toEqual(['retries-exhausted']);
    // the same words as the embedded runner's queues (MemoryQueue), whose cause is a process
    expect(dlq.sent[0].reason).toMatch(/^received \d+ times and never answered on its last receive: /);
    // without a dead-letter queue it is thrown, untried, and the redrive policy moves it
    const noDlq = sqsRecordHandler({ schema: RenderMessageSchema, logger, maxReceiveCount: 5, step });
    await expect(noDlq(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 6 }))).rejects.toThrow(/never answered/);
    expect(step).not.toHaveBeenCalled();
  });

  it('a receive beyond maxReceiveCount whose outcome the step finds stored since the message was sent is processed, no dead letter; a failing question dead-letters it as before', async () => {
    const dlq = deadLetters();
    const step = vi.fn(async () => undefined);
    const asked: [string, string][] = [];
    const handler = (storedOutcome: StoredOutcome<RenderMessage>) => sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, maxReceiveCount: 5, step, storedOutcome });
    const beyond = (id: string) => record({ v: 1, url: 'https://a.com/x' }, { messageId: id, receiveCount: 6, attributes: { ...record({}).attributes, ApproximateReceiveCount: '6', SentTimestamp: '1795867207217' } });
    // asked with the message's send time
    await handler(async (message, since) => (asked.push([message.url, since.toISOString()]), 'articles/a.com/x.json'))(beyond('done'));
    expect(asked).toEqual([['https://a.com/x', '2026-11-28T12:00:07.217Z']]);
    expect(dlq.sent).toEqual([]);
    expect(step).not.toHaveBeenCalled();
    await handler(async () => undefined)(beyond('not-done'));
    await handler(async () => {
      throw new Error('S3 down');
    })(beyond('unknown'));
    expect(dlq.sent.map((d) => [d.id, d.reason.slice(0, 48)])).toEqual([
      ['not-done', 'received 5 times and never answered on its last '],
      ['unknown', 'received 5 times and never answered on its last '],
    ]);
    expect(step).not.toHaveBeenCalled();
  });

  it('a deferred copy counts the receives spent before it: beyond maxReceiveCount only once the copy itself was received before', async () => {
    const dlq = deadLetters();
    const step = vi.fn(async () => Promise.reject(new Error('HTTP 500')));
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: deferrals(), maxReceiveCount: 5, step });
    const copy = (receiveCount: number, priorReceives: number, messageId: string) =>
      record({ v: 1, url: 'https://a.com/x' }, { messageId, receiveCount, messageAttributes: attributes({ 'spider.deferrals': '1', 'spider.priorReceives': String(priorReceives) }) });
    // four receives spent before the deferral: the copy's first is the fifth, tried, and the last
    await handle(copy(1, 4, 'fifth'));
    // its second is the sixth: the fifth never answered
    await handle(copy(2, 4, 'sixth'));
    // a copy's first receive was just sent, never a sign of an unanswered one, whatever it carries: tried
    await handle(copy(1, 7, 'first'));
    expect(step).toHaveBeenCalledTimes(2);
    expect(dlq.sent.map((d) => [d.id, d.reason.replace(/:.*/, '')])).toEqual([
      ['fifth', 'failed 5 times; last error'],
      ['sixth', 'received 5 times and never answered on its last receive'],
      ['first', 'failed 8 times; last error'],
    ]);
  });

  it('a busy host: the message is sent again with the delay rounded up to seconds (at most 900), counted in spider.deferrals, and the record is processed', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    let wait = 2_300;
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxReceiveCount: 5, step: async () => Promise.reject(new HostBusyError('a.com', wait)) });
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'first' }));
    wait = 3_600_000;
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'second', messageAttributes: attributes({ 'spider.deferrals': '1' }) }));
    expect(again.sent).toEqual([
      { id: 'first', delaySeconds: 3, deferral: { deferrals: 1, priorReceives: 0 } },
      { id: 'second', delaySeconds: 900, deferral: { deferrals: 2, priorReceives: 0 } },
    ]);
    expect(dlq.sent).toEqual([]);
  });

  it('a deferral takes back only its own receive: the failures before it still count toward maxReceiveCount', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    let error: Error = new HostBusyError('a.com', 500);
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxReceiveCount: 5, step: async () => Promise.reject(error) });
    // Failed twice, then deferred on its third receive: the copy carries the two receives spent.
    await handle(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 3 }));
    expect(again.sent.map((s) => s.deferral)).toEqual([{ deferrals: 1, priorReceives: 2 }]);
    // The copy fails on its third receive: its fifth in all, the last.
    error = new Error('HTTP 500');
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'copy', receiveCount: 3, messageAttributes: attributes({ 'spider.deferrals': '1', 'spider.priorReceives': '2' }) }));
    expect(dlq.sent).toEqual([{ id: 'copy', reason: 'failed 5 times; last error: HTTP 500' }]);
  });

  it('deferred maxDeferrals times already: a dead letter that says its host\'s turn never came', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    const dead: unknown[] = [];
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxDeferrals: 3, onDeadLetter: (e) => dead.push(e), step: failing(new HostBusyError('a.com', 5_000)) });
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageAttributes: attributes({ 'spider.deferrals': '2' }) }));
    expect(again.sent.map((s) => s.deferral.deferrals)).toEqual([3]);
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'tired', messageAttributes: attributes({ 'spider.deferrals': '3' }) }));
    expect(again.sent).toHaveLength(1);
    expect(dlq.sent).toEqual([{ id: 'tired', reason: "deferred 3 times, its host's turn never came; last: a.com is rate-limited: next request in 5000 ms" }]);
    expect(dead.map(failureKind)).toEqual(['retries-exhausted']);
  });

  it('if the message cannot be sent again, the record fails as before (SQS delivers it again; on its last receive, a dead letter that says why)', async () => {
    const dlq = deadLetters();
    const handle = sqsRecordHandler({
      schema: RenderMessageSchema,
      logger,
      deadLetters: dlq,
      maxReceiveCount: 5,
      deferrals: { send: async () => Promise.reject(new Error('SQS unavailable')) },
      step: failing(new HostBusyError('a.com', 1_000)),
    });
    await expect(handle(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 1 }))).rejects.toThrow(/rate-limited/);
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'last', receiveCount: 5 }));
    expect(dlq.sent).toEqual([{ id: 'last', reason: 'failed 5 times; last error: a.com is rate-limited: next request in 1000 ms (and could not be sent again with a delay: SQS unavailable)' }]);
  });

  it('a record not started for lack of time in its invocation (recordBudget, RendererHolder) is sent again a second later and spends no receive, on its last receive too', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    const left = (ms: number) => ({ getRemainingTimeInMillis: () => ms }) as unknown as Context;
    const holder = new RendererHolder(() => ({ close: async () => undefined }), silentLogger, { marginMs: 10_000, minBudgetMs: 5_000 });
    const render = vi.fn(async () => undefined);
    const fetchHandler = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxReceiveCount: 5, step: async (_m, _r, context) => recordBudget(context, 45_000, 30_000, 5_000) });
    const renderHandler = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxReceiveCount: 5, step: async (_m, _r, context) => holder.withDeadline(context, 45_000, render) });
    await fetchHandler(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'fetch-last', receiveCount: 5 }), left(34_000));
    await renderHandler(record({ v: 1, url: 'https://a.com/y' }, { messageId: 'render-last', receiveCount: 5 }), left(12_000));
    // a copy that waited for its host before: its host deferrals are carried, not counted up
    await fetchHandler(record({ v: 1, url: 'https://a.com/z' }, { messageId: 'copy', receiveCount: 2, messageAttributes: attributes({ 'spider.deferrals': '4', 'spider.priorReceives': '1', 'spider.notStarted': '2' }) }), left(1_000));
    expect(render).not.toHaveBeenCalled();
    expect(dlq.sent).toEqual([]);
    expect(again.sent).toEqual([
      { id: 'fetch-last', delaySeconds: 1, deferral: { deferrals: 0, priorReceives: 4, notStarted: 1 } },
      { id: 'render-last', delaySeconds: 1, deferral: { deferrals: 0, priorReceives: 4, notStarted: 1 } },
      { id: 'copy', delaySeconds: 1, deferral: { deferrals: 4, priorReceives: 2, notStarted: 3 } },
    ]);
  });

  it('not started maxDeferrals times already: a dead letter that says so, never that its host\'s turn never came; host deferrals and not-started ones are bounded apart', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    const dead: unknown[] = [];
    let error: Error = new StepNotStartedError('only 1000 ms left in this invocation; not starting the step');
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxDeferrals: 3, onDeadLetter: (e) => dead.push(e), step: async () => Promise.reject(error) });
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'tired', messageAttributes: attributes({ 'spider.notStarted': '3', 'spider.deferrals': '1' }) }));
    // three host deferrals and a first time not started: deferred again
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'waited', messageAttributes: attributes({ 'spider.deferrals': '3' }) }));
    // three times not started and its host busy now: deferred again
    error = new HostBusyError('a.com', 2_000);
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'busy', messageAttributes: attributes({ 'spider.notStarted': '3' }) }));
    expect(dlq.sent).toEqual([{ id: 'tired', reason: 'not started 3 times, its invocations never had the time left for it; last: only 1000 ms left in this invocation; not starting the step' }]);
    expect(dead.map(failureKind)).toEqual(['retries-exhausted']);
    expect(failureKind(dlq.sent[0].reason)).toBe('retries-exhausted');
    expect(again.sent.map((s) => [s.id, s.deferral])).toEqual([
      ['waited', { deferrals: 3, priorReceives: 0, notStarted: 1 }],
      ['busy', { deferrals: 1, priorReceives: 0, notStarted: 3 }],
    ]);
  });

  it('a step that started and then ran out of time (the render past its deadline) is a retryable failure, not a deferral', async () => {
    const dlq = deadLetters();
    const again = deferrals();
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: dlq, deferrals: again, maxReceiveCount: 5, step: failing(new DeadlineExceededError('render did not finish within 2400 ms')) });
    await expect(handle(record({ v: 1, url: 'https://a.com/x' }, { receiveCount: 1 }))).rejects.toThrow(/did not finish/);
    await handle(record({ v: 1, url: 'https://a.com/x' }, { messageId: 'last', receiveCount: 5 }));
    expect(again.sent).toEqual([]);
    expect(dlq.sent).toEqual([{ id: 'last', reason: 'failed 5 times; last error: render did not finish within 2400 ms' }]);
  });

  it('the first deferral waits for the host\'s turn; the k-th a random time in the upper half of 2^(k-1) times it, at most 900 s', () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect([1, 2, 3, 4].map((k) => deferralDelaySeconds(11_200, k, high))).toEqual([12, 24, 48, 96]);
    expect([1, 2, 3, 4].map((k) => deferralDelaySeconds(11_200, k, low))).toEqual([12, 12, 24, 48]);
    expect(deferralDelaySeconds(11_200, 300, low)).toBe(450);
    expect(deferralDelaySeconds(11_200, 9, high)).toBe(900);
    expect(deferralDelaySeconds(11_200, 300, high)).toBe(900);
    expect(deferralDelaySeconds(3_600_000, 1, low)).toBe(900);
    // copies of one host's pages, deferred for the fifth time, come back spread over their range
    const delays = new Set(Array.from({ length: 200 }, () => deferralDelaySeconds(11_200, 5)));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(96);
    expect(Math.max(...delays)).toBeLessThanOrEqual(192);
    expect(delays.size).toBeGreaterThan(40);
  });

  it("the deferred copy goes back to its queue (the emulator's SQS) with its delay and the record's own attributes, not spider.* ones of an earlier life, within SQS's 10", async () => {
    const emu = await startEmulator();
    try {
      const { url } = await emu.createQueue('render');
      const own = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`app.a${i}`, { dataType: 'String', stringValue: `v${i}`, stringListValues: [], binaryListValues: [] }]));
      const r = record(
        { v: 1, url: 'https://a.com/x' },
        {
          messageAttributes: {
            'spider.error': { dataType: 'String', stringValue: 'an old reason', stringListValues: [], binaryListValues: [] },
            'app.bin': { dataType: 'Binary', binaryValue: Buffer.from('bytes').toString('base64'), stringListValues: [], binaryListValues: [] },
            ...own,
          },
        },
      );
      await new SqsDeferralSender(url, emu.sqs).send(r, 30, { deferrals: 2, priorReceives: 1 });
      // fauxqs honours DelaySeconds: the copy is held 30 s from its sending, and a receive now gets nothing
      const { messages } = emu.fauxqs.inspectQueue('render')!;
      expect(messages.ready).toHaveLength(0);
      expect(messages.delayed).toHaveLength(1);
      const held = messages.delayed[0];
      expect(held.delayUntil! - held.sentTimestamp).toBe(30_000);
      const receive = () => emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'], WaitTimeSeconds: 0 }));
      expect((await receive()).Messages ?? []).toEqual([]);
      // its time come by the clock fauxqs reads (Date.now, moved on rather than waited for), it is delivered
      let copies: Message[];
      try {
        vi.setSystemTime(held.delayUntil!);
        copies = (await receive()).Messages ?? [];
      } finally {
        vi.useRealTimers();
      }
      expect(copies).toHaveLength(1);
      expect(copies[0].Body).toBe(r.body);
      const attrs = copies[0].MessageAttributes!;
      expect(Object.keys(attrs)).toHaveLength(10);
      expect(attrs['spider.error']).toBeUndefined();
      expect(attrs['spider.deferrals']).toMatchObject({ DataType: 'Number', StringValue: '2' });
      expect(attrs['spider.priorReceives']).toMatchObject({ DataType: 'Number', StringValue: '1' });
      // when it was sent, so that its counts are not taken for a redriven message's (infra-tests/redriven.test.ts)
      expect(Number(attrs['spider.sentAt'].StringValue)).toBeLessThanOrEqual(held.sentTimestamp);
      expect(Buffer.from(attrs['app.bin'].BinaryValue!).toString()).toBe('bytes');
      // the record's own attributes in their order, as many as fit beside spider's three (app.a6 and app.a7 left out)
      for (let i = 0; i < 6; i++) expect(attrs[`app.a${i}`], `app.a${i}`).toMatchObject({ DataType: 'String', StringValue: `v${i}` });
      expect(attrs['app.a6']).toBeUndefined();
      expect(attrs['app.a7']).toBeUndefined();
    } finally {
      await emu.stop();
    }
  });

  it('without a queue to send it back to (learn, apply), a busy host fails like any retryable error', async () => {
    const handle = sqsRecordHandler({ schema: RenderMessageSchema, logger, deadLetters: deadLetters(), maxReceiveCount: 5, step: failing(new HostBusyError('a.com', 1_000)) });
    await expect(handle(record({ v: 1, url: 'https://a.com/x' }))).rejects.toThrow(/rate-limited/);
  });
});

describe('the step handlers\' batch response (sqsBatchHandler, Powertools)', () => {
  const context = { functionName: 'spider-test', functionVersion: '1', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:spider-test', memoryLimitInMB: '128', awsRequestId: 'req', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
  const metrics = () => new Metrics({ namespace: 'spider-test', serviceName: 'test' });

  it('standard queues: only the failed records are reported, and the batch\'s metrics are published', async () => {
    const m = metrics();
    const handle = sqsRecordHandler({
      schema: LearnMessageSchema,
      logger,
      deadLetters: deadLetters(),
      step: async (msg) => {
        m.addMetric('seen', MetricUnit.Count, 1);
        if (msg.site === 'fail.com') throw new Error('transient');
      },
    });
    const records = [record({ v: 1, site: 'a.com' }), record({ v: 1, site: 'fail.com' }, { messageId: 'f' }), record('poison'), record({ v: 1, site: 'b.com' })];
    const res = await sqsBatchHandler({ processor: new BatchProcessor(EventType.SQS), recordHandler: handle, logger, metrics: m })({ Records: records }, context);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'f' }] });
    expect(m.hasStoredMetrics()).toBe(false);
  });

  it("logs the batch's message ids when an invocation starts (info), so the messages of one that then dies can be found", async () => {
    const lines: string[] = [];
    const info = new Logger({ serviceName: 'test', logLevel: 'INFO' });
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      // the invocation dies in its step: the handler never answers
      const handle = sqsRecordHandler({ schema: LearnMessageSchema, logger: info, step: () => new Promise<never>(() => undefined) });
      void sqsBatchHandler({ processor: new BatchProcessor(EventType.SQS), recordHandler: handle, logger: info, metrics: metrics() })(
        { Records: [record({ v: 1, site: 'a.com' }, { messageId: 'm-1' }), record({ v: 1, site: 'b.com' }, { messageId: 'm-2' })] },
        context,
      );
    } finally {
      spy.mockRestore();
    }
    const logged = lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([expect.objectContaining({ level: 'INFO', message: 'invocation started', messageIds: ['m-1', 'm-2'], function_request_id: 'req' })]);
  });

  it('a batch where every record fails is reported record by record, not thrown', async () => {
    const handle = sqsRecordHandler({ schema: LearnMessageSchema, logger, step: async () => Promise.reject(new Error('down')) });
    const handler = sqsBatchHandler({ processor: new BatchProcessor(EventType.SQS), recordHandler: handle, logger, metrics: metrics() });
    const res = await handler({ Records: [record({ v: 1, site: 'a.com' }, { messageId: 'only' })] }, context);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'only' }] });
  });

  it('runs records one after another when asked (render: one browser), side by side by default', async () => {
    const order = async (processInParallel?: boolean) => {
      const events: string[] = [];
      const handle = sqsRecordHandler({
        schema: LearnMessageSchema,
        logger,
        step: async (msg) => {
          events.push(`start ${msg.site}`);
          await new Promise((r) => setTimeout(r, 10));
          events.push(`end ${msg.site}`);
        },
      });
      const handler = sqsBatchHandler({ processor: new BatchProcessor(EventType.SQS), recordHandler: handle, logger, metrics: metrics(), ...(processInParallel === undefined ? {} : { processInParallel }) });
      await handler({ Records: [record({ v: 1, site: 'a.com' }), record({ v: 1, site: 'b.com' })] }, context);
      return events;
    };
    expect(await order(false)).toEqual(['start a.com', 'end a.com', 'start b.com', 'end b.com']);
    expect(await order()).toEqual(['start a.com', 'start b.com', 'end a.com', 'end b.com']);
  });

  it('FIFO: processing stops at the first failure and the rest of the batch is returned, in order', async () => {
    const seen: string[] = [];
    const handle = sqsRecordHandler({
      schema: LearnMessageSchema,
      logger,
      step: async (m) => {
        seen.push(m.site);
        if (m.site === 'b.com') throw new Error('transient');
      },
    });
    const records = ['a.com', 'b.com', 'c.com', 'a.com'].map((site, i) => record({ v: 1, site }, { messageId: `m${i}`, groupId: site }));
    const res = await sqsBatchHandler({ processor: new SqsFifoPartialProcessorAsync(), recordHandler: handle, logger, metrics: metrics() })({ Records: records }, context);
    expect(seen).toEqual(['a.com', 'b.com']);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }] });
  });
});

describe('RendererHolder', () => {
  class FakeRenderer {
    static made = 0;
    closed = false;
    constructor() {
      FakeRenderer.made++;
    }
    async close() {
      this.closed = true;
    }
  }
  const remaining = (ms: number) => {
    const end = Date.now() + ms;
    return { getRemainingTimeInMillis: () => end - Date.now() };
  };

  it('reuses one renderer across invocations and gives each render min(renderTimeout, remaining - margin)', async () => {
    FakeRenderer.made = 0;
    const holder = new RendererHolder(() => new FakeRenderer(), silentLogger, { marginMs: 10_000 });
    const budgets: number[] = [];
    const first = await holder.withDeadline(remaining(120_000), 45_000, async (r, budget) => (budgets.push(budget), r));
    const second = await holder.withDeadline(remaining(30_000), 45_000, async (r, budget) => (budgets.push(budget), r));
    expect(first).toBe(second);
    expect(FakeRenderer.made).toBe(1);
    expect(budgets[0]).toBe(45_000);
    expect(budgets[1]).toBeGreaterThan(19_000);
    expect(budgets[1]).toBeLessThanOrEqual(20_000);
  });

  it('a render past the hard deadline fails as retryable, and the browser is replaced', async () => {
    FakeRenderer.made = 0;
    // 3 s left and a 1.2 s margin: the deadline falls at 2.4 s, 0.6 s before the function's timeout
    // (room for a late timer on a busy machine)
    const holder = new RendererHolder(() => new FakeRenderer(), silentLogger, { marginMs: 1_200, minBudgetMs: 50 });
    let stuck: FakeRenderer | undefined;
    let budget = 0;
    vi.useFakeTimers();
    let outcome: unknown;
    try {
      const attempt = holder.withDeadline(remaining(3_000), 45_000, (r, ms) => {
        stuck = r;
        budget = ms;
        return new Promise(() => undefined); // never settles
      });
      void attempt.catch((e) => (outcome = e));
      await vi.advanceTimersByTimeAsync(2_399);
      expect(outcome).toBeUndefined(); // the render had remaining − margin (1.8 s); the hard deadline is remaining − margin / 2
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    expect(budget).toBe(1_800);
    expect(outcome).toBeInstanceOf(DeadlineExceededError);
    expect((outcome as Error).message).toBe('render did not finish within 2400 ms');
    expect(isNonRetryable(outcome)).toBe(false);
    expect(stuck?.closed).toBe(true);
    const next = await holder.withDeadline(remaining(3_000), 45_000, async (r) => r);
    expect(next).not.toBe(stuck);
    expect(FakeRenderer.made).toBe(2);
  });

  it('does not start a render without enough time left: a deferral of a second (StepNotStartedError), not a failure', async () => {
    const holder = new RendererHolder(() => new FakeRenderer(), silentLogger, { marginMs: 10_000, minBudgetMs: 5_000 });
    const run = vi.fn(async () => undefined);
    const refused = await holder.withDeadline(remaining(12_000), 45_000, run).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StepNotStartedError);
    expect((refused as Error).message).toMatch(/not starting a render$/);
    expect(deferralOf(refused)).toBe(1_000);
    expect(run).not.toHaveBeenCalled();
  });

  it('discarding closes within a bounded time even if close hangs', async () => {
    const holder = new RendererHolder(() => ({ close: () => new Promise<void>(() => undefined) }), silentLogger, { closeTimeoutMs: 100 });
    holder.get();
    vi.useFakeTimers();
    let done = false;
    try {
      void holder.discard().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(99);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('oneAtATimePer (the fetch function: one host at a time, hosts side by side)', () => {
  it('runs records of one host in batch order, one after another, and records of other hosts meanwhile; a failure does not stop the next', async () => {
    const events: string[] = [];
    const gates = new Map<string, () => void>();
    const handler = oneAtATimePer(hostOfRecord, async (r: SQSRecord) => {
      const url = JSON.parse(r.body).url as string;
      events.push(`start ${url}`);
      await new Promise<void>((resolve) => gates.set(url, resolve));
      events.push(`end ${url}`);
      if (url.endsWith('/a1')) throw new Error('a1 failed');
    });
    const a1 = record({ v: 1, url: 'https://a.test/a1' });
    const a2 = record({ v: 1, url: 'https://a.test/a2' });
    const b1 = record({ v: 1, url: 'https://b.test/b1' });
    const runs = [handler(a1), handler(a2), handler(b1)].map((p) => p.then(() => 'ok', (e: Error) => e.message));
    await vi.waitFor(() => expect(events).toEqual(['start https://a.test/a1', 'start https://b.test/b1']));
    gates.get('https://b.test/b1')!();
    await vi.waitFor(() => expect(events).toContain('end https://b.test/b1'));
    expect(events).not.toContain('start https://a.test/a2');
    gates.get('https://a.test/a1')!();
    await vi.waitFor(() => expect(events).toContain('start https://a.test/a2'));
    gates.get('https://a.test/a2')!();
    expect(await Promise.all(runs)).toEqual(['a1 failed', 'ok', 'ok']);
    expect(events).toEqual(['start https://a.test/a1', 'start https://b.test/b1', 'end https://b.test/b1', 'end https://a.test/a1', 'start https://a.test/a2', 'end https://a.test/a2']);
  });

  it('a body that names no host runs alone (keyed by its message id)', () => {
    expect(hostOfRecord(record('not json', { messageId: 'x1' }))).toBe('x1');
    expect(hostOfRecord(record({ v: 1, url: 'https://News.Example/p' }))).toBe('news.example');
  });
});

describe('recordBudget (the fetch function near its timeout)', () => {
  const left = (ms: number) => ({ getRemainingTimeInMillis: () => ms });
  it('gives the step its full time, less near the end of the invocation, and refuses to start below the minimum (a deferral of a second)', () => {
    expect(recordBudget(left(120_000), 45_000, 30_000, 5_000)).toBe(45_000);
    expect(recordBudget(left(50_000), 45_000, 30_000, 5_000)).toBe(20_000);
    expect(recordBudget(undefined, 45_000, 30_000, 5_000)).toBe(45_000);
    let error: unknown;
    try {
      recordBudget(left(34_000), 45_000, 30_000, 5_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StepNotStartedError);
    expect(deferralOf(error)).toBe(1_000);
  });
});
