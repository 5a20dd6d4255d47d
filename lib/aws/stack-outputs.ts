/**
 * Where a deployed stack is: the bucket and queue URLs, from the environment or from the stack's
 * outputs (`npx cdk deploy --outputs-file cdk-outputs.json`). The stack (cdk/spider-stack.ts) names
 * its outputs with these keys; the Lambda functions get the same values as environment variables.
 */
import { readFileSync } from 'node:fs';
import { AWS_VARIABLES } from '../config/config';
import type { Env } from './clients';

/** Stack output keys (CloudFormation Outputs of the Spider stack). */
export const STACK_OUTPUTS = {
  bucket: 'BucketName',
  fetchQueueUrl: 'FetchQueueUrl',
  renderQueueUrl: 'RenderQueueUrl',
  learnQueueUrl: 'LearnQueueUrl',
  applyQueueUrl: 'ApplyQueueUrl',
  fetchDeadLetterQueueUrl: 'FetchDeadLetterQueueUrl',
  renderDeadLetterQueueUrl: 'RenderDeadLetterQueueUrl',
  learnDeadLetterQueueUrl: 'LearnDeadLetterQueueUrl',
  applyDeadLetterQueueUrl: 'ApplyDeadLetterQueueUrl',
  dashboardName: 'DashboardName',
} as const;

/** Environment variables naming the same things (defined in lib/config, which lists every SPIDER_ variable). */
export const AWS_ENV = AWS_VARIABLES;

export interface AwsTarget {
  readonly bucket: string;
  /** The intake (the fetch function's queue); stacks without one take submissions on the render queue. */
  readonly fetchQueueUrl?: string;
  readonly renderQueueUrl?: string;
  readonly learnQueueUrl?: string;
  readonly applyQueueUrl?: string;
  readonly deadLetterQueueUrl?: string;
  /** Each step's dead-letter queue (stack outputs); `spider status` finds them from the redrive policy otherwise. */
  readonly deadLetterQueueUrls?: { readonly fetch?: string; readonly render?: string; readonly learn?: string; readonly apply?: string };
}

/** The target named by SPIDER_BUCKET and SPIDER_*_QUEUE_URL; undefined without SPIDER_BUCKET. */
export function awsTargetFromEnv(env: Env = process.env): AwsTarget | undefined {
  const bucket = env[AWS_ENV.bucket];
  if (!bucket) return undefined;
  return {
    bucket,
    ...(env[AWS_ENV.fetchQueueUrl] ? { fetchQueueUrl: env[AWS_ENV.fetchQueueUrl] } : {}),
    renderQueueUrl: env[AWS_ENV.renderQueueUrl] || undefined,
    learnQueueUrl: env[AWS_ENV.learnQueueUrl] || undefined,
    applyQueueUrl: env[AWS_ENV.applyQueueUrl] || undefined,
    deadLetterQueueUrl: env[AWS_ENV.deadLetterQueueUrl] || undefined,
  };
}

/** The target in a cdk-outputs.json (`{ "<stack>": { "BucketName": ..., ... } }`). */
export function awsTargetFromOutputs(outputs: unknown, stackName?: string): AwsTarget {
  if (!outputs || typeof outputs !== 'object') throw new Error('stack outputs: expected a JSON object');
  const stacks = outputs as Record<string, Record<string, string>>;
  const names = Object.keys(stacks);
  const name = stackName ?? (names.length === 1 ? names[0] : 'Spider');
  const stack = stacks[name];
  if (!stack) throw new Error(`stack outputs: no stack named ${name} (found: ${names.join(', ') || 'none'})`);
  const bucket = stack[STACK_OUTPUTS.bucket];
  if (!bucket) throw new Error(`stack outputs: stack ${name} has no ${STACK_OUTPUTS.bucket} output`);
  return {
    bucket,
    ...(stack[STACK_OUTPUTS.fetchQueueUrl] ? { fetchQueueUrl: stack[STACK_OUTPUTS.fetchQueueUrl] } : {}),
    renderQueueUrl: stack[STACK_OUTPUTS.renderQueueUrl],
    learnQueueUrl: stack[STACK_OUTPUTS.learnQueueUrl],
    applyQueueUrl: stack[STACK_OUTPUTS.applyQueueUrl],
    ...(stack[STACK_OUTPUTS.renderDeadLetterQueueUrl]
      ? {
          deadLetterQueueUrls: {
            ...(stack[STACK_OUTPUTS.fetchDeadLetterQueueUrl] ? { fetch: stack[STACK_OUTPUTS.fetchDeadLetterQueueUrl] } : {}),
            render: stack[STACK_OUTPUTS.renderDeadLetterQueueUrl],
            learn: stack[STACK_OUTPUTS.learnDeadLetterQueueUrl],
            apply: stack[STACK_OUTPUTS.applyDeadLetterQueueUrl],
          },
        }
      : {}),
  };
}

/**
 * The deployed stack to talk to, if any: environment variables first, then the outputs file named by
 * SPIDER_STACK_OUTPUTS. Undefined when neither is configured (use the embedded store).
 */
export function loadAwsTarget(env: Env = process.env): AwsTarget | undefined {
  const fromEnv = awsTargetFromEnv(env);
  if (fromEnv) return fromEnv;
  const file = env[AWS_ENV.stackOutputsFile];
  if (!file) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read stack outputs from ${file}: ${(error as Error).message}`);
  }
  return awsTargetFromOutputs(json, env[AWS_ENV.stackName] || undefined);
}
