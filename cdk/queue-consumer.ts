/**
 * One pipeline step on AWS: an SQS queue, its dead-letter queue, and the Lambda function that consumes
 * it, with every reliability setting fixed in one place:
 *
 * - the function tries a message on `maxReceiveCount` receives (SPIDER_MAX_RECEIVE_COUNT) and puts one
 *   that failed on its last receive on the DLQ itself, with the reason; the queue redrives to the DLQ
 *   after one receive more, so that a message whose last receive was never answered (the invocation
 *   timed out, ran out of memory or crashed) comes back once more and the function dead-letters it,
 *   untried, with a reason that says so. Queue and DLQ are encrypted (SSE-SQS) and refuse plain HTTP;
 *   FIFO queues get a FIFO DLQ;
 * - a consumer whose step defers messages (`defers`: a host whose turn has not come) may send to its
 *   own queue (SPIDER_QUEUE_URL), where a deferred message goes back with a delay (standard queues only);
 * - visibility timeout = 6 × the function timeout + the batching window (AWS's guidance for Lambda
 *   consumers, so a message is not redelivered while a retried invocation still holds it);
 * - the event source reports partial batch failures (ReportBatchItemFailures) and caps concurrency;
 * - the function's role is its own, with no managed policy: it may write only to its log group,
 *   consume only its queue and send only to its own DLQ (for messages that can never succeed) and,
 *   when it defers, to its own queue;
 *   the stack grants the rest (bucket prefixes, queues it feeds);
 * - a log group with retention; an alarm when the DLQ holds anything.
 */
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import path from 'node:path';
import { AWS_ENV } from '../lib/aws/stack-outputs';
import { envName } from '../lib/config/config';

/** The project root: bundling runs from here, with its package-lock.json. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');

/** Lambda's Node.js runtime: the same major version as the project's Node (package.json "node"). */
export const NODE_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * npm's configuration (as environment variables) that installs the native packages of a function's
 * platform: Lambda runs Amazon Linux (glibc) on x86_64 or arm64.
 */
export function npmPlatformFor(architecture: lambda.Architecture): Record<string, string> {
  return { npm_config_os: 'linux', npm_config_cpu: architecture.name === lambda.Architecture.ARM_64.name ? 'arm64' : 'x64', npm_config_libc: 'glibc' };
}

/**
 * The redrive policy's maxReceiveCount for a function that tries a message on `maxReceiveCount`
 * receives: one more. A receive beyond the function's count comes only when the last one was never
 * answered (an invocation that died); the function dead-letters it with that reason instead of SQS
 * moving it without one (lib/aws/sqs-records.ts).
 */
export function redriveReceiveCount(maxReceiveCount: number): number {
  return maxReceiveCount + 1;
}

export interface QueueConsumerProps {
  /** Handler source, relative to the project root (e.g. `functions/render.ts`). */
  readonly entry: string;
  readonly description: string;
  /** Powertools service name (structured log field `service`). */
  readonly serviceName: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly architecture: lambda.Architecture;
  readonly ephemeralStorageSize?: number;
  readonly batchSize: number;
  readonly maxBatchingWindow?: Duration;
  readonly maxConcurrency: number;
  /**
   * Receives a message is tried on (the function's SPIDER_MAX_RECEIVE_COUNT); the queue's redrive policy
   * counts one more (redriveReceiveCount).
   */
  readonly maxReceiveCount: number;
  readonly fifo?: boolean;
  /**
   * The step defers messages (HostBusyError: fetch, render): the function may send to its own queue,
   * named by SPIDER_QUEUE_URL, to put them back with a delay. Standard queues only: FIFO queues have
   * no per-message delay.
   */
  readonly defers?: boolean;
  readonly logRetention: logs.RetentionDays;
  readonly logLevel: string;
  readonly environment?: Record<string, string>;
  /** Packages installed next to the bundle instead of bundled (native binaries, data files). */
  readonly nodeModules?: string[];
  /** Where the dead-letter alarm notifies (optional). */
  readonly alarmActions?: cloudwatch.IAlarmAction[];
}

export class QueueConsumer extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: QueueConsumerProps) {
    super(scope, id);
    const fifo = props.fifo ?? false;
    if (fifo && props.defers) throw new Error(`${id}: a FIFO queue cannot take deferred messages back (no per-message delay)`);
    const batchingWindow = props.maxBatchingWindow ?? Duration.seconds(0);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      fifo: fifo || undefined,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    this.queue = new sqs.Queue(this, 'Queue', {
      fifo: fifo || undefined,
      // FIFO: explicit deduplication ids (site + time window) debounce learn requests; content-based
      // deduplication covers senders that give none.
      contentBasedDeduplication: fifo || undefined,
      visibilityTimeout: Duration.seconds(6 * props.timeout.toSeconds() + batchingWindow.toSeconds()),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: redriveReceiveCount(props.maxReceiveCount) },
    });

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description}: logs, its queue, its dead-letter queue, and what the stack grants`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: path.join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: NODE_RUNTIME,
      architecture: props.architecture,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ephemeralStorageSize: props.ephemeralStorageSize ? Size.mebibytes(props.ephemeralStorageSize) : undefined,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: {
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
        [AWS_ENV.deadLetterQueueUrl]: this.deadLetterQueue.queueUrl,
        ...(props.defers ? { [AWS_ENV.queueUrl]: this.queue.queueUrl } : {}),
        ...props.environment,
        // One source of truth with the redrive policy above, which counts one receive more (spider:config may not set it: cdk/settings.ts).
        [envName('maxReceiveCount')]: String(props.maxReceiveCount),
      },
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        // Local esbuild (a devDependency), never Docker.
        forceDockerBundling: false,
        format: nodejs.OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // ESM bundles still meet CommonJS dependencies that call require().
        banner: "import { createRequire as __spiderCreateRequire } from 'node:module'; const require = __spiderCreateRequire(import.meta.url);",
        sourceMap: true,
        sourcesContent: false,
        // Pin the SDK version we test against instead of the runtime's.
        bundleAwsSDK: true,
        nodeModules: props.nodeModules,
        // The packages installed beside the bundle are installed by npm on the deploying machine, which
        // picks a native package's binary for its own platform (esbuild's @esbuild/darwin-arm64 on an
        // Apple silicon Mac): ask npm for the function's platform instead, Lambda's Linux (glibc) and
        // architecture, whatever machine deploys.
        environment: props.nodeModules?.length ? npmPlatformFor(props.architecture) : undefined,
        logLevel: nodejs.LogLevel.ERROR,
      },
    });
    this.deadLetterQueue.grantSendMessages(this.function);
    if (props.defers) this.queue.grantSendMessages(this.function);

    this.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: props.batchSize,
        maxBatchingWindow: props.maxBatchingWindow,
        reportBatchItemFailures: true,
        maxConcurrency: props.maxConcurrency,
      }),
    );

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: `${props.description}: messages in the dead-letter queue (failed ${props.maxReceiveCount} times, never answered on their last receive: the invocation timed out, ran out of memory or crashed, or can never succeed). Read them (spider dead-letters), fix the cause, then redrive.`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    for (const action of props.alarmActions ?? []) this.deadLetterAlarm.addAlarmAction(action);
  }
}
