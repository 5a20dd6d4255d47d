/**
 * A StepContext on AWS: the S3 store and SQS queues named by the environment
 * (SPIDER_BUCKET, SPIDER_RENDER_QUEUE_URL, SPIDER_LEARN_QUEUE_URL, SPIDER_APPLY_QUEUE_URL), and what
 * a function's record handler does with failures and deferrals (failureHandlingFromEnv).
 * A queue without a URL gets a sender that refuses with a clear message: each function is given
 * (and allowed to send to) only the queues it uses.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig, type Config } from '../config/config';
import { silentLogger, type Logger, type StepContext } from '../step/context';
import type { QueueSender, Queues } from '../queue/queue';
import { SqsQueueSender } from './sqs-queue';
import { S3Store } from './s3-store';
import type { ApplyMessage, LearnMessage, RenderMessage } from '../types/messages';
import type { Env } from './clients';
import { SqsDeadLetterSender, SqsDeferralSender, type DeadLetterSender, type SqsRecordHandlerOptions } from './sqs-records';
import { AWS_ENV, awsTargetFromEnv, type AwsTarget } from './stack-outputs';

export interface AwsContextOptions {
  /** Defaults to the environment (awsTargetFromEnv). */
  readonly target?: AwsTarget;
  readonly config?: Config;
  readonly logger?: Logger;
  readonly s3?: S3Client;
  readonly sqs?: SQSClient;
}

export function createAwsQueues(target: AwsTarget, client?: SQSClient): Queues {
  const sender = <T>(url: string | undefined, name: string, env: string): QueueSender<T> =>
    url ? new SqsQueueSender<T>({ queueUrl: url, client }) : unconfigured<T>(name, env);
  return {
    render: sender<RenderMessage>(target.renderQueueUrl, 'render', AWS_ENV.renderQueueUrl),
    learn: sender<LearnMessage>(target.learnQueueUrl, 'learn', AWS_ENV.learnQueueUrl),
    apply: sender<ApplyMessage>(target.applyQueueUrl, 'apply', AWS_ENV.applyQueueUrl),
  };
}

export function createAwsContext(options: AwsContextOptions = {}): StepContext {
  const target = options.target ?? awsTargetFromEnv();
  if (!target) throw new Error(`${AWS_ENV.bucket} is not set: the AWS context needs the bucket name`);
  return {
    store: new S3Store({ bucket: target.bucket, client: options.s3 }),
    queues: createAwsQueues(target, options.sqs),
    config: options.config ?? loadConfig(),
    logger: options.logger ?? silentLogger,
  };
}

/** The function's own dead-letter queue (SPIDER_DEAD_LETTER_QUEUE_URL), if it has one. */
export function deadLettersFromEnv(env: Env = process.env, client?: SQSClient): DeadLetterSender | undefined {
  const url = env[AWS_ENV.deadLetterQueueUrl];
  return url ? new SqsDeadLetterSender(url, client) : undefined;
}

/**
 * What a function's record handler does with what does not succeed (lib/aws/sqs-records.ts): its own
 * dead-letter queue (SPIDER_DEAD_LETTER_QUEUE_URL); its own queue (SPIDER_QUEUE_URL, fetch and render:
 * standard queues whose steps wait for a host's turn), where a deferred message goes back with a delay;
 * and the limits, from the configuration: `maxReceiveCount` (the stack sets SPIDER_MAX_RECEIVE_COUNT to
 * one fewer than its queues' redrive setting: cdk/queue-consumer.ts) and `maxDeferrals`.
 */
export function failureHandlingFromEnv(
  config: Pick<Config, 'maxReceiveCount' | 'maxDeferrals'>,
  env: Env = process.env,
  client?: SQSClient,
): Pick<SqsRecordHandlerOptions<unknown>, 'deadLetters' | 'deferrals' | 'maxReceiveCount' | 'maxDeferrals'> {
  const ownQueue = env[AWS_ENV.queueUrl];
  return {
    deadLetters: deadLettersFromEnv(env, client),
    deferrals: ownQueue ? new SqsDeferralSender(ownQueue, client) : undefined,
    maxReceiveCount: config.maxReceiveCount,
    maxDeferrals: config.maxDeferrals,
  };
}

function unconfigured<T>(name: string, env: string): QueueSender<T> {
  return {
    async send() {
      throw new Error(`cannot send to the ${name} queue: ${env} is not set (this function is not wired to that queue)`);
    },
  };
}
