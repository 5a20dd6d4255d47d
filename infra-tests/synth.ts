/**
 * Builds the Spider stack for the infra tests: the same app as cdk/app.ts with cdk.json's context,
 * optionally without bundling (template assertions do not need the function code; bundling runs in
 * bundle.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../cdk/queue-consumer';
import { settingsFrom } from '../cdk/settings';
import { SpiderStack } from '../cdk/spider-stack';

export interface SynthOptions {
  /** Run esbuild for the functions (slow); default false. */
  readonly bundle?: boolean;
  /** Extra context, e.g. { 'spider:renderMaxConcurrency': 9 }. */
  readonly context?: Record<string, unknown>;
  readonly outdir?: string;
}

export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context;
}

export function buildApp(options: SynthOptions = {}): { app: App; stack: SpiderStack } {
  const app = new App({
    outdir: options.outdir,
    context: {
      ...cdkJsonContext(),
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stack = new SpiderStack(app, 'Spider', { settings: settingsFrom(app.node) });
  return { app, stack };
}

export function synthTemplate(options: SynthOptions = {}): { app: App; stack: SpiderStack; template: Template } {
  const { app, stack } = buildApp(options);
  return { app, stack, template: Template.fromStack(stack) };
}
