/**
 * Fetch Lambda (arm64, no Chromium): the stack's intake. Consumes the fetch queue, one submitted URL a
 * record (a render message). A page of a site whose rules work on the HTML as served is fetched over
 * HTTP and handed to apply; every other page goes on, unchanged, to the render queue
 * (lib/step/fetch-step.ts, the same routing and fetch as the embedded runner's render consumer).
 * Records of a batch run concurrently (each mostly waits on the site and S3), but one at a time per host
 * (oneAtATimePer): the host's rate limit lets them go in turn anyway.
 */
import { BatchProcessor, EventType } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import { createAwsContext, failureHandlingFromEnv } from '../lib/aws/aws-context';
import { sqsBatchHandler } from '../lib/aws/batch-handler';
import { SERVICE_NAMES } from '../lib/aws/metric-names';
import { stepLogger } from '../lib/aws/logger';
import { hostOfRecord, oneAtATimePer, recordBudget, sqsRecordHandler, withinInvocation } from '../lib/aws/sqs-records';
import { recordDeadLetter, recordFetch, stepMetrics } from '../lib/aws/step-metrics';
import { fetchStep, MIN_FETCH_MS } from '../lib/step/fetch-step';
import { RenderMessageSchema } from '../lib/types/messages';
import { pageOutcome } from '../lib/step/outcomes';

const logger = new Logger({ serviceName: SERVICE_NAMES.fetch });
const metrics = stepMetrics('fetch');
const ctx = createAwsContext({ logger: stepLogger(logger) });
const processor = new BatchProcessor(EventType.SQS);
const recordHandler = oneAtATimePer(hostOfRecord, sqsRecordHandler({
  schema: RenderMessageSchema,
  logger,
  ...failureHandlingFromEnv(ctx.config),
  onDeadLetter: (error) => recordDeadLetter(metrics, error),
  // a receive beyond the last, whose invocation died after the page's article was written: done, no dead letter
  storedOutcome: (message, since) => pageOutcome(message, ctx.store, since),
  // Each fetch gets min(SPIDER_RENDER_TIMEOUT_MS, remaining time − 30 s: the host's turn, robots.txt, S3);
  // with less than 5 s for it the record is not started but deferred to a fresh invocation (no receive spent).
  // The budget is the fetch's alone: a step still running with ANSWER_MARGIN_MS of the invocation left (a host's
  // turn and robots.txt that took their time before it, a hung S3 request) fails (retryable), so the batch is answered.
  step: (message, _record, context) =>
    withinInvocation(context, async () =>
      recordFetch(metrics, await fetchStep(message, { ...ctx, fetchTimeoutMs: recordBudget(context, ctx.config.renderTimeoutMs, 30_000, MIN_FETCH_MS) })),
    ),
}));

export const handler = sqsBatchHandler({ processor, recordHandler, logger, metrics });
