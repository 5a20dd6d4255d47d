/**
 * What every SQS-triggered handler does with one record, so functions/<step>.ts stay a few lines:
 * parse the JSON body with the message's zod schema, call the step, and sort failures by retry meaning,
 * as the embedded runner's queues do (lib/queue/worker.ts, lib/queue/memory-queue.ts).
 *
 * - Retryable failure (any error but NonRetryableError): thrown, so the batch processor reports the
 *   record in `batchItemFailures` and SQS delivers it again after the visibility timeout; but on its
 *   last receive (`maxReceiveCount`, given to the function by the stack) it is sent to the dead-letter
 *   queue with the reason, `failed 5 times; last error: …`, and reported as processed.
 * - A receive beyond `maxReceiveCount` (the stack's redrive policy counts one more) comes only after a
 *   last receive that was never answered: the invocation timed out, ran out of memory or crashed, so no
 *   handler code ran to the end of the record. The step is not run again: the message goes to the
 *   dead-letter queue at once with a reason that says so (`received 5 times and never answered on its
 *   last receive: …`, as the embedded runner's queues say it). The redrive policy is left with what
 *   no handler can answer for: a message whose every invocation dies, or whose dead-letter send failed,
 *   on that extra receive too.
 *   But a last receive may have been answered (its step did its work) by an invocation that died
 *   after, before SQS was told: where the step says what its outcome is (`storedOutcome`), a receive
 *   beyond the count whose outcome is in the store, made since the message was sent, is deleted
 *   with an info line and no dead letter.
 * - Never-succeeding input (a body that is not JSON or fails the schema, or a NonRetryableError from
 *   the step): sent at once to the function's dead-letter queue with the reason in message attributes
 *   (`spider.error`, `spider.sourceQueue`, `spider.receiveCount`, `spider.messageId`), then reported
 *   as processed so SQS deletes it. Without a dead-letter queue URL it is thrown like a retryable
 *   failure and reaches the DLQ through the redrive policy, without the reason (logged instead).
 * - A deferral (HostBusyError: the host's turn has not come within the politeness wait) is no failure:
 *   the body is sent again to the function's own queue with DelaySeconds (the time until the host's
 *   turn on the first deferral, spread and growing after: deferralDelaySeconds) and the record
 *   reported as processed, so it spends no receive.
 *   The copy carries, in message attributes, how many times it was deferred (`spider.deferrals`) and
 *   the receives spent before (`spider.priorReceives`: a deferral takes back only its own receive, as
 *   the embedded runner's does). After `maxDeferrals` deferrals it is a dead letter that says so. If
 *   the send fails, the record fails as a retryable failure would (never lost). The counts are the
 *   copy's own only while it is that copy (`spider.sentAt`, ownCounts): a dead letter moved back to its
 *   queue, attributes and all, starts afresh.
 * - A step not started for lack of time (StepNotStartedError: recordBudget, RendererHolder; the
 *   records before it in the batch took the invocation's time) is deferred too, NOT_STARTED_RETRY_MS
 *   (a second) later: the message was never tried, so it spends no receive, and a busy batch cannot
 *   push it to its dead letter untried. These are counted apart (`spider.notStarted`), so that a
 *   message is never said to have waited for its host when it waited for time: after `maxDeferrals`
 *   of them (a function whose timeout leaves no record the time to start) it is a dead letter that
 *   says it was never started, and why.
 */
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { SendMessageCommand, type MessageAttributeValue, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { DeadlineExceededError, deferralOf, describeError, exhaustedReason, isNonRetryable, isNotStarted, neverAnsweredReason, NonRetryableError, StepNotStartedError } from '../util/errors';
import { rejectAfter } from '../util/timeout';
import { sqsClient } from './clients';
import { MAX_DELAY_SECONDS } from './sqs-queue';

/** What ends, on AWS, when a receive is never answered (neverAnsweredReason). */
const UNANSWERED_CAUSE = "the Lambda invocation handling it timed out, ran out of memory, crashed or was throttled (an invocation's log names its batch's message ids when it starts)";

/** Longest reason kept in the `spider.error` attribute. */
const MAX_REASON_CHARS = 2000;

/** SQS's most message attributes on one message. */
const MAX_MESSAGE_ATTRIBUTES = 10;

/** What the names of the message attributes the handlers write start with. */
const SPIDER_ATTRIBUTE_PREFIX = 'spider.';

/** The message attributes the handlers write. */
export const MESSAGE_ATTRIBUTES = {
  error: 'spider.error',
  sourceQueue: 'spider.sourceQueue',
  receiveCount: 'spider.receiveCount',
  messageId: 'spider.messageId',
  /** On a deferred message's copy: how many times it was deferred. */
  deferrals: 'spider.deferrals',
  /** On a deferred message's copy: the receives it spent before (failures), which its new copy does not show. */
  priorReceives: 'spider.priorReceives',
  /** On a deferred message's copy: how many times its step was not started for lack of time (absent: none). */
  notStarted: 'spider.notStarted',
  /**
   * On a deferred message's copy: when it was sent (ms since the epoch, the sender's clock). The counts
   * above are that copy's own only while it is that copy (ownCounts): one sent again much later (SQS's
   * redrive moved it to the dead-letter queue, attributes and all, and a user moved it back) starts afresh.
   */
  sentAt: 'spider.sentAt',
} as const;

/**
 * How much later than its `spider.sentAt` SQS may say a deferred copy was sent, for its counts to be
 * its own (ms). The send itself: the clocks of Lambda and SQS agree within a second, and the SDK's
 * attempts at a SendMessage take 90 s at most (lib/aws/clients.ts). A copy moved back from its
 * dead-letter queue was sent again after at least `maxReceiveCount` + 1 receives of a visibility timeout
 * each (6 × 361 s, 36 minutes, on the stack) and a user's redrive: far more.
 */
export const COPY_SEND_WINDOW_MS = 5 * 60_000;

export interface DeadLetterSender {
  send(record: SQSRecord, reason: string): Promise<void>;
}

/** Puts a record's body, unchanged, on a dead-letter queue with the reason it can never succeed. */
export class SqsDeadLetterSender implements DeadLetterSender {
  private readonly client: SQSClient;

  constructor(
    readonly queueUrl: string,
    client?: SQSClient,
  ) {
    this.client = client ?? sqsClient();
  }

  async send(record: SQSRecord, reason: string): Promise<void> {
    const A = MESSAGE_ATTRIBUTES;
    const attributes: Record<string, MessageAttributeValue> = {
      [A.error]: { DataType: 'String', StringValue: truncate(reason || 'unknown', MAX_REASON_CHARS) },
      [A.messageId]: { DataType: 'String', StringValue: record.messageId },
      [A.receiveCount]: { DataType: 'Number', StringValue: String(receivesOf(record)) },
    };
    if (record.eventSourceARN) attributes[A.sourceQueue] = { DataType: 'String', StringValue: record.eventSourceARN };
    const fifo = this.queueUrl.endsWith('.fifo');
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: record.body,
        MessageAttributes: attributes,
        ...(fifo ? { MessageGroupId: record.attributes.MessageGroupId ?? 'dead-letters', MessageDeduplicationId: record.messageId } : {}),
      }),
    );
  }
}

/**
 * How long a deferred message waits before it is delivered again: the time until its host's turn
 * (rounded up to seconds) on its first deferral; on its k-th, a random time in the upper half of up
 * to 2^(k-1) times that (never less than it), at most SQS's 900 s. The copies of one host's waiting
 * pages all learn the same turn: come back together, one takes it and the rest are deferred again, a
 * round of invocations per turn for every waiting page, and a backlog's later pages would reach
 * `maxDeferrals` while the host served the others. Spread and growing, each page's returns thin out
 * to one each 450 to 900 s after some 9 deferrals: `maxDeferrals` (300) deferrals are then some 55
 * hours of waiting, within the 4 days the queue keeps a message.
 */
export function deferralDelaySeconds(retryInMs: number, deferrals: number, random: () => number = Math.random): number {
  const turn = Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(retryInMs / 1000)));
  const upTo = Math.min(MAX_DELAY_SECONDS, turn * 2 ** Math.min(Math.max(0, deferrals - 1), 20));
  const from = Math.max(turn, Math.floor(upTo / 2));
  return Math.min(upTo, from + Math.floor(random() * (upTo - from + 1)));
}

/** What a deferred message's copy carries. */
export interface Deferral {
  /** Deferrals for its host's turn so far, this one included if it is one. */
  readonly deferrals: number;
  /** Receives spent before, not counting the one deferred. */
  readonly priorReceives: number;
  /** Times its step was not started for lack of time, this one included if it is one (absent: none). */
  readonly notStarted?: number;
}

export interface DeferralSender {
  /** Puts the record's body back on its own queue, delivered again after `delaySeconds`. */
  send(record: SQSRecord, delaySeconds: number, deferral: Deferral): Promise<void>;
}

/**
 * Puts a deferred record's body back on the queue it came from, with a delay: a new message, so the
 * receive the deferral took is not counted. Standard queues only (FIFO queues have no per-message delay).
 * The record's own message attributes go along but for spider.*; `spider.deferrals`, `spider.priorReceives` and
 * `spider.sentAt` are set, and `spider.notStarted` when the message was ever not started for lack of time.
 */
export class SqsDeferralSender implements DeferralSender {
  private readonly client: SQSClient;

  constructor(
    readonly queueUrl: string,
    client?: SQSClient,
    /** The clock of `spider.sentAt` (ms since the epoch). */
    private readonly now: () => number = Date.now,
  ) {
    if (queueUrl.endsWith('.fifo')) throw new Error(`cannot defer messages on ${queueUrl}: FIFO queues have no per-message delay`);
    this.client = client ?? sqsClient();
  }

  async send(record: SQSRecord, delaySeconds: number, deferral: Deferral): Promise<void> {
    const A = MESSAGE_ATTRIBUTES;
    const ours: Record<string, MessageAttributeValue> = {
      [A.deferrals]: { DataType: 'Number', StringValue: String(deferral.deferrals) },
      [A.priorReceives]: { DataType: 'Number', StringValue: String(deferral.priorReceives) },
      ...(deferral.notStarted ? { [A.notStarted]: { DataType: 'Number', StringValue: String(deferral.notStarted) } } : {}),
      [A.sentAt]: { DataType: 'Number', StringValue: String(this.now()) },
    };
    const theirs: Record<string, MessageAttributeValue> = {};
    for (const [name, value] of Object.entries(record.messageAttributes ?? {})) {
      // spider.* of an earlier life (a dead letter moved back keeps its spider.error) would be read as this copy's
      if (name.startsWith(SPIDER_ATTRIBUTE_PREFIX) || Object.keys(theirs).length >= MAX_MESSAGE_ATTRIBUTES - Object.keys(ours).length) continue;
      if (value.stringValue !== undefined) theirs[name] = { DataType: value.dataType, StringValue: value.stringValue };
      else if (value.binaryValue !== undefined) theirs[name] = { DataType: value.dataType, BinaryValue: Buffer.from(value.binaryValue, 'base64') };
    }
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: record.body,
        DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
        MessageAttributes: { ...theirs, ...ours },
      }),
    );
  }
}

/** What of a message's outcome the store holds, made since `since`; undefined when none (SqsRecordHandlerOptions.storedOutcome). */
export type StoredOutcome<M> = (message: M, since: Date) => Promise<string | undefined>;

export interface SqsRecordHandlerOptions<M> {
  readonly schema: z.ZodType<M>;
  readonly logger: PowertoolsLogger;
  /** Where never-succeeding messages go at once; without it they are retried until the redrive. */
  readonly deadLetters?: DeadLetterSender;
  /**
   * Receives a message is tried on (SPIDER_MAX_RECEIVE_COUNT; the queue's redrive policy counts one
   * more): on that receive a retryable failure goes to the dead-letter queue with its reason, and a
   * receive beyond it (the last one was never answered) goes there without running the step. Without
   * it (or without deadLetters) both are left to the redrive.
   */
  readonly maxReceiveCount?: number;
  /** Where a deferred message goes back to (its own queue); without it a deferral fails like any error. */
  readonly deferrals?: DeferralSender;
  /**
   * Deferrals after which a message is a dead letter that says its host's turn never came
   * (SPIDER_MAX_DEFERRALS), and, counted apart, times not started for lack of time after which it is
   * one that says so; without it, no bound.
   */
  readonly maxDeferrals?: number;
  readonly step: (message: M, record: SQSRecord, context: Context | undefined) => Promise<unknown>;
  /**
   * The step's answer to "is it done?", asked of a receive beyond `maxReceiveCount` before it is
   * dead-lettered as never answered: what of the message's outcome the store holds, made at or
   * after `since` (when the message was sent: its SentTimestamp), as a few words
   * for the log (its key); undefined when none. The step names its outputs (lib/step/outcomes.ts);
   * the handler knows none of them. Without it, such a receive is always
   * dead-lettered.
   */
  readonly storedOutcome?: StoredOutcome<M>;
  /** Called for each message the handler puts on the dead-letter queue (the handler's metrics count them). */
  readonly onDeadLetter?: (error: unknown) => void;
}

/** A Powertools batch record handler for one step. */
export function sqsRecordHandler<M>(options: SqsRecordHandlerOptions<M>): (record: SQSRecord, context?: Context) => Promise<void> {
  const { schema, logger, deadLetters, maxReceiveCount, deferrals, maxDeferrals = Number.POSITIVE_INFINITY, step, onDeadLetter, storedOutcome } = options;
  return async (record, context) => {
    const receives = receivesOf(record);
    const where = { messageId: record.messageId, receiveCount: receives, groupId: record.attributes?.MessageGroupId };

    /** Puts the record on the dead-letter queue with the reason; false when there is none to put it on. */
    const deadLetter = async (failure: unknown, reason: string, message: string): Promise<boolean> => {
      if (!deadLetters) return false;
      await deadLetters.send(record, reason);
      onDeadLetter?.(failure);
      logger.error(message, { ...where, error: reason });
      return true;
    };

    if (maxReceiveCount !== undefined && receives > maxReceiveCount && receiveCountOf(record) > 1) {
      // Its last receive never answered SQS (a deferred copy's first receive is never one: it was just sent);
      // but its step may have done its work before the invocation died
      const outcome = storedOutcome ? await outcomeSinceSent(record, schema, storedOutcome, logger, where) : undefined;
      if (outcome !== undefined) {
        logger.info('message received again after its last receive, whose invocation died after its step had done its work; its outcome is stored, so it is deleted, no dead letter', { ...where, outcome });
        return;
      }
      const why = neverAnsweredReason(receives - 1, UNANSWERED_CAUSE);
      const unanswered = new NonRetryableError(why, { kind: 'retries-exhausted' });
      if (await deadLetter(unanswered, why, 'message received again after its last receive, which never answered; sent to the dead-letter queue, not run again')) return;
      logger.error('message received again after its last receive, which never answered; no dead-letter queue configured, leaving it to the redrive policy', { ...where, error: why });
      throw unanswered;
    }

    try {
      const message = parseMessage(record.body, schema);
      await step(message, record, context);
      logger.debug('message processed', where);
    } catch (error) {
      let reason = describeError(error);
      const deferMs = deferralOf(error);
      if (deferMs !== undefined && deferrals) {
        // Not started for lack of time, or its host's turn has not come: counted apart, each bounded by maxDeferrals.
        const notStarted = isNotStarted(error);
        const timesNotStarted = notStartedOf(record) + (notStarted ? 1 : 0);
        const deferral: Deferral = { deferrals: deferralsOf(record) + (notStarted ? 0 : 1), priorReceives: receives - 1, ...(timesNotStarted ? { notStarted: timesNotStarted } : {}) };
        if ((notStarted ? timesNotStarted : deferral.deferrals) > maxDeferrals) {
          const why = notStarted
            ? `not started ${maxDeferrals} times, its invocations never had the time left for it; last: ${reason}`
            : `deferred ${maxDeferrals} times, its host's turn never came; last: ${reason}`;
          const exhausted = new NonRetryableError(why, { kind: 'retries-exhausted', cause: error });
          if (await deadLetter(exhausted, why, 'message deferred too many times; sent to the dead-letter queue')) return;
          logger.error('message deferred too many times; no dead-letter queue configured, leaving it to the redrive policy', { ...where, error: why });
          throw error;
        }
        const delaySeconds = notStarted ? Math.ceil(deferMs / 1000) : deferralDelaySeconds(deferMs, deferral.deferrals);
        try {
          await deferrals.send(record, delaySeconds, deferral);
          const what = notStarted
            ? 'not started, too little time left in this invocation: message sent again to its queue with a delay, no receive spent'
            : 'host busy: message sent again to its queue with a delay, no receive spent';
          logger.info(what, { ...where, delaySeconds, deferrals: deferral.deferrals, notStarted: timesNotStarted, error: reason });
          return;
        } catch (sendError) {
          // Not put back: the record fails as any retryable failure, and SQS delivers it again.
          reason = `${reason} (and could not be sent again with a delay: ${describeError(sendError)})`;
        }
      }
      if (!isNonRetryable(error)) {
        if (maxReceiveCount !== undefined && receives >= maxReceiveCount) {
          const why = exhaustedReason(receives, reason);
          const exhausted = new NonRetryableError(why, { kind: 'retries-exhausted', cause: error });
          if (await deadLetter(exhausted, why, 'message failed on its last receive; sent to the dead-letter queue')) return;
        }
        logger.warn('message failed; SQS will deliver it again', { ...where, error: reason });
        throw error;
      }
      if (await deadLetter(error, reason, 'message can never succeed; sent to the dead-letter queue')) return;
      logger.error('message can never succeed; no dead-letter queue configured, leaving it to the redrive policy', { ...where, error: reason });
      throw error;
    }
  };
}

/**
 * The outcome the step finds stored for the record's message since it was sent (SentTimestamp);
 * undefined when there is none, the body is no message, or the question fails
 * (logged: the message is then dead-lettered as before, never deleted unanswered).
 */
async function outcomeSinceSent<M>(record: SQSRecord, schema: z.ZodType<M>, storedOutcome: StoredOutcome<M>, logger: PowertoolsLogger, where: object): Promise<string | undefined> {
  const sentMs = Number(record.attributes?.SentTimestamp);
  if (!Number.isFinite(sentMs) || sentMs <= 0) return undefined;
  let message: M;
  try {
    message = parseMessage(record.body, schema);
  } catch {
    return undefined;
  }
  try {
    return await storedOutcome(message, new Date(sentMs));
  } catch (error) {
    logger.warn('could not tell whether the step of a message received beyond its last receive had done its work', { ...where, error: describeError(error) });
    return undefined;
  }
}

/**
 * The time a record's step may take: `maxMs`, or less when the invocation has less than `maxMs` +
 * `marginMs` left (the margin covers what the step does besides, and returning the batch response
 * before Lambda's timeout). Below `minMs` the step is not started: StepNotStartedError, a deferral, so
 * the record goes back to its queue for a fresh invocation (no receive spent) instead of the whole
 * batch timing out.
 */
export function recordBudget(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, maxMs: number, marginMs: number, minMs: number, what = 'the step'): number {
  const remaining = context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
  const budget = Math.floor(Math.min(maxMs, remaining - marginMs));
  if (budget < minMs) throw new StepNotStartedError(`only ${Math.max(0, Math.round(remaining))} ms left in this invocation; not starting ${what}`);
  return budget;
}

/**
 * Time an invocation keeps back, after its records' steps are given up, to answer for them: the
 * dead-letter and deferral sends, the batch response (ms).
 */
export const ANSWER_MARGIN_MS = 5_000;

/**
 * A record's step, failed as retryable (DeadlineExceededError: it was tried) when it still runs with
 * `marginMs` of the invocation left, so that the invocation answers its batch before Lambda's
 * timeout. What holds a step that long is no budget of its own: an S3 or SQS request that hangs is
 * given up only after the SDK's three attempts of up to the clients' timeouts each (lib/aws/clients.ts:
 * some 40 s for a silent connection, 90 s for one that trickles), more than the fetch function keeps
 * back (30 s) and most of apply's 60 s; and an invocation that dies leaves its whole batch unanswered,
 * the records that succeeded done again and every one's receive spent. The step is left to settle
 * on its own, as RendererHolder leaves a render past its deadline.
 */
export function withinInvocation<T>(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, work: () => Promise<T>, marginMs = ANSWER_MARGIN_MS): Promise<T> {
  const remaining = context?.getRemainingTimeInMillis();
  const running = work();
  if (remaining === undefined || !Number.isFinite(remaining)) return running;
  const ms = Math.max(0, Math.round(remaining - marginMs));
  return rejectAfter(running, ms, () => new DeadlineExceededError(`the step did not finish within ${ms} ms, ${marginMs} ms before the invocation's timeout; given up so the invocation answers its batch`));
}

/**
 * Runs a batch's records concurrently, except that records with the same key run one after another, in
 * batch order. The fetch function keys by host: pages of different hosts are fetched side by side, pages
 * of one host in turn, as the per-host rate limit lets them go anyway; concurrent records of one host
 * would only race for its rate-limit slot in S3 (conditional writes that fail and are retried: S3 PUT
 * requests billed for nothing).
 */
export function oneAtATimePer<R extends { readonly messageId: string }, C>(key: (record: R) => string, handler: (record: R, context?: C) => Promise<void>): (record: R, context?: C) => Promise<void> {
  const tails = new Map<string, Promise<unknown>>();
  return async (record, context) => {
    const k = key(record);
    const previous = tails.get(k) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => handler(record, context));
    tails.set(k, mine);
    try {
      return await mine;
    } finally {
      if (tails.get(k) === mine) tails.delete(k);
    }
  };
}

/** The host a render message's body names, or the record's own id when it names none (each runs alone). */
export function hostOfRecord(record: Pick<SQSRecord, 'body' | 'messageId'>): string {
  try {
    const url = (JSON.parse(record.body) as { url?: unknown }).url;
    if (typeof url === 'string') return URL.parse(url)?.hostname ?? record.messageId;
  } catch {
    // not JSON: the step names it as invalid
  }
  return record.messageId;
}

/** The record's JSON body checked against the schema; NonRetryableError when it is not one. */
export function parseMessage<M>(body: string, schema: z.ZodType<M>): M {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new NonRetryableError(`invalid message: body is not JSON: ${truncate(body, 200)}`, { kind: 'invalid-message' });
  }
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(json);
  } catch (error) {
    // A refinement that throws on odd input is still the message's fault, not a reason to retry.
    throw new NonRetryableError(`invalid message: ${describeError(error)}`, { kind: 'invalid-message' });
  }
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`);
    throw new NonRetryableError(`invalid message: ${problems.join('; ')}`, { kind: 'invalid-message' });
  }
  return result.data;
}

/** SQS's receive count of this copy of the message. */
export function receiveCountOf(record: SQSRecord): number {
  return Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
}

/** The message's receives: this copy's, and those spent before it was deferred (`spider.priorReceives`, its own: ownCounts). */
export function receivesOf(record: SQSRecord): number {
  return receiveCountOf(record) + countAttribute(record, MESSAGE_ATTRIBUTES.priorReceives);
}

/** Times the message was deferred for its host's turn (`spider.deferrals`, its own: ownCounts). */
export function deferralsOf(record: SQSRecord): number {
  return countAttribute(record, MESSAGE_ATTRIBUTES.deferrals);
}

/** Times the message's step was not started for lack of time (`spider.notStarted`, its own: ownCounts). */
export function notStartedOf(record: SQSRecord): number {
  return countAttribute(record, MESSAGE_ATTRIBUTES.notStarted);
}

/**
 * Whether the counts a deferred copy carries are this message's: SQS says it was sent within
 * COPY_SEND_WINDOW_MS of its `spider.sentAt`. A dead letter SQS's redrive moved keeps its message
 * attributes, and a move back to its queue (StartMessageMoveTask: the console's "DLQ redrive") is a new
 * send that keeps them too: counted, the message would start with the receives, deferrals and
 * not-started times of its earlier life, and be a dead letter again at once. A copy without
 * `spider.sentAt` (sent before it was written) keeps its counts.
 */
export function ownCounts(record: SQSRecord): boolean {
  const sentAt = Number(record.messageAttributes?.[MESSAGE_ATTRIBUTES.sentAt]?.stringValue);
  const sent = Number(record.attributes?.SentTimestamp);
  return !Number.isFinite(sentAt) || !Number.isFinite(sent) || sent - sentAt <= COPY_SEND_WINDOW_MS;
}

function countAttribute(record: SQSRecord, name: string): number {
  return ownCounts(record) ? numberAttribute(record, name) : 0;
}

function numberAttribute(record: SQSRecord, name: string): number {
  const n = Number(record.messageAttributes?.[name]?.stringValue);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}
