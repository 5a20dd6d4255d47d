/**
 * Queues between the steps: SQS on AWS, in-process queues with SQS's semantics on one machine.
 * Steps only send; consuming is the runner's business (Lambda's event source mapping, or ./worker.ts).
 */
import type { ApplyMessage, LearnMessage, RenderMessage } from '../types/messages';

export interface SendOptions {
  /** FIFO queues: messages of one group are delivered in order, one at a time. */
  readonly groupId?: string;
  /** FIFO queues: a second message with the same id within the deduplication window is dropped. */
  readonly deduplicationId?: string;
  readonly delaySeconds?: number;
}

export interface QueueSender<T> {
  send(body: T, options?: SendOptions): Promise<void>;
}

/** The queues a step may send to. */
export interface Queues {
  readonly render: QueueSender<RenderMessage>;
  readonly learn: QueueSender<LearnMessage>;
  readonly apply: QueueSender<ApplyMessage>;
}

/** A message as a consumer receives it. */
export interface ReceivedMessage<T = unknown> {
  readonly id: string;
  readonly body: T;
  /** How many times it has been received, this time included (SQS ApproximateReceiveCount). */
  readonly receiveCount: number;
  readonly groupId?: string;
}
