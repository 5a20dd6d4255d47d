/**
 * What `spider status` reports, the same shape for the embedded store and a deployed stack
 * (lib/pipeline/embedded.ts status(), lib/aws/queue-status.ts deployedStatus()).
 */
import type { StoreSummary } from '../store/summary';

export interface QueueCounts {
  /** Waiting to be received (delayed and retry-waiting ones included). */
  readonly pending: number;
  /** Received by a consumer and not yet deleted or failed. */
  readonly inFlight: number;
  /** On the queue's dead-letter queue. */
  readonly deadLettered: number;
  /** Age of the oldest pending message in seconds; 0 when none; null when it cannot be known (`note` says why). */
  readonly oldestPendingAgeSeconds: number | null;
  readonly note?: string;
}

export type QueueName = 'render' | 'learn' | 'apply';

/** On AWS the stack's intake is the fetch queue (docs/aws.md); the embedded runner has none (render's consumer routes). */
export type StatusQueueName = 'fetch' | QueueName;

export interface SpiderStatus {
  /** `embedded` (a data folder) or `aws` (a deployed stack). */
  readonly where: 'embedded' | 'aws';
  /** The data folder, or the bucket. */
  readonly location: string;
  readonly at: string;
  readonly queues: Readonly<Record<QueueName, QueueCounts> & Partial<Record<'fetch', QueueCounts>>>;
  readonly store: StoreSummary;
  /** Embedded: a `spider run`/`work` in another process, as it last reported itself. */
  readonly running?: { readonly pid: number; readonly startedAt: string; readonly updatedAt: string };
}
