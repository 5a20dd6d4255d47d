/**
 * The synthesized template: every resource and its wiring. Synthesized once for the file, without
 * bundling (bundle.test.ts runs `npx cdk synth` with bundling, as a user does); a second synthesis
 * checks that cdk.json context is honoured. One test does bundle: the render function alone, built
 * with esbuild and its node modules installed beside it with npm, told it runs on a Mac, to check
 * they are Lambda's platform (linux-x64) whatever machine deploys.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { METRIC, METRICS_NAMESPACE } from '../lib/aws/metric-names';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueueConsumer } from '../cdk/queue-consumer';
import { ACCESS } from '../cdk/spider-stack';
import { EMBEDDED_RUNNER_KEYS } from '../lib/config/config';
import { keys, pageIdOf } from '../lib/store/keys';
import { pageRefOf, recordRedirect } from '../lib/store/redirects';
import { pageOutcome } from '../lib/step/outcomes';
import { applyStep } from '../lib/apply/apply-step';
import { loadConfig } from '../lib/config/config';
import type { QueueSender } from '../lib/queue/queue';
import { silentLogger, type StepContext } from '../lib/step/context';
import { MemoryStore } from '../lib/store/memory-store';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { s3ClientConfig } from '../lib/aws/clients';
import { MULTIPART_PART_BYTES, S3Store } from '../lib/aws/s3-store';
import { REGION, startEmulator } from './emulator';
import { synthTemplate } from './synth';

type Json = Record<string, any>;
let template: Template;
let resources: Record<string, Json>;

beforeAll(() => {
  ({ template } = synthTemplate());
  resources = template.toJSON().Resources;
});

/** Logical id of the one resource of a type whose id starts with a prefix (e.g. 'RenderQueue'). */
function id(type: string, prefix: string): string {
  const ids = Object.keys(resources).filter((k) => resources[k].Type === type && k.startsWith(prefix) && !k.startsWith(prefix + 'Policy'));
  expect(ids, `${type} ${prefix}`).toHaveLength(1);
  return ids[0];
}
const getAtt = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const ref = (logicalId: string) => ({ Ref: logicalId });

const STEPS = ['Fetch', 'Render', 'Learn', 'Apply'] as const;

describe('resources', () => {
  it('has exactly the resources of one bucket, its log bucket, four queue consumers and their dashboard', () => {
    const counts: Record<string, number> = {};
    for (const r of Object.values(resources)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
    expect(counts).toEqual({
      'AWS::S3::Bucket': 2,
      'AWS::S3::BucketPolicy': 2,
      'AWS::SQS::Queue': 8,
      'AWS::SQS::QueuePolicy': 8,
      'AWS::Logs::LogGroup': 4,
      'AWS::IAM::Role': 4,
      'AWS::IAM::Policy': 4,
      'AWS::Lambda::Function': 4,
      'AWS::Lambda::EventSourceMapping': 4,
      // Per step: dead letters and their age, age of the oldest message, function errors and throttles.
      'AWS::CloudWatch::Alarm': 20,
      'AWS::CloudWatch::Dashboard': 1,
    });
  });

  it('outputs the bucket and every queue URL', () => {
    const outputs = template.toJSON().Outputs;
    expect(outputs.BucketName.Value).toEqual(ref(id('AWS::S3::Bucket', 'DataBucket')));
    for (const step of STEPS) {
      expect(outputs[`${step}QueueUrl`].Value).toEqual(ref(id('AWS::SQS::Queue', `${step}Queue`)));
      expect(outputs[`${step}DeadLetterQueueUrl`].Value).toEqual(ref(id('AWS::SQS::Queue', `${step}DeadLetterQueue`)));
    }
  });
});

describe('data bucket', () => {
  it('is private, encrypted, versioned, logged, and kept when the stack is destroyed', () => {
    const bucket = resources[id('AWS::S3::Bucket', 'DataBucket')];
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      VersioningConfiguration: { Status: 'Enabled' },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { DestinationBucketName: ref(id('AWS::S3::Bucket', 'DataAccessLogs')) },
    });
  });

  it('expires archived HTML, tiers rendered pages, expires old versions and aborts stale uploads', () => {
    const rules = resources[id('AWS::S3::Bucket', 'DataBucket')].Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Prefix: 'archive/', ExpirationInDays: 30, Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'pages/', Transitions: [{ StorageClass: 'INTELLIGENT_TIERING', TransitionInDays: 30 }] }),
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true }),
      ]),
    );
    // No rule may touch rules/ or articles/: they are the product.
    for (const rule of rules) expect(rule.Prefix ?? '').not.toMatch(/^(rules|articles)\//);
  });

  it('keeps the rate-limit slots\' old versions a day only: politeness/ is rewritten at every page request', () => {
    // One version a request, a second apart for a busy host: kept 30 days that is millions of versions of
    // one object, and S3 throttles a versioned bucket's PUTs and DELETEs when an object has millions.
    const rules = resources[id('AWS::S3::Bucket', 'DataBucket')].Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'politeness/', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' })]));
  });

  it('bucket policies deny any request without TLS (and below TLS 1.2), on the bucket and its objects', () => {
    for (const prefix of ['DataBucket', 'DataAccessLogs']) {
      const bucket = id('AWS::S3::Bucket', prefix);
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: ref(bucket),
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
              Resource: [getAtt(bucket), { 'Fn::Join': ['', [getAtt(bucket), '/*']] }],
            }),
            Match.objectLike({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
          ]),
        },
      });
    }
  });

  it('the access-log bucket is private, encrypted and expires its logs', () => {
    expect(resources[id('AWS::S3::Bucket', 'DataAccessLogs')].Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 90 })] },
    });
  });
});

describe('queues', () => {
  it.each(STEPS)('%s: encrypted queue and DLQ, redrive after 6 receives (5 tried, AWS: at least 5 for a Lambda consumer, and one for a last receive never answered), DLQ keeps messages 14 days', (step) => {
    const queue = resources[id('AWS::SQS::Queue', `${step}Queue`)].Properties;
    const dlqId = id('AWS::SQS::Queue', `${step}DeadLetterQueue`);
    const dlq = resources[dlqId].Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(dlq.SqsManagedSseEnabled).toBe(true);
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: getAtt(dlqId), maxReceiveCount: 6 });
    expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(dlq.MessageRetentionPeriod).toBeGreaterThan(queue.MessageRetentionPeriod);
    expect(dlq.RedrivePolicy).toBeUndefined();
  });

  it.each(STEPS.flatMap((s) => [`${s}Queue`, `${s}DeadLetterQueue`]))('%s refuses requests without TLS', (prefix) => {
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [ref(id('AWS::SQS::Queue', prefix))],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('learn is FIFO (message group per site) with deduplication, and so is its DLQ; fetch, render and apply are standard', () => {
    expect(resources[id('AWS::SQS::Queue', 'LearnQueue')].Properties).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: true });
    expect(resources[id('AWS::SQS::Queue', 'LearnDeadLetterQueue')].Properties).toMatchObject({ FifoQueue: true });
    for (const step of ['Fetch', 'Render', 'Apply']) {
      expect(resources[id('AWS::SQS::Queue', `${step}Queue`)].Properties.FifoQueue).toBeUndefined();
      expect(resources[id('AWS::SQS::Queue', `${step}DeadLetterQueue`)].Properties.FifoQueue).toBeUndefined();
    }
  });

  it.each(STEPS)('%s: visibility timeout is at least 6x the consumer timeout plus its batching window', (step) => {
    const queue = resources[id('AWS::SQS::Queue', `${step}Queue`)].Properties;
    const fn = resources[id('AWS::Lambda::Function', `${step}Function`)].Properties;
    const esm = resources[id('AWS::Lambda::EventSourceMapping', `${step}Function`)].Properties;
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Timeout + (esm.MaximumBatchingWindowInSeconds ?? 0));
  });
});

describe('functions', () => {
  it.each(STEPS)('%s: Node 22, JSON logs to its own log group with retention, source maps, Powertools settings', (step) => {
    const fnId = id('AWS::Lambda::Function', `${step}Function`);
    const fn = resources[fnId].Properties;
    const logGroup = id('AWS::Logs::LogGroup', `${step}Logs`);
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Handler).toBe('index.handler');
    expect(fn.LoggingConfig).toEqual({ LogFormat: 'JSON', LogGroup: ref(logGroup) });
    expect(resources[logGroup].Properties.RetentionInDays).toBe(30);
    expect(fn.Environment.Variables).toMatchObject({
      POWERTOOLS_SERVICE_NAME: `spider-${step.toLowerCase()}`,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
      SPIDER_BUCKET: ref(id('AWS::S3::Bucket', 'DataBucket')),
      SPIDER_DEAD_LETTER_QUEUE_URL: ref(id('AWS::SQS::Queue', `${step}DeadLetterQueue`)),
    });
    expect(fn.Role).toEqual(getAtt(id('AWS::IAM::Role', `${step}Role`)));
  });

  it.each(STEPS)('%s: told the receives it tries a message on, one fewer than its queue\'s redrive policy counts, so it dead-letters a last failure, and a last receive never answered, itself with the reason', (step) => {
    const fn = resources[id('AWS::Lambda::Function', `${step}Function`)].Properties;
    const queue = resources[id('AWS::SQS::Queue', `${step}Queue`)].Properties;
    expect(fn.Environment.Variables.SPIDER_MAX_RECEIVE_COUNT).toBe(String(queue.RedrivePolicy.maxReceiveCount - 1));
    expect(fn.Environment.Variables.SPIDER_MAX_RECEIVE_COUNT).toBe('5');
  });

  it.each(STEPS)('%s: its dead-letter alarm says what its dead letters are', (step) => {
    const alarm = resources[id('AWS::CloudWatch::Alarm', `${step}DeadLetterAlarm`)];
    expect(alarm.Properties.AlarmDescription).toMatch(/failed 5 times, never answered on their last receive: the invocation timed out, ran out of memory or crashed, or can never succeed/);
  });

  it('fetch and render (standard queues, a host\'s turn) get their own queue, to put a deferred message back with a delay; learn (FIFO) and apply do not', () => {
    const env = (step: string) => resources[id('AWS::Lambda::Function', `${step}Function`)].Properties.Environment.Variables;
    expect(env('Fetch').SPIDER_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'FetchQueue')));
    expect(env('Render').SPIDER_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'RenderQueue')));
    expect(env('Learn').SPIDER_QUEUE_URL).toBeUndefined();
    expect(env('Apply').SPIDER_QUEUE_URL).toBeUndefined();
    expect(() =>
      new QueueConsumer(new Stack(new App(), 'FifoDefers'), 'Learn', {
        entry: 'functions/learn.ts', description: 'learn', serviceName: 'spider-learn', memorySize: 1024, timeout: Duration.seconds(120),
        architecture: lambda.Architecture.ARM_64, batchSize: 1, maxConcurrency: 2, maxReceiveCount: 5, logRetention: 30, logLevel: 'INFO', fifo: true, defers: true,
      }),
    ).toThrow(/FIFO/);
  });

  it('render: x86_64 (the Chromium binary), at least 2 GB, ephemeral storage, a timeout sized for Chromium', () => {
    const fn = resources[id('AWS::Lambda::Function', 'RenderFunction')].Properties;
    expect(fn.Architectures).toEqual(['x86_64']);
    expect(fn.MemorySize).toBeGreaterThanOrEqual(2048);
    expect(fn.EphemeralStorage.Size).toBeGreaterThanOrEqual(1024);
    expect(fn.Timeout).toBeGreaterThanOrEqual(90);
  });

  it('fetch, learn and apply are small arm64 functions', () => {
    for (const step of ['Fetch', 'Learn', 'Apply']) {
      const fn = resources[id('AWS::Lambda::Function', `${step}Function`)].Properties;
      expect(fn.Architectures).toEqual(['arm64']);
      expect(fn.MemorySize).toBeLessThanOrEqual(1024);
      expect(fn.EphemeralStorage).toBeUndefined();
    }
  });

  it('each function gets the URLs of exactly the queues it sends to', () => {
    const env = (step: string) => resources[id('AWS::Lambda::Function', `${step}Function`)].Properties.Environment.Variables;
    const queueEnv = (vars: Json) => Object.keys(vars).filter((k) => /^SPIDER_(FETCH|RENDER|LEARN|APPLY)_QUEUE_URL$/.test(k)).sort();
    // Fetch: a learned site's page to apply, every other page to render.
    expect(queueEnv(env('Fetch'))).toEqual(['SPIDER_APPLY_QUEUE_URL', 'SPIDER_RENDER_QUEUE_URL']);
    expect(env('Fetch').SPIDER_RENDER_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'RenderQueue')));
    expect(env('Fetch').SPIDER_APPLY_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'ApplyQueue')));
    expect(queueEnv(env('Render'))).toEqual(['SPIDER_APPLY_QUEUE_URL', 'SPIDER_LEARN_QUEUE_URL']);
    expect(env('Render').SPIDER_LEARN_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'LearnQueue')));
    expect(queueEnv(env('Learn'))).toEqual(['SPIDER_APPLY_QUEUE_URL']);
    // Apply asks for a relearn when a site's rules select nothing (drift), and sends a fetched page the
    // rules failed on back to render.
    expect(queueEnv(env('Apply'))).toEqual(['SPIDER_LEARN_QUEUE_URL', 'SPIDER_RENDER_QUEUE_URL']);
    expect(env('Apply').SPIDER_RENDER_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'RenderQueue')));
    expect(env('Apply').SPIDER_LEARN_QUEUE_URL).toEqual(ref(id('AWS::SQS::Queue', 'LearnQueue')));
  });
});

describe("render's packages installed beside its bundle", () => {
  // The one bundling test here (bundle.test.ts runs `npx cdk synth` as a user does): render only, on the
  // deploying machine's npm, told it runs on a Mac (npm's os/cpu configuration, as its environment gives it).
  it("are Lambda's platform whatever machine deploys: esbuild's linux-x64 binary from a Mac too", () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'spider-render-bundle-'));
    const saved = { os: process.env.npm_config_os, cpu: process.env.npm_config_cpu };
    process.env.npm_config_os = 'darwin';
    process.env.npm_config_cpu = 'arm64';
    try {
      const app = new App({ outdir });
      new QueueConsumer(new Stack(app, 'RenderOnly'), 'Render', {
        entry: 'functions/render.ts',
        description: 'render',
        serviceName: 'spider-render',
        memorySize: 2048,
        timeout: Duration.seconds(120),
        architecture: lambda.Architecture.X86_64,
        batchSize: 1,
        maxConcurrency: 2,
        maxReceiveCount: 3,
        logRetention: 30,
        logLevel: 'INFO',
        nodeModules: ['@sparticuz/chromium', '@mozilla/readability', 'esbuild'],
      });
      const [asset] = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
      const natives = path.join(outdir, asset, 'node_modules/@esbuild');
      expect(existsSync(natives) ? readdirSync(natives) : []).toEqual(['linux-x64']);
    } finally {
      for (const [k, v] of Object.entries({ npm_config_os: saved.os, npm_config_cpu: saved.cpu })) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the fetch path (docs/aws.md#the-fetch-path-on-aws)', () => {
  const fn = (step: string) => resources[id('AWS::Lambda::Function', `${step}Function`)].Properties;

  it('fetch: arm64, 512 MB, no Chromium, no extra /tmp, a timeout for a fetch (politeness wait, robots.txt, the page)', () => {
    expect(fn('Fetch')).toMatchObject({ Architectures: ['arm64'], MemorySize: 512, Timeout: 120 });
    expect(fn('Fetch').EphemeralStorage).toBeUndefined();
    expect(fn('Fetch').Layers).toBeUndefined();
    expect(fn('Fetch').Description).toMatch(/no browser/);
  });

  it('routing happens once, at the intake: the render function never takes the fetch path itself, the fetch function does', () => {
    expect(fn('Render').Environment.Variables.SPIDER_FETCH_PATH).toBe('false');
    expect(fn('Fetch').Environment.Variables.SPIDER_FETCH_PATH).toBeUndefined();
  });

  it('submissions go to the fetch queue (FetchQueueUrl), in batches of 10 within 1 s, 10 invocations at most', () => {
    const outputs = template.toJSON().Outputs;
    expect(outputs.FetchQueueUrl.Description).toMatch(/submit URLs here/);
    expect(outputs.RenderQueueUrl.Description).not.toMatch(/submit URLs here/);
    const esm = resources[id('AWS::Lambda::EventSourceMapping', 'FetchFunction')].Properties;
    expect(esm).toMatchObject({ BatchSize: 10, MaximumBatchingWindowInSeconds: 1, ScalingConfig: { MaximumConcurrency: 10 }, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });
});

describe('event source mappings', () => {
  it.each(STEPS)('%s consumes its own queue and reports partial batch failures', (step) => {
    const esm = resources[id('AWS::Lambda::EventSourceMapping', `${step}Function`)].Properties;
    expect(esm.EventSourceArn).toEqual(getAtt(id('AWS::SQS::Queue', `${step}Queue`)));
    expect(esm.FunctionName).toEqual(ref(id('AWS::Lambda::Function', `${step}Function`)));
    expect(esm.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(esm.ScalingConfig.MaximumConcurrency).toBeGreaterThanOrEqual(2);
  });

  it('batch sizes: one render per invocation, one learn per invocation, apply in batches of 10 within 1 s', () => {
    const esm = (step: string) => resources[id('AWS::Lambda::EventSourceMapping', `${step}Function`)].Properties;
    expect(esm('Render')).toMatchObject({ BatchSize: 1, ScalingConfig: { MaximumConcurrency: 5 } });
    expect(esm('Learn')).toMatchObject({ BatchSize: 1 });
    expect(esm('Apply')).toMatchObject({ BatchSize: 10, MaximumBatchingWindowInSeconds: 1 });
    expect(esm('Render').MaximumBatchingWindowInSeconds).toBeUndefined();
  });
});

describe('IAM: least privilege', () => {
  const statements = (step: string): Json[] => {
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: Json) => x.Ref === id('AWS::IAM::Role', `${step}Role`)));
    expect(policies).toHaveLength(1);
    return policies[0].Properties.PolicyDocument.Statement;
  };
  const arr = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
  const actionsOn = (step: string, resource: unknown): string[] =>
    statements(step)
      .filter((s) => s.Effect === 'Allow' && arr(s.Resource).some((r) => JSON.stringify(r) === JSON.stringify(resource)))
      .flatMap((s) => arr(s.Action))
      .sort();
  /** A prefix (`pages/`: every key under it), a key pattern (every page's `served.html`: keyPatterns) or one exact key (`models/fallback.json`). */
  const objects = (p: string) => ({ 'Fn::Join': ['', [getAtt(id('AWS::S3::Bucket', 'DataBucket')), p.endsWith('/') ? `/${p}*` : `/${p}`]] });
  /** Every prefix, page-file pattern and key of the store layout (lib/store/keys.ts), whether or not a step may touch it. */
  const LAYOUT = ['archive/', 'pages/', 'pages/*/*/served.html', 'rules/', 'articles/', 'redirects/', 'feeds/', 'drift/', 'politeness/', 'quarantine/', 'models/', 'models/fallback.json'];
  /** The object keys a step may write: its s3:PutObject resources read as S3 reads them (`*`: any characters, `/` included). */
  const writable = (step: string) => allowed(step, 's3:PutObject');
  /** The object keys a step may `action`: its resources for it read as S3 reads them. */
  const allowed = (step: string, action: string) => {
    const bucketArn = JSON.stringify(getAtt(id('AWS::S3::Bucket', 'DataBucket')));
    const patterns = statements(step)
      .filter((s) => s.Effect === 'Allow' && arr(s.Action).includes(action))
      .flatMap((s) => arr(s.Resource))
      .map((r: Json) => {
        const [arn, suffix] = r['Fn::Join'][1];
        expect(JSON.stringify(arn)).toBe(bucketArn);
        return new RegExp(`^${(suffix as string).slice(1).split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      });
    return (key: string) => patterns.some((p) => p.test(key));
  };

  it('roles trust only Lambda and carry no managed policies', () => {
    for (const step of STEPS) {
      const role = resources[id('AWS::IAM::Role', `${step}Role`)].Properties;
      expect(role.ManagedPolicyArns).toBeUndefined();
      expect(role.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
  });

  it('no statement uses a wildcard action or a wildcard resource other than an object prefix', () => {
    for (const step of STEPS) {
      for (const s of statements(step)) {
        for (const action of arr(s.Action)) expect(action).not.toContain('*');
        for (const resource of arr(s.Resource)) {
          const text = JSON.stringify(resource);
          if (text.includes('*')) expect(text).toMatch(/"\/((archive|pages|rules|articles|redirects|feeds|drift|politeness|quarantine)\/\*|pages\/\*\/\*\/served\.html)"/);
        }
      }
    }
  });

  it.each(STEPS)('%s: S3 objects only under its prefixes, reads, writes and deletes as ACCESS says', (step) => {
    const access = ACCESS[step.toLowerCase() as keyof typeof ACCESS];
    for (const p of [...access.reads, ...access.writes, ...access.deletes]) expect(LAYOUT, `${p} is in the store layout`).toContain(p);
    for (const prefix of LAYOUT) {
      const expected = [
        ...(access.reads.includes(prefix) ? ['s3:GetObject'] : []),
        ...(access.writes.includes(prefix) ? ['s3:PutObject', 's3:AbortMultipartUpload'] : []),
        ...(access.deletes.includes(prefix) ? ['s3:DeleteObject'] : []),
      ];
      expect(actionsOn(step, objects(prefix)), `${step} on ${prefix}`).toEqual(expected.sort());
    }
    // Bucket level: list only (so missing keys read as 404), nothing on "every object".
    expect(actionsOn(step, getAtt(id('AWS::S3::Bucket', 'DataBucket')))).toEqual(['s3:ListBucket']);
    expect(actionsOn(step, { 'Fn::Join': ['', [getAtt(id('AWS::S3::Bucket', 'DataBucket')), '/*']] })).toEqual([]);
    const s3Actions = statements(step).flatMap((s) => arr(s.Action)).filter((a: string) => a.startsWith('s3:'));
    expect(new Set(s3Actions)).toEqual(new Set(['s3:ListBucket', 's3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', ...(access.deletes.length ? ['s3:DeleteObject'] : [])]));
  });

  it('the expected prefixes per step', () => {
    // fetch: the site's rules (routing); a fetched page's HTML as served (led by its record), not the prefix; per-host politeness slots shared with render;
    // a link shortener's URL's redirect record, when it fetched the page the URL led to.
    // fetch and render read a URL's article, through its redirect record, to tell whether a message received beyond its last receive was done.
    expect(ACCESS.fetch).toEqual({ reads: ['rules/', 'politeness/', 'articles/', 'redirects/'], writes: ['pages/*/*/served.html', 'politeness/', 'redirects/'], deletes: [], sendsTo: ['render', 'apply'] });
    // render: pages, the feeds they link to (it only lists a feed's key to see its age), per-host politeness slots,
    // a submitted URL's redirect record when it landed on another site; it deletes nothing (it runs Chromium on untrusted pages).
    expect(ACCESS.render).toEqual({ reads: ['archive/', 'politeness/', 'articles/', 'redirects/'], writes: ['pages/', 'feeds/', 'politeness/', 'redirects/'], deletes: [], sendsTo: ['apply', 'learn'] });
    // learn: pages, its rules, the feeds (field rules), the drift markers (counted; older ones deleted).
    expect(ACCESS.learn).toEqual({ reads: ['pages/', 'rules/', 'feeds/', 'drift/'], writes: ['rules/', 'quarantine/'], deletes: ['drift/', 'pages/'], sendsTo: ['apply'] });
    // apply: the snapshot, the rules, the drift markers (counted), the page's stored article (read before it is replaced)
    // and the retrained fallback model (one key, not models/*); articles and drift markers.
    expect(ACCESS.apply).toEqual({ reads: ['pages/', 'rules/', 'drift/', 'articles/', 'models/fallback.json'], writes: ['articles/', 'drift/'], deletes: [], sendsTo: ['learn', 'render'] });
  });

  it("fetch writes a fetched page's HTML as served, the hosts' rate-limit slots and a short link's redirect record: not the feature documents and snapshots of pages/, nor anything else", () => {
    // every key the fetch step writes (test/step/fetch-step.test.ts)
    const may = writable('Fetch');
    for (const key of [keys.served('a.com', 'p1'), keys.served('news.example.co.uk', 'p2'), keys.hostState('www.a.com:8080'), keys.redirect('short.example', 'p1')]) {
      expect(may(key), key).toBe(true);
    }
    for (const key of [
      keys.features('a.com', 'p1'), keys.snapshot('a.com', 'p1'), 'pages/a.com/p1/fetched.json', 'pages/a.com/p1/other.json', 'pages/served.html',
      keys.rules('a.com'), keys.article('a.com', 'p1'), keys.drift('a.com', 'p1'), keys.archive('a.com', 'p1'), keys.feed('a.com', 'f1'), keys.fallbackModel(), 'quarantine/rules/a.com.json',
    ]) {
      expect(may(key), key).toBe(false);
    }
    // render still writes every file of a rendered page, and a redirect record
    expect(writable('Render')(keys.features('a.com', 'p1'))).toBe(true);
    expect(writable('Render')(keys.redirect('short.example', 'p1'))).toBe(true);
  });

  it('apply may read every key its step reads: the page\'s stored article too, read before it is replaced', async () => {
    const store = new MemoryStore();
    const read: string[] = [];
    const get = store.get.bind(store);
    store.get = (key: string) => (read.push(key), get(key));
    const sender = <T>(): QueueSender<T> => ({ send: async () => undefined });
    const ctx: StepContext = { store, queues: { render: sender(), learn: sender(), apply: sender() }, config: loadConfig({}, {}), logger: silentLogger };
    const url = 'https://news.example/2026/11/28/story.html';
    const paragraphs = [1, 2, 3, 4].map((i) => `<p>Sentence ${i} of the body, with enough words, commas and substance to count as a paragraph of prose.</p>`).join('');
    await store.put(keys.snapshot('news.example', 'p1'), `<html><head><meta name="spider:url" content="${url}"><title>Story</title></head><body><article><h1>Story</h1>${paragraphs}</article></body></html>`);
    // twice: the second apply finds the first's article
    for (let i = 0; i < 2; i++) await applyStep({ v: 1, site: 'news.example', pageId: 'p1', reason: 'rendered' }, ctx);
    expect(read).toContain(keys.article('news.example', 'p1'));
    const may = allowed('Apply', 's3:GetObject');
    for (const key of new Set(read)) expect(may(key), key).toBe(true);
  });

  it('fetch and render may read every key their outcome question reads (a URL\'s article, through its redirect record)', async () => {
    const store = new MemoryStore();
    const read: string[] = [];
    const get = store.get.bind(store);
    store.get = (key: string) => (read.push(key), get(key));
    await recordRedirect(store, pageRefOf('https://short.example/abc'), pageRefOf('https://news.example/2026/11/28/story.html'));
    await store.put(keys.article('news.example', pageIdOf('https://news.example/2026/11/28/story.html')), '{}');
    await pageOutcome({ url: 'https://short.example/abc' }, store, new Date(0));
    expect(read).toContain(keys.redirect('short.example', pageIdOf('https://short.example/abc')));
    expect(read).toContain(keys.article('news.example', pageIdOf('https://news.example/2026/11/28/story.html')));
    for (const step of ['Fetch', 'Render']) {
      const may = allowed(step, 's3:GetObject');
      for (const key of new Set(read)) expect(may(key), `${step}: ${key}`).toBe(true);
    }
  });

  it("every request of S3Store's put is allowed where a step may write: a large body's multipart upload, and its abort when a part fails", async () => {
    const emu = await startEmulator();
    try {
      const bucket = 'spider-iam-puts';
      await emu.s3.send(new CreateBucketCommand({ Bucket: bucket }));
      const client = new S3Client({ ...s3ClientConfig(emu.env()), region: REGION, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
      const sent = new Set<string>();
      client.middlewareStack.add((next, context) => async (args) => (sent.add(context.commandName as string), next(args)), { step: 'initialize' });
      const store = new S3Store({ bucket, client });
      const large = Buffer.alloc(MULTIPART_PART_BYTES + 1, 'a');
      await store.put('pages/news.example/p1/snapshot.html', large);
      // a part refused (503 SlowDown, the SDK's retries off): the upload is aborted, its parts removed
      emu.failWrites(bucket, 1);
      await expect(store.put('pages/news.example/p1/snapshot.html', large)).rejects.toThrow();
      emu.failWrites(bucket, 0);
      await store.put('rules/news.example.json', '{}', { ifNoneMatch: '*' });
      expect([...sent].sort()).toEqual(['AbortMultipartUploadCommand', 'CompleteMultipartUploadCommand', 'CreateMultipartUploadCommand', 'PutObjectCommand', 'UploadPartCommand']);
      // the IAM action each request needs (S3's "multipart upload and permissions")
      const ACTION: Record<string, string> = {
        PutObjectCommand: 's3:PutObject',
        CreateMultipartUploadCommand: 's3:PutObject',
        UploadPartCommand: 's3:PutObject',
        CompleteMultipartUploadCommand: 's3:PutObject',
        AbortMultipartUploadCommand: 's3:AbortMultipartUpload',
      };
      const keyIn = (p: string) => (p.endsWith('/') ? `${p}news.example/p1/any.html` : p.replace(/\*/g, 'x'));
      for (const step of STEPS) {
        for (const key of LAYOUT.map(keyIn).filter(writable(step))) {
          for (const command of sent) expect(allowed(step, ACTION[command])(key), `${step}: ${command} on ${key}`).toBe(true);
        }
      }
    } finally {
      await emu.stop();
    }
  }, 60_000);

  it.each(STEPS)('%s: consumes only its queue (fetch and render also put deferred messages back on it), sends only to the queues it feeds and its own DLQ, logs only to its log group', (step) => {
    const access = ACCESS[step.toLowerCase() as keyof typeof ACCESS];
    const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
    const consume = ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'];
    const send = ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'];
    const defers = step === 'Fetch' || step === 'Render';
    for (const other of STEPS) {
      const queue = getAtt(id('AWS::SQS::Queue', `${other}Queue`));
      const dlq = getAtt(id('AWS::SQS::Queue', `${other}DeadLetterQueue`));
      const own = defers ? [...consume, ...send].sort() : consume;
      const expectedQueue = other === step ? own : access.sendsTo.map(cap).includes(other) ? send : [];
      expect(actionsOn(step, queue), `${step} on ${other} queue`).toEqual(expectedQueue);
      expect(actionsOn(step, dlq), `${step} on ${other} DLQ`).toEqual(other === step ? send : []);
    }
    for (const other of STEPS) {
      const logs = getAtt(id('AWS::Logs::LogGroup', `${other}Logs`));
      expect(actionsOn(step, logs)).toEqual(other === step ? ['logs:CreateLogStream', 'logs:PutLogEvents'] : []);
    }
  });
});

describe('alarms', () => {
  it.each(STEPS)('%s: alarm as soon as its DLQ holds a message', (step) => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id('AWS::SQS::Queue', `${step}DeadLetterQueue`), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });
});

/** The alarm on a step's function's metric (sum over 5 minutes) at the threshold. */
const expectFunctionAlarm = (step: string, metric: string, threshold: number) =>
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: 'AWS/Lambda',
    MetricName: metric,
    Dimensions: [{ Name: 'FunctionName', Value: ref(id('AWS::Lambda::Function', `${step}Function`)) }],
    Statistic: 'Sum',
    Period: 300,
    Threshold: threshold,
    TreatMissingData: 'notBreaching',
  });

/** The alarm on a queue's oldest message (maximum over 5 minutes) at the threshold, in seconds. */
const expectQueueAgeAlarm = (queue: string, threshold: number) =>
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: 'AWS/SQS',
    MetricName: 'ApproximateAgeOfOldestMessage',
    Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id('AWS::SQS::Queue', queue), 'QueueName'] } }],
    Statistic: 'Maximum',
    Threshold: threshold,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    TreatMissingData: 'notBreaching',
  });

describe('age and error alarms', () => {
  it.each(STEPS)('%s: alarm when its queue\'s oldest message is an hour old (spider:queueAgeAlarmSeconds)', (step) => expectQueueAgeAlarm(`${step}Queue`, 3600));

  it.each(STEPS)('%s: alarm on 5 function errors in 5 minutes (spider:errorsAlarmThreshold)', (step) => expectFunctionAlarm(step, 'Errors', 5));
});

describe('throttle and dead-letter age alarms', () => {
  it.each(STEPS)('%s: alarm on a throttle in 5 minutes (spider:throttlesAlarmThreshold)', (step) => expectFunctionAlarm(step, 'Throttles', 1));

  it.each(STEPS)('%s: alarm when its oldest dead letter is 10 days old, before SQS deletes it at 14 (spider:deadLetterAgeAlarmDays)', (step) =>
    expectQueueAgeAlarm(`${step}DeadLetterQueue`, 864_000),
  );
});

describe('dashboard', () => {
  const dashboardBody = () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    // The body is a JSON string joined with tokens (queue names, function names, the region).
    const parts = (dashboard.Properties.DashboardBody['Fn::Join'] as [string, unknown[]])[1];
    return parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('');
  };

  it('is an output (DashboardName)', () => {
    expect(template.toJSON().Outputs.DashboardName.Value).toEqual(ref(id('AWS::CloudWatch::Dashboard', 'MonitoringDashboard')));
  });

  it('graphs every queue\'s depth and dead letters, each function\'s errors, throttles and duration, and the age alarms', () => {
    const body = dashboardBody();
    for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateNumberOfMessagesNotVisible', 'Errors', 'Throttles', 'Duration']) expect(body).toContain(`"${metric}"`);
    for (const step of STEPS) {
      expect(body).toContain(id('AWS::SQS::Queue', `${step}Queue`));
      expect(body).toContain(id('AWS::SQS::Queue', `${step}DeadLetterQueue`));
      expect(body).toContain(id('AWS::Lambda::Function', `${step}Function`));
      expect(body).toContain(id('AWS::CloudWatch::Alarm', `Monitoring${step}QueueAgeAlarm`));
    }
  });

  it('graphs every custom metric the handlers emit, in their namespace, with their dimensions', () => {
    const body = dashboardBody();
    for (const metric of Object.values(METRIC)) expect(body, metric.name).toContain(`"${METRICS_NAMESPACE}","${metric.name}"`);
    expect(body).toContain(`"${METRIC.articlesExtracted.name}","method","rules","service","spider-apply"`);
    expect(body).toContain(`"${METRIC.deadLetters.name}","kind","http-status","service","spider-render"`);
  });
});

describe('settings from cdk.json context', () => {
  it('context overrides reach the template; an alarm topic gets notified', () => {
    const topic = 'arn:aws:sns:us-east-1:123456789012:spider-alarms';
    const { template: t } = synthTemplate({
      context: {
        'spider:renderMemoryMiB': '3008',
        'spider:fetchMemoryMiB': 256,
        'spider:renderTimeoutSeconds': 180,
        'spider:renderMaxConcurrency': 20,
        'spider:maxReceiveCount': 7,
        'spider:logRetentionDays': 90,
        'spider:alarmTopicArn': topic,
        'spider:config': { learnMinPages: 3 },
        'spider:queueAgeAlarmSeconds': 900,
        'spider:errorsAlarmThreshold': 2,
        'spider:throttlesAlarmThreshold': 3,
        'spider:deadLetterAgeAlarmDays': 7,
      },
    });
    t.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { MetricName: 'Throttles', Threshold: 3 }, 4);
    t.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 604_800 }, 4);
    t.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 900 }, 4);
    t.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { MetricName: 'Errors', Threshold: 2 }, 4);
    t.hasResourceProperties('AWS::Lambda::Function', { MemorySize: 3008, Timeout: 180, Architectures: ['x86_64'] });
    t.hasResourceProperties('AWS::Lambda::Function', { MemorySize: 256, Architectures: ['arm64'], Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'spider-fetch' }) } });
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 20 }, BatchSize: 1 });
    t.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: 1080, RedrivePolicy: Match.objectLike({ maxReceiveCount: 8 }) });
    t.resourcePropertiesCountIs('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ SPIDER_MAX_RECEIVE_COUNT: '7' }) } }, 4);
    t.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 90 }, 4);
    t.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { AlarmActions: [topic] }, 20);
    t.resourcePropertiesCountIs('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ SPIDER_LEARN_MIN_PAGES: '3' }) } }, 4);
  });

  it('an invalid setting fails the synth with its key named', () => {
    expect(() => synthTemplate({ context: { 'spider:renderMemoryMiB': 1024 } })).toThrow(/spider:renderMemoryMiB/);
    expect(() => synthTemplate({ context: { 'spider:logRetentionDays': 31 } })).toThrow(/spider:logRetentionDays/);
    // a FIFO batch of several sites would hand back the rest unrun after one failure; fewer than 5 receives is below AWS's advice
    expect(() => synthTemplate({ context: { 'spider:learnBatchSize': 2 } })).toThrow(/spider:learnBatchSize/);
    expect(() => synthTemplate({ context: { 'spider:maxReceiveCount': 1 } })).toThrow(/spider:maxReceiveCount/);
    // a fetch function whose timeout leaves no record the time to start (its 30 s margin and 5 s minimum)
    expect(() => synthTemplate({ context: { 'spider:fetchTimeoutSeconds': 30 } })).toThrow(/spider:fetchTimeoutSeconds/);
    expect(() => synthTemplate({ context: { 'spider:config': { noSuchKey: 1 } } })).toThrow(/noSuchKey/);
    // One value for the redrive policy and the functions: spider:maxReceiveCount, not spider:config.
    expect(() => synthTemplate({ context: { 'spider:config': { maxReceiveCount: 9 } } })).toThrow(/spider:config\.maxReceiveCount: set spider:maxReceiveCount instead/);
    // a setting of the embedded runner alone would change nothing on AWS: said, not ignored
    for (const key of EMBEDDED_RUNNER_KEYS) {
      expect(() => synthTemplate({ context: { 'spider:config': { [key]: key === 'dataDir' ? '/data' : 2 } } }), key).toThrow(new RegExp(`spider:config\\.${key}: only the embedded runner`));
    }
    // valid alone, contradicting each other (or a default): every function would stop at start
    expect(() => synthTemplate({ context: { 'spider:config': { learnPages: 2, learnMinPages: 5 } } })).toThrow(/spider:config: SPIDER_LEARN_PAGES: 2 is fewer than SPIDER_LEARN_MIN_PAGES \(5\)/);
    expect(() => synthTemplate({ context: { 'spider:config': { learnPages: 2 } } })).toThrow(/SPIDER_LEARN_PAGES: 2 is fewer than SPIDER_LEARN_MIN_PAGES/);
  });
});
