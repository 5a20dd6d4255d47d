/**
 * The Spider stack: one bucket and four queue-consuming functions.
 *
 *   fetch queue ─▶ fetch λ (the intake, no browser) ──▶ pages/<site>/<id>/served.html ─▶ apply queue (a learned site's page)
 *   (URLs)              └──▶ render queue (every other page, unchanged)
 *
 *   render queue ─▶ render λ ──▶ pages/ ─┬─▶ apply queue ─▶ apply λ ──▶ articles/
 *   (URLs)          (Chromium)  feeds/   └─▶ learn queue (FIFO, group = site) ─▶ learn λ ──▶ rules/
 *                                           ▲                          └─▶ apply queue (relearned)
 *                                           └── apply λ (drift/: the rules selected nothing)
 *
 * Each function may touch only the bucket prefixes and queues of its step (ACCESS below).
 */
import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { AWS_ENV, STACK_OUTPUTS } from '../lib/aws/stack-outputs';
import { envName } from '../lib/config/config';
import { keyPatterns as P, keyPrefixes as K, keys } from '../lib/store/keys';
import { SpiderDashboard } from './dashboard';
import { DataBucket } from './data-bucket';
import { NODE_RUNTIME, QueueConsumer } from './queue-consumer';
import type { Settings } from './settings';

type Step = 'fetch' | 'render' | 'learn' | 'apply';

/**
 * Objects are named by key prefix (ending in `/`: every key under it), by a key pattern (`*`: any
 * characters; one kind of file of every page, such as every page's served.html: keyPatterns) or by
 * one exact key (the fallback model). lib/store/keys.ts names them.
 */
interface StepAccess {
  /** What the step reads (s3:GetObject). */
  readonly reads: readonly string[];
  /** What the step writes (s3:PutObject, conditional writes included). */
  readonly writes: readonly string[];
  /** What the step deletes (s3:DeleteObject); on the versioned bucket a delete leaves a delete marker. */
  readonly deletes: readonly string[];
  /** Queues the step sends to. */
  readonly sendsTo: readonly Step[];
}

/** What each step touches. */
export const ACCESS: Readonly<Record<Step, StepAccess>> = {
  // rules/: routing reads the site's rules (lib/step/fetch-step.ts).
  // pages/: of a fetched page, its HTML as served (led by its fetch record, its URL for a relearn),
  // which apply reads; not the feature documents and snapshots learn and apply trust render for.
  // politeness/: the per-host rate-limit slots, shared with the render containers.
  // redirects/: a link shortener's URL whose redirect it asked and whose landing page it fetched: the
  // submitted URL's record of where it landed, as render writes it (lib/step/fetch-step.ts
  // fetchThroughRedirect; whether a site holds one is a LIST, which s3:ListBucket allows).
  // articles/ and redirects/: a message received again after its last receive, whose invocation died, is
  // done when the URL's article was written since it was sent (lib/step/outcomes.ts pageOutcome, render's too).
  fetch: { reads: [K.rules, K.politeness, K.articles, K.redirects], writes: [P.served, K.politeness, K.redirects], deletes: [], sendsTo: ['render', 'apply'] },
  // feeds/: the feeds a site's pages link to, fetched by render (lib/fields/feed-refresh.ts: it lists
  // the key to see its age, never reads it), read by learn for the field rules (lib/fields/learn-fields.ts).
  // politeness/: per-host rate-limit slots shared by the render containers (lib/politeness/host-limiter.ts).
  // pages/ of any site: a submitted URL that lands on another site is that site's page. redirects/: the
  // submitted URL's record of where it landed; readers take it over an older article at its place
  // (lib/store/redirects.ts). Render, which runs Chromium on untrusted pages, deletes nothing.
  render: { reads: [K.archive, K.politeness, K.articles, K.redirects], writes: [K.pages, K.feeds, K.politeness, K.redirects], deletes: [], sendsTo: ['apply', 'learn'] },
  // drift/: markers apply leaves where a site's rules selected nothing; learn counts them and deletes
  // those of older rules versions (lib/learn/learn-step.ts).
  // quarantine/: a bad feature or rules document's bytes, kept aside before learn removes or replaces
  // it (lib/store/documents.ts).
  learn: { reads: [K.pages, K.rules, K.feeds, K.drift], writes: [K.rules, K.quarantine], deletes: [K.drift, K.pages], sendsTo: ['apply'] },
  // models/fallback.json: the fallback's model retrained by `spider train` (run by a user, not a function).
  // A drift marker also asks the learn queue to relearn the site; a fetched page the rules failed on
  // goes back to the render queue while the site has few markers (it lists them: docs/fetch-path.md).
  // articles/: the page's stored article, read before it is replaced (compare-and-swap: an article made
  // under newer rules stands, lib/apply/apply-step.ts writeArticle).
  apply: { reads: [K.pages, K.rules, K.drift, K.articles, keys.fallbackModel()], writes: [K.articles, K.drift], deletes: [], sendsTo: ['learn', 'render'] },
};

const isPrefix = (p: string) => p.endsWith('/');
/** The key part of the objects' ARN: every key under a prefix (`pages/*`), else the pattern or key itself. */
const objectKeyOf = (p: string) => (isPrefix(p) ? `${p}*` : p);
const objectsOf = (bucket: s3.IBucket, p: string) => bucket.arnForObjects(objectKeyOf(p));

export interface SpiderStackProps extends StackProps {
  readonly settings: Settings;
}

export class SpiderStack extends Stack {
  readonly data: DataBucket;
  readonly consumers: Readonly<Record<Step, QueueConsumer>>;
  readonly dashboard: SpiderDashboard;

  constructor(scope: Construct, id: string, props: SpiderStackProps) {
    super(scope, id, props);
    const s = props.settings;

    this.data = new DataBucket(this, 'Data', s);
    const bucket = this.data.bucket;

    const alarmActions = s.alarmTopicArn ? [new actions.SnsAction(sns.Topic.fromTopicArn(this, 'AlarmTopic', s.alarmTopicArn))] : [];
    const config = Object.fromEntries(Object.entries(s.config).map(([key, value]) => [envName(key), String(value)]));
    const common = {
      maxReceiveCount: s.maxReceiveCount,
      logRetention: s.logRetentionDays,
      logLevel: s.logLevel,
      alarmActions,
      environment: { [AWS_ENV.bucket]: bucket.bucketName, ...config },
    };

    const fetch = new QueueConsumer(this, 'Fetch', {
      ...common,
      entry: 'functions/fetch.ts',
      description: "spider fetch: the intake; a learned site's page fetched over HTTP, no browser; any other page to render",
      serviceName: 'spider-fetch',
      architecture: lambda.Architecture.ARM_64,
      memorySize: s.fetchMemoryMiB,
      timeout: Duration.seconds(s.fetchTimeoutSeconds),
      batchSize: s.fetchBatchSize,
      maxBatchingWindow: s.fetchMaxBatchingWindowSeconds > 0 ? Duration.seconds(s.fetchMaxBatchingWindowSeconds) : undefined,
      maxConcurrency: s.fetchMaxConcurrency,
      // A page whose host's turn has not come goes back to the fetch queue with a delay.
      defers: true,
    });
    const render = new QueueConsumer(this, 'Render', {
      ...common,
      // The fetch function routed every page it sent here: render renders it, never fetches it again
      // (drift re-renders from apply come here too). Routing happens once, at the intake.
      environment: { ...common.environment, [envName('fetchPath')]: 'false' },
      entry: 'functions/render.ts',
      description: 'spider render: URL to Chromium to feature document and snapshot',
      serviceName: 'spider-render',
      // @sparticuz/chromium ships x86_64 binaries only.
      architecture: lambda.Architecture.X86_64,
      memorySize: s.renderMemoryMiB,
      timeout: Duration.seconds(s.renderTimeoutSeconds),
      ephemeralStorageSize: s.renderEphemeralStorageMiB,
      batchSize: s.renderBatchSize,
      maxConcurrency: s.renderMaxConcurrency,
      // A page whose host's turn has not come goes back to the render queue with a delay.
      defers: true,
      // Its brotli-compressed Chromium in bin/ cannot be bundled: install the package beside the bundle.
      // Readability.js is evaluated in the rendered page from the package's own file, minified with
      // esbuild's native binary (lib/render/readability-in-page.ts).
      nodeModules: ['@sparticuz/chromium', '@mozilla/readability', 'esbuild'],
    });
    const learn = new QueueConsumer(this, 'Learn', {
      ...common,
      entry: 'functions/learn.ts',
      description: 'spider learn: a site\'s feature documents to rules',
      serviceName: 'spider-learn',
      architecture: lambda.Architecture.ARM_64,
      memorySize: s.learnMemoryMiB,
      timeout: Duration.seconds(s.learnTimeoutSeconds),
      batchSize: s.learnBatchSize,
      maxConcurrency: s.learnMaxConcurrency,
      fifo: true,
    });
    const apply = new QueueConsumer(this, 'Apply', {
      ...common,
      entry: 'functions/apply.ts',
      description: 'spider apply: snapshot and rules to article',
      serviceName: 'spider-apply',
      architecture: lambda.Architecture.ARM_64,
      memorySize: s.applyMemoryMiB,
      timeout: Duration.seconds(s.applyTimeoutSeconds),
      batchSize: s.applyBatchSize,
      maxBatchingWindow: s.applyMaxBatchingWindowSeconds > 0 ? Duration.seconds(s.applyMaxBatchingWindowSeconds) : undefined,
      maxConcurrency: s.applyMaxConcurrency,
    });
    this.consumers = { fetch, render, learn, apply };

    const queueEnv: Record<Step, string> = { fetch: AWS_ENV.fetchQueueUrl, render: AWS_ENV.renderQueueUrl, learn: AWS_ENV.learnQueueUrl, apply: AWS_ENV.applyQueueUrl };
    for (const [step, consumer] of Object.entries(this.consumers) as [Step, QueueConsumer][]) {
      const access = ACCESS[step];
      this.grantPrefixes(consumer, bucket, access);
      for (const target of access.sendsTo) {
        this.consumers[target].queue.grantSendMessages(consumer.function);
        consumer.function.addEnvironment(queueEnv[target], this.consumers[target].queue.queueUrl);
      }
      Validations.of(consumer.function).acknowledge({
        id: 'AwsSolutions-L1',
        reason: `Node.js ${NODE_RUNTIME.name} on purpose: the same major version the project is built and tested with (package.json "node" devDependency); upgrade both together.`,
      });
    }

    this.dashboard = new SpiderDashboard(this, 'Monitoring', {
      consumers: this.consumers,
      queueAgeAlarmSeconds: s.queueAgeAlarmSeconds,
      errorsAlarmThreshold: s.errorsAlarmThreshold,
      throttlesAlarmThreshold: s.throttlesAlarmThreshold,
      deadLetterAgeAlarmDays: s.deadLetterAgeAlarmDays,
      alarmActions,
    });

    new CfnOutput(this, STACK_OUTPUTS.dashboardName, { value: this.dashboard.dashboard.dashboardName, description: 'CloudWatch dashboard of the queues, functions and pipeline metrics' });
    new CfnOutput(this, STACK_OUTPUTS.bucket, { value: bucket.bucketName, description: 'Data bucket (SPIDER_BUCKET)' });
    new CfnOutput(this, STACK_OUTPUTS.fetchQueueUrl, { value: fetch.queue.queueUrl, description: 'Fetch queue, the intake: submit URLs here (SPIDER_FETCH_QUEUE_URL)' });
    new CfnOutput(this, STACK_OUTPUTS.renderQueueUrl, { value: render.queue.queueUrl, description: 'Render queue: pages that need Chromium, sent by the fetch function and by apply (SPIDER_RENDER_QUEUE_URL)' });
    new CfnOutput(this, STACK_OUTPUTS.learnQueueUrl, { value: learn.queue.queueUrl, description: 'Learn queue, FIFO (SPIDER_LEARN_QUEUE_URL)' });
    new CfnOutput(this, STACK_OUTPUTS.applyQueueUrl, { value: apply.queue.queueUrl, description: 'Apply queue (SPIDER_APPLY_QUEUE_URL)' });
    new CfnOutput(this, STACK_OUTPUTS.fetchDeadLetterQueueUrl, { value: fetch.deadLetterQueue.queueUrl, description: 'Fetch dead letters' });
    new CfnOutput(this, STACK_OUTPUTS.renderDeadLetterQueueUrl, { value: render.deadLetterQueue.queueUrl, description: 'Render dead letters' });
    new CfnOutput(this, STACK_OUTPUTS.learnDeadLetterQueueUrl, { value: learn.deadLetterQueue.queueUrl, description: 'Learn dead letters' });
    new CfnOutput(this, STACK_OUTPUTS.applyDeadLetterQueueUrl, { value: apply.deadLetterQueue.queueUrl, description: 'Apply dead letters' });
  }

  /**
   * Object access by prefix (or exact key). s3:ListBucket on the bucket lets a read of a missing key answer
   * 404 (NoSuchKey, read as "absent" like the embedded store) instead of 403; it reveals key names
   * only, and S3 evaluates it without a prefix for that check, so it cannot be narrowed to prefixes.
   */
  private grantPrefixes(consumer: QueueConsumer, bucket: s3.IBucket, access: StepAccess): void {
    const role = consumer.role;
    role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: 'ListForNotFound', actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    // A write may be a multipart upload (lib/aws/s3-store.ts: an unconditional body over 5 MiB); s3:PutObject
    // allows its create, parts and complete, but aborting it, when a part fails, is s3:AbortMultipartUpload:
    // without it the abort is denied, its parts stay (billed) until the lifecycle rule's day, and the
    // step's error is the abort's AccessDenied instead of the part's.
    const grants: [string, string[], readonly string[]][] = [
      ['ReadPrefixes', ['s3:GetObject'], access.reads],
      ['WritePrefixes', ['s3:PutObject', 's3:AbortMultipartUpload'], access.writes],
      ['DeletePrefixes', ['s3:DeleteObject'], access.deletes],
    ];
    for (const [sid, actions, objects] of grants) {
      if (objects.length) role.addToPrincipalPolicy(new iam.PolicyStatement({ sid, actions, resources: objects.map((p) => objectsOf(bucket, p)) }));
    }
    // cdk-nag flags the wildcard of every prefix and pattern; each one is the point of the grant.
    const bucketRef = `<${this.resolve((bucket.node.defaultChild as s3.CfnBucket).logicalId)}.Arn>`;
    for (const p of new Set([...access.reads, ...access.writes, ...access.deletes])) {
      if (!objectKeyOf(p).includes('*')) continue;
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${bucketRef}/${objectKeyOf(p)}]`,
        reason: isPrefix(p)
          ? `Objects under the ${p} prefix: keys are per site and page (lib/store/keys.ts), so the grant is the prefix, not single keys.`
          : `The ${p} objects of every site and page (lib/store/keys.ts, keyPatterns): one kind of file per page, not the prefix.`,
      });
    }
  }
}
