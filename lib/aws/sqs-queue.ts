/**
 * Queues on AWS: SQS, sending JSON bodies. Consuming is Lambda's event source mapping (functions/).
 *
 * - FIFO queues (URL ending in `.fifo`): `groupId` becomes MessageGroupId (required) and
 *   `deduplicationId` MessageDeduplicationId (without one the queue's content-based deduplication
 *   applies). SQS has no per-message delay on FIFO queues, so `delaySeconds` is ignored there.
 * - Standard queues: `delaySeconds` becomes DelaySeconds (0-900); group and deduplication ids are
 *   FIFO-only and not sent.
 * Messages carry keys, never HTML: a body over SQS's 256 KiB cap is refused before sending.
 */
import { createHash } from 'node:crypto';
import {
  SendMessageBatchCommand,
  SendMessageCommand,
  type SendMessageBatchRequestEntry,
  type SendMessageCommandInput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { sqsClient } from './clients';
import type { QueueSender, SendOptions } from '../queue/queue';

/** SQS's message size cap (bytes), for one message and for one batch. */
export const MAX_SQS_MESSAGE_BYTES = 256 * 1024;
/** SQS's most entries in one SendMessageBatch. */
export const MAX_SQS_BATCH_ENTRIES = 10;
/** SQS's longest per-message delay (DelaySeconds), in seconds. */
export const MAX_DELAY_SECONDS = 900;

export interface SqsQueueSenderOptions {
  readonly queueUrl: string;
  /** Defaults to the process's shared client (lib/aws/clients.ts). */
  readonly client?: SQSClient;
  /** Defaults to whether the URL ends in `.fifo`. */
  readonly fifo?: boolean;
}

export interface BatchEntry<T> {
  readonly body: T;
  readonly options?: SendOptions;
}

export interface BatchFailure<T> {
  /** Position of the entry in the array given to sendBatch. */
  readonly index: number;
  readonly body: T;
  readonly code: string;
  readonly message: string;
  /** True when the entry itself is at fault (resending it unchanged fails again). */
  readonly senderFault: boolean;
}

export interface BatchResult<T> {
  readonly sent: number;
  readonly failed: BatchFailure<T>[];
}

export class SqsQueueSender<T> implements QueueSender<T> {
  readonly queueUrl: string;
  readonly fifo: boolean;
  private readonly client: SQSClient;

  constructor(options: SqsQueueSenderOptions) {
    if (!options.queueUrl) throw new Error('SqsQueueSender needs a queue URL');
    this.queueUrl = options.queueUrl;
    this.fifo = options.fifo ?? options.queueUrl.endsWith('.fifo');
    this.client = options.client ?? sqsClient();
  }

  async send(body: T, options: SendOptions = {}): Promise<void> {
    const entry = this.entry(body, options);
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, ...entry }));
  }

  /**
   * Sends many messages with SendMessageBatch, up to 10 entries (and 256 KiB) a call.
   * Never throws for a rejected entry: each one is returned with SQS's reason. An entry that cannot
   * be sent at all (too large, a FIFO entry without group) is returned as a sender fault too.
   */
  async sendBatch(entries: readonly BatchEntry<T>[]): Promise<BatchResult<T>> {
    const failed: BatchFailure<T>[] = [];
    let sent = 0;
    let chunk: { index: number; entry: Omit<SendMessageBatchRequestEntry, 'Id'> }[] = [];
    let chunkBytes = 0;

    const flush = async () => {
      if (chunk.length === 0) return;
      const current = chunk;
      chunk = [];
      chunkBytes = 0;
      try {
        const out = await this.client.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: current.map(({ index, entry }) => ({ Id: String(index), ...entry })),
          }),
        );
        sent += out.Successful?.length ?? 0;
        for (const f of out.Failed ?? []) {
          const index = Number(f.Id);
          failed.push({ index, body: entries[index].body, code: f.Code ?? 'Unknown', message: f.Message ?? f.Code ?? 'rejected', senderFault: f.SenderFault ?? false });
        }
      } catch (error) {
        const err = error as Error;
        for (const { index } of current) {
          failed.push({ index, body: entries[index].body, code: err.name, message: err.message, senderFault: false });
        }
      }
    };

    for (const [index, { body, options }] of entries.entries()) {
      let entry: Omit<SendMessageBatchRequestEntry, 'Id'>;
      try {
        entry = this.entry(body, options ?? {});
      } catch (error) {
        failed.push({ index, body, code: 'InvalidEntry', message: (error as Error).message, senderFault: true });
        continue;
      }
      const bytes = Buffer.byteLength(entry.MessageBody!);
      if (chunk.length === MAX_SQS_BATCH_ENTRIES || chunkBytes + bytes > MAX_SQS_MESSAGE_BYTES) await flush();
      chunk.push({ index, entry });
      chunkBytes += bytes;
    }
    await flush();
    failed.sort((a, b) => a.index - b.index);
    return { sent, failed };
  }

  private entry(body: T, options: SendOptions): Omit<SendMessageCommandInput, 'QueueUrl'> {
    const messageBody = JSON.stringify(body);
    const bytes = Buffer.byteLength(messageBody);
    if (bytes > MAX_SQS_MESSAGE_BYTES) {
      throw new Error(`message of ${bytes} bytes exceeds SQS's ${MAX_SQS_MESSAGE_BYTES}-byte cap: messages carry store keys, not content`);
    }
    if (this.fifo) {
      if (!options.groupId) throw new Error(`queue ${this.queueUrl} is FIFO: a message needs a groupId`);
      return {
        MessageBody: messageBody,
        MessageGroupId: options.groupId,
        ...(options.deduplicationId ? { MessageDeduplicationId: sqsDeduplicationId(options.deduplicationId) } : {}),
      };
    }
    const delay = options.delaySeconds;
    if (delay !== undefined && !(Number.isInteger(delay) && delay >= 0 && delay <= MAX_DELAY_SECONDS)) {
      throw new Error(`delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
    }
    return { MessageBody: messageBody, ...(delay ? { DelaySeconds: delay } : {}) };
  }
}

/**
 * SQS deduplication ids are at most 128 characters of [A-Za-z0-9] and punctuation;
 * longer or other ids are replaced by a hash of themselves (same id in, same id out).
 */
export function sqsDeduplicationId(id: string): string {
  if (id.length <= 128 && /^[\x21-\x7e]+$/.test(id)) return id;
  return createHash('sha256').update(id).digest('hex');
}
