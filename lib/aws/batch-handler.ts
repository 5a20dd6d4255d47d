/**
 * The Lambda handler of a step, around its record handler (sqs-records.ts): the records of an SQS
 * batch go through Powertools' batch processor, the response names only the records that failed
 * (partial batch response: SQS deletes the rest), and the invocation's metrics are published whatever
 * happens. A batch whose every record failed is answered the same way, not thrown: each record then
 * follows its own retry count to the dead-letter queue.
 *
 * Each invocation first logs its batch's message ids (info): an invocation that times out, runs out of
 * memory or crashes answers for none of its records, and Lambda's own line for it names none, so this
 * line is where its messages are found (a message that died so on its last receive is dead-lettered
 * on the next one, saying so: sqs-records.ts).
 */
import { processPartialResponse, type BatchProcessor } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { publishMetrics } from './step-metrics';

export interface SqsBatchHandlerOptions {
  readonly processor: BatchProcessor;
  readonly recordHandler: (record: SQSRecord, context?: Context) => Promise<void>;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Records of a batch run concurrently (the default) or, when false, one after another. */
  readonly processInParallel?: boolean;
}

export function sqsBatchHandler(options: SqsBatchHandlerOptions): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  const { processor, recordHandler, logger, metrics, processInParallel = true } = options;
  return async (event, context) => {
    logger.addContext(context);
    logger.info('invocation started', { messageIds: event.Records.map((r) => r.messageId) });
    try {
      return await processPartialResponse(event, recordHandler, processor, { context, processInParallel, throwOnFullBatchFailure: false });
    } finally {
      publishMetrics(metrics);
    }
  };
}
