/**
 * Deployment settings: `cdk.json` context keys with the `spider:` prefix, overridable on the command
 * line (`npx cdk deploy -c spider:renderMaxConcurrency=10`). Validated once; an invalid value names
 * its key. docs/aws.md explains each choice.
 */
import type { Node } from 'constructs';
import { z } from 'zod';
import { ConfigSchema, EMBEDDED_RUNNER_KEYS, configConflicts } from '../lib/config/config';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** CloudWatch Logs accepts only these retention periods (days). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

export const SettingsSchema = z.object({
  // fetch: the intake, no Chromium (docs/aws.md#the-fetch-path-on-aws): routes a page, fetches a learned site's pages.
  fetchMemoryMiB: int(128, 10240).default(512),
  /**
   * At least 40: the function keeps 30 s of an invocation back and starts no fetch with less than 5 s
   * for it (functions/fetch.ts); below 35 s it would start none, every message deferred until it is a
   * dead letter that says it was never started.
   */
  fetchTimeoutSeconds: int(40, 900).default(120),
  fetchBatchSize: int(1, 10).default(10),
  fetchMaxBatchingWindowSeconds: int(0, 300).default(1),
  fetchMaxConcurrency: int(2, 1000).default(10),

  // render: Chromium needs memory (≥ 2 GB; CPU scales with it), room in /tmp, and time.
  renderMemoryMiB: int(2048, 10240).default(2048),
  renderTimeoutSeconds: int(30, 900).default(120),
  renderEphemeralStorageMiB: int(512, 10240).default(1024),
  renderBatchSize: int(1, 10).default(1),
  /** Most render invocations at once (event source maximum concurrency, 2-1000). */
  renderMaxConcurrency: int(2, 1000).default(5),

  learnMemoryMiB: int(128, 10240).default(1024),
  learnTimeoutSeconds: int(10, 900).default(120),
  /**
   * One site per invocation, and no more: Powertools' FIFO batch processor stops at a batch's first
   * failure and hands back the rest unrun, each spending a receive (another site's too).
   */
  learnBatchSize: int(1, 1).default(1),
  learnMaxConcurrency: int(2, 1000).default(5),

  applyMemoryMiB: int(128, 10240).default(512),
  applyTimeoutSeconds: int(10, 900).default(60),
  applyBatchSize: int(1, 10).default(10),
  applyMaxBatchingWindowSeconds: int(0, 300).default(1),
  applyMaxConcurrency: int(2, 1000).default(10),

  /**
   * Receives a failing message is tried on before the dead-letter queue: the functions'
   * SPIDER_MAX_RECEIVE_COUNT (on the last receive a handler dead-letters a retryable failure itself,
   * with the reason); the queues' redrive policy counts one more, on which a handler dead-letters a
   * message whose last receive was never answered (cdk/queue-consumer.ts). At least 5, as AWS advises
   * for Lambda consumers: on AWS a receive is also spent by a throttled invocation.
   */
  maxReceiveCount: int(5, 1000).default(5),
  logRetentionDays: z.coerce
    .number()
    .refine((d) => (LOG_RETENTION_DAYS as readonly number[]).includes(d), `one of ${LOG_RETENTION_DAYS.join(', ')}`)
    .default(30),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),

  /** Archived HTML (`archive/`, render's input) is deleted after this many days. */
  archiveExpirationDays: int(1, 3650).default(30),
  /** Pages (`pages/`: feature documents and rendered snapshots) move to Intelligent-Tiering after this many days. */
  pagesTieringDays: int(0, 3650).default(30),
  /** Overwritten or deleted object versions (rules history) are kept this many days. */
  noncurrentVersionExpirationDays: int(1, 3650).default(30),
  /** Access logs of the data bucket are kept this many days. */
  accessLogExpirationDays: int(1, 3650).default(90),

  /** Alarm when a work queue's oldest message is this old (seconds): the work is stuck or falling behind. */
  queueAgeAlarmSeconds: int(60, 1_209_600).default(3600),
  /** Alarm when a function fails this many invocations (crash, timeout) in five minutes. */
  errorsAlarmThreshold: int(1, 100_000).default(5),
  /** Alarm when a function is throttled this many times in five minutes (the account's concurrency is short). */
  throttlesAlarmThreshold: int(1, 100_000).default(1),
  /** Alarm when a dead letter is this many days old: SQS deletes it at 14. */
  deadLetterAgeAlarmDays: int(1, 13).default(10),
  /** Optional SNS topic ARN notified by every alarm (dead letters, queue age, function errors). */
  alarmTopicArn: z.string().regex(/^arn:aws[a-z-]*:sns:/, 'an SNS topic ARN').optional(),
  /** Extra SPIDER_* configuration (lib/config/config.ts keys) for every function, e.g. { "learnMinPages": 5 }. */
  config: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .superRefine((config, ctx) => {
      for (const key of Object.keys(config)) {
        if (!(key in ConfigSchema.shape)) ctx.addIssue({ code: 'custom', path: [key], message: 'not a configuration key (lib/config/config.ts)' });
        // The functions and the queues' redrive policy (one receive more) take one value, spider:maxReceiveCount.
        if (key === 'maxReceiveCount') ctx.addIssue({ code: 'custom', path: [key], message: 'set spider:maxReceiveCount instead: the queues\' redrive policy and the functions take it from there' });
        if ((EMBEDDED_RUNNER_KEYS as readonly string[]).includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'only the embedded runner reads it: no function would' });
      }
      const checked = ConfigSchema.partial().safeParse(config);
      for (const issue of checked.success ? [] : checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
      // values valid alone that contradict each other (or the defaults) would stop every function at start
      const whole = checked.success ? ConfigSchema.safeParse(config) : undefined;
      for (const conflict of whole?.success ? configConflicts(whole.data) : []) ctx.addIssue({ code: 'custom', message: conflict });
    })
    .default({}),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const CONTEXT_PREFIX = 'spider:';

/** The settings from the construct tree's context (cdk.json and -c). */
export function settingsFrom(node: Node): Settings {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(SettingsSchema.shape)) {
    const value = node.tryGetContext(CONTEXT_PREFIX + key);
    if (value !== undefined && value !== '') raw[key] = key === 'config' && typeof value === 'string' ? JSON.parse(value) : value;
  }
  const result = SettingsSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${CONTEXT_PREFIX}${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid cdk context:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}
