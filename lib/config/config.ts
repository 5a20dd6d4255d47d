/**
 * Every tunable in one place: a documented default, an environment variable with the SPIDER_ prefix,
 * read once and validated at start (docs/configuration.md lists them).
 */
import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const bool = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1')]);

export const ConfigSchema = z.object({
  /** Data folder of the embedded store and queues. */
  dataDir: z.string().default('./spider-data'),

  // render
  viewportWidth: int(320, 7680).default(1600),
  viewportHeight: int(240, 4320).default(1000),
  navigationTimeoutMs: int(1000, 600_000).default(20_000),
  renderTimeoutMs: int(1000, 900_000).default(45_000),
  /** With an archived copy: let the page fetch its subresources live (default: abort them). */
  archiveAllowSubresources: bool.default(false),
  /** Largest HTML accepted, archived or live (bytes). */
  maxHtmlBytes: int(1024, 200 * 1024 * 1024).default(10 * 1024 * 1024),
  /** Most text blocks kept per page. */
  maxBlocks: int(10, 100_000).default(5000),
  userAgent: z.string().default('spider/0.1 (+https://github.com/spider-extractor/spider)'),

  // learn
  /** Feature documents a learn reads: the site's newest N. */
  learnPages: int(1, 1000).default(50),
  /** Pages a site needs before it is learned the first time. */
  learnMinPages: int(1, 1000).default(5),
  /** New pages since the last learn that trigger a relearn. */
  relearnAfter: int(1, 1000).default(5),
  dbscanEps: num(0, 100).default(0.5),
  dbscanMinPts: int(1, 1000).default(4),

  // queues (embedded runner)
  maxReceiveCount: int(1, 100).default(3),
  retryBaseMs: int(0, 600_000).default(1000),
  renderConcurrency: int(1, 32).default(1),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Environment variable of each key: dataDir → SPIDER_DATA_DIR. */
export function envName(key: string): string {
  return 'SPIDER_' + key.replace(/([A-Z])/g, '_$1').toUpperCase();
}

/** Config from the environment, overridden by explicit values; throws with every invalid key named. */
export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const fromEnv: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[envName(key)];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const result = ConfigSchema.safeParse({ ...fromEnv, ...stripUndefined(overrides) });
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${envName(String(i.path[0]))}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
