/**
 * Apply Lambda: consumes the apply queue; extracts each page's article with its site's rules.
 * Records of a batch run concurrently (apply is short and mostly waits on S3).
 */
import { BatchProcessor, EventType } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { applyOutcome } from '../lib/step/outcomes';
import { applyPage } from '../lib/apply/apply-step';
import { createAwsContext, failureHandlingFromEnv } from '../lib/aws/aws-context';
import { sqsBatchHandler } from '../lib/aws/batch-handler';
import { SERVICE_NAMES } from '../lib/aws/metric-names';
import { stepLogger } from '../lib/aws/logger';
import { sqsRecordHandler, withinInvocation } from '../lib/aws/sqs-records';
import { recordApply, recordDeadLetter, stepMetrics } from '../lib/aws/step-metrics';
import { ApplyMessageSchema } from '../lib/types/messages';

const logger = new Logger({ serviceName: SERVICE_NAMES.apply });
const metrics = stepMetrics('apply');
const ctx = createAwsContext({ logger: stepLogger(logger) });
const processor = new BatchProcessor(EventType.SQS);
const recordHandler = sqsRecordHandler({
  schema: ApplyMessageSchema,
  logger,
  ...failureHandlingFromEnv(ctx.config),
  onDeadLetter: (error) => recordDeadLetter(metrics, error),
  // the extraction's figures, written or not (an article made under newer rules may stand: lib/apply/apply-step.ts);
  // a step still running with ANSWER_MARGIN_MS of the invocation left fails (retryable), so the batch is answered
  step: (message, _record, context) => withinInvocation(context, async () => recordApply(metrics, (await applyPage(message, ctx)).extracted)),
  // a receive beyond the last, whose invocation died after the apply wrote its article: done, no dead letter
  storedOutcome: (message, since) => applyOutcome(message, ctx.store, since),
});

export const handler = sqsBatchHandler({ processor, recordHandler, logger, metrics });
