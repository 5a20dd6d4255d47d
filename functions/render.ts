/**
 * Render Lambda: consumes the render queue, one URL a record, in a single Chromium kept warm across
 * invocations. Each render gets a deadline below the function's remaining time, so a slow page fails
 * as a retryable record (partial batch response) instead of the whole invocation timing out.
 */
import { BatchProcessor, EventType } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { createAwsContext, failureHandlingFromEnv } from '../lib/aws/aws-context';
import { sqsBatchHandler } from '../lib/aws/batch-handler';
import { SERVICE_NAMES } from '../lib/aws/metric-names';
import { stepLogger } from '../lib/aws/logger';
import { RendererHolder } from '../lib/aws/renderer-holder';
import { sqsRecordHandler } from '../lib/aws/sqs-records';
import { recordRender, recordDeadLetter, stepMetrics } from '../lib/aws/step-metrics';
import { Renderer } from '../lib/render/browser';
import { renderStep } from '../lib/render/render-step';
import { RenderMessageSchema } from '../lib/types/messages';
import { pageOutcome } from '../lib/step/outcomes';

const logger = new Logger({ serviceName: SERVICE_NAMES.render });
const metrics = stepMetrics('render');
const ctx = createAwsContext({ logger: stepLogger(logger) });
const renderers = new RendererHolder(() => new Renderer(ctx.config), ctx.logger);
const processor = new BatchProcessor(EventType.SQS);
const recordHandler = sqsRecordHandler({
  schema: RenderMessageSchema,
  logger,
  ...failureHandlingFromEnv(ctx.config),
  onDeadLetter: (error) => recordDeadLetter(metrics, error),
  // a receive beyond the last, whose invocation died after the page's article was written: done, no dead letter
  storedOutcome: (message, since) => pageOutcome(message, ctx.store, since),
  step: async (message, _record, context) =>
    recordRender(
      metrics,
      await renderers.withDeadline(context, ctx.config.renderTimeoutMs, (renderer, renderTimeoutMs) =>
        renderStep(message, { ...ctx, config: { ...ctx.config, renderTimeoutMs }, renderer }),
      ),
    ),
});

// One browser, one render at a time: records of a batch run one after another.
export const handler = sqsBatchHandler({ processor, recordHandler, logger, metrics, processInParallel: false });

/** Closes the warm browser (local runs and tests; Lambda just freezes the container). */
export const closeBrowser = (): Promise<void> => renderers.discard();
