/**
 * What every SQS-triggered handler does with one record, so functions/<step>.ts stay a few lines:
 * parse the JSON body with the message's zod schema, call the step, and sort failures by retry meaning.
 *
 * - Retryable failure (any error but NonRetryableError): thrown, so the batch processor reports the
 *   record in `batchItemFailures`; SQS delivers it again after the visibility timeout and moves it to
 *   the dead-letter queue after the queue's maxReceiveCount (the redrive policy).
 * - Never-succeeding input (a body that is not JSON or fails the schema, or a NonRetryableError from
 *   the step): sent at once to the function's dead-letter queue with the reason in message attributes
 *   (`spider.error`, `spider.sourceQueue`, `spider.receiveCount`, `spider.messageId`), then reported
 *   as processed so SQS deletes it. Without a dead-letter queue URL it is thrown like a retryable
 *   failure and reaches the DLQ through the redrive policy, without the reason (logged instead).
 */
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { SendMessageCommand, type MessageAttributeValue, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { DeadlineExceededError, describeError, isNonRetryable, NonRetryableError } from '../util/errors';
import { sqsClient } from './clients';

/** Longest reason kept in the `spider.error` attribute. */
const MAX_REASON_CHARS = 2000;

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
    const attributes: Record<string, MessageAttributeValue> = {
      'spider.error': { DataType: 'String', StringValue: truncate(reason || 'unknown', MAX_REASON_CHARS) },
      'spider.messageId': { DataType: 'String', StringValue: record.messageId },
      'spider.receiveCount': { DataType: 'Number', StringValue: String(receiveCountOf(record)) },
    };
    if (record.eventSourceARN) attributes['spider.sourceQueue'] = { DataType: 'String', StringValue: record.eventSourceARN };
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

export interface SqsRecordHandlerOptions<M> {
  readonly schema: z.ZodType<M>;
  readonly logger: PowertoolsLogger;
  /** Where never-succeeding messages go at once; without it they are retried until the redrive. */
  readonly deadLetters?: DeadLetterSender;
  readonly step: (message: M, record: SQSRecord, context: Context | undefined) => Promise<unknown>;
  /** Called for each message put on the dead-letter queue at once (the handler's metrics count them). */
  readonly onDeadLetter?: (error: unknown) => void;
}

/** A Powertools batch record handler for one step. */
export function sqsRecordHandler<M>(options: SqsRecordHandlerOptions<M>): (record: SQSRecord, context?: Context) => Promise<void> {
  const { schema, logger, deadLetters, step, onDeadLetter } = options;
  return async (record, context) => {
    const where = { messageId: record.messageId, receiveCount: receiveCountOf(record), groupId: record.attributes?.MessageGroupId };
    try {
      const message = parseMessage(record.body, schema);
      await step(message, record, context);
      logger.debug('message processed', where);
    } catch (error) {
      const reason = describeError(error);
      if (!isNonRetryable(error)) {
        logger.warn('message failed; SQS will deliver it again', { ...where, error: reason });
        throw error;
      }
      if (!deadLetters) {
        logger.error('message can never succeed; no dead-letter queue configured, leaving it to the redrive policy', { ...where, error: reason });
        throw error;
      }
      await deadLetters.send(record, reason);
      onDeadLetter?.(error);
      logger.error('message can never succeed; sent to the dead-letter queue', { ...where, error: reason });
    }
  };
}

/**
 * The time a record's step may take: `maxMs`, or less when the invocation has less than `maxMs` +
 * `marginMs` left (the margin covers what the step does besides, and returning the batch response
 * before Lambda's timeout). Below `minMs` the step is not started: DeadlineExceededError, retryable,
 * so SQS delivers the record again to a fresh invocation instead of the whole batch timing out.
 */
export function recordBudget(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, maxMs: number, marginMs: number, minMs: number): number {
  const remaining = context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
  const budget = Math.floor(Math.min(maxMs, remaining - marginMs));
  if (budget < minMs) throw new DeadlineExceededError(`only ${Math.max(0, Math.round(remaining))} ms left in this invocation; not starting the step`);
  return budget;
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

export function receiveCountOf(record: SQSRecord): number {
  return Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}
