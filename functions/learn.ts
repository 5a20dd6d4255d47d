/**
 * Learn Lambda: consumes the FIFO learn queue (one message group per site, so a site never learns
 * twice at once). Records are processed in order; at the first failure the rest of the batch is
 * reported failed too, so no message of a group overtakes another (SqsFifoPartialProcessorAsync).
 */
import { SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { createAwsContext, failureHandlingFromEnv } from '../lib/aws/aws-context';
import { sqsBatchHandler } from '../lib/aws/batch-handler';
import { SERVICE_NAMES } from '../lib/aws/metric-names';
import { stepLogger } from '../lib/aws/logger';
import { sqsRecordHandler } from '../lib/aws/sqs-records';
import { recordLearn, recordDeadLetter, stepMetrics } from '../lib/aws/step-metrics';
import { learnStep } from '../lib/learn/learn-step';
import { LearnMessageSchema } from '../lib/types/messages';

const logger = new Logger({ serviceName: SERVICE_NAMES.learn });
const metrics = stepMetrics('learn');
const ctx = createAwsContext({ logger: stepLogger(logger) });
const processor = new SqsFifoPartialProcessorAsync();
const recordHandler = sqsRecordHandler({
  schema: LearnMessageSchema,
  logger,
  ...failureHandlingFromEnv(ctx.config),
  onDeadLetter: (error) => recordDeadLetter(metrics, error),
  step: async (message) => {
    const started = performance.now();
    recordLearn(metrics, await learnStep(message, ctx), performance.now() - started);
  },
});

export const handler = sqsBatchHandler({ processor, recordHandler, logger, metrics });
