/**
 * Every tunable in one place: a documented default, an environment variable with the SPIDER_ prefix,
 * read once and validated at start (docs/configuration.md lists them).
 */
import { distance as editDistance } from 'fastest-levenshtein';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { hostPatternProblem } from './host-pattern';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const bool = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1')], { error: 'expected true, false, 1 or 0' });
/** An IP address or a network in CIDR notation, as the egress policy reads it (lib/net/address.ts parseCidr). */
const network = z.string().min(1).refine((s) => (s.includes('/') ? ipaddr.isValidCIDR(s.trim()) : ipaddr.isValid(s.trim())), {
  error: 'expected IP addresses or networks in CIDR notation, comma-separated, e.g. 10.1.0.0/16,192.168.1.7',
});
/** A host pattern of the egress allowlist (./host-pattern.ts). */
const hostPattern = z.string().min(1).superRefine((s, ctx) => {
  const problem = hostPatternProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A list: an array, or in the environment a comma-separated string. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(item));

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
  /** Most elements a rendered page may have. */
  maxElements: int(100, 10_000_000).default(200_000),
  /** Most frames (iframes included) a page may open. */
  maxFrames: int(1, 10_000).default(100),
  /** Most bytes a page may download, all its resources together (the document alone: maxHtmlBytes). */
  maxTransferBytes: int(1024, 2 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
  /** V8 heap limit of a page's renderer process (MB): a page that tries to exhaust memory crashes its tab, not the machine. */
  pageHeapMb: int(64, 16_384).default(512),
  /**
   * Renders a browser context serves before it is replaced (lib/render/context-pool.ts): cookies and
   * the storage of every origin a render loaded are cleared after each; 1 opens a fresh one per render.
   */
  renderContextUses: int(1, 10_000).default(50),

  // egress (docs/security.md)
  /** Host patterns a render or fetch may reach whatever their addresses and ports: `127.0.0.1:8080`, `*.localhost`, `intranet.example`. */
  allowHosts: list(hostPattern).default([]),
  /** Networks (CIDR) resolved addresses may fall in, e.g. `10.1.0.0/16`; ports stay 80/443 (+ allowPorts). */
  allowNetworks: list(network).default([]),
  /** Ports allowed besides 80 and 443. */
  allowPorts: list(int(1, 65535)).default([]),

  // politeness (docs/security.md)
  /** Respect robots.txt (RFC 9309) for userAgent. */
  respectRobotsTxt: bool.default(true),
  /** How long a host's robots.txt is kept (seconds; RFC 9309 says at most 24 h). */
  robotsCacheSeconds: int(0, 86_400).default(86_400),
  /** How long an unreachable (5xx, 429, network error) robots.txt keeps a host disallowed before it is fetched again (seconds). */
  robotsRetrySeconds: int(0, 86_400).default(60),
  /** Least time between two page requests to one host (ms): 1000 = at most one page a second per host. */
  hostIntervalMs: int(0, 3_600_000).default(1000),
  /** A robots.txt Crawl-delay is honoured up to this many seconds. */
  maxCrawlDelaySeconds: int(0, 3600).default(30),
  /** A 429/503 Retry-After is honoured up to this many seconds; longer ones are capped. */
  maxRetryAfterSeconds: int(0, 86_400).default(3600),
  /** When a host is busy, how long a render waits in-process for its turn before handing the message back (ms). */
  politenessMaxWaitMs: int(0, 600_000).default(10_000),

  // learn
  /** Feature documents a learn reads: the site's newest N. */
  learnPages: int(1, 1000).default(50),
  /** Pages a site needs before it is learned the first time. */
  learnMinPages: int(1, 1000).default(5),
  /** New pages since the last learn that trigger a relearn. */
  relearnAfter: int(1, 1000).default(5),
  /** Pages the current rules selected nothing on (drift: the site changed its template) that trigger a relearn. */
  driftRelearnAfter: int(1, 1000).default(3),
  /**
   * Pages with an article a relearn may change (the single-page extractor's, then older rules', each
   * newest first) that it extracts again; pages without an article always are; `spider relearn`
   * extracts every page.
   */
  relearnReextractMax: int(0, 1_000_000).default(20),
  dbscanEps: num(0, 100).default(0.5),
  dbscanMinPts: int(1, 1000).default(4),
  /**
   * Least token F1, on every training page, between the article the rules give on the HTML as served
   * and on the rendered snapshot, for the site's rules to be marked as working without a browser
   * (the rules document's `fetchPath`, docs/rules-document.md).
   */
  fetchPathMinF1: num(0, 1).default(0.99),

  // fetch path (docs/fetch-path.md)
  /** Fetch and extract over HTTP, without Chromium, the pages of sites whose rules work on the HTML as served. */
  fetchPath: bool.default(true),
  /** Share of a fetch-path site's pages still rendered (deterministic by page id), so learning and drift detection go on: 0.05 = 1 in 20. */
  renderSampleRate: num(0, 1).default(0.05),

  // queues
  /**
   * Receives after which a failing message is a dead letter that says why: the embedded runner's
   * queues; on AWS the stack sets it to its queues' redrive maxReceiveCount (spider:maxReceiveCount),
   * and a handler dead-letters a retryable failure itself on that receive, with the reason.
   */
  maxReceiveCount: int(1, 1000).default(3),
  /**
   * On AWS, times a message may be put back on its queue with a delay because its host's turn had not
   * come (no receive counted; growing to 450-900 s each: deferralDelaySeconds) before it is a dead letter that says so.
   */
  maxDeferrals: int(1, 100_000).default(300),
  // embedded runner
  retryBaseMs: int(0, 600_000).default(1000),
  /** Chromium renders at once (the embedded runner; a render Lambda renders one record at a time). */
  renderConcurrency: int(1, 32).default(1),
  /**
   * Messages of the render queue the embedded runner takes beside its renders: fetch-path pages are
   * routed and fetched while Chromium renders, instead of waiting behind it (the fetch Lambda on AWS).
   */
  fetchConcurrency: int(1, 64).default(8),
});
export type Config = z.infer<typeof ConfigSchema>;

/**
 * Settings of the embedded runner alone (its data folder, its queues' retry delay, its renders at once
 * and its fetches beside them): no AWS function reads them, or, for the renders at once, a render
 * function renders one record at a time whatever they say.
 */
export const EMBEDDED_RUNNER_KEYS: readonly (keyof Config)[] = ['dataDir', 'retryBaseMs', 'renderConcurrency', 'fetchConcurrency'];

/** Environment variable of each key: dataDir → SPIDER_DATA_DIR. */
export function envName(key: string): string {
  return 'SPIDER_' + key.replace(/([A-Z])/g, '_$1').toUpperCase();
}

/**
 * The deployed stack's variables, which the Lambda functions get and the CLI reads to reach it: named
 * here, read in lib/aws (stack-outputs.ts AWS_ENV is this object), so the names have one definition.
 */
export const AWS_VARIABLES = {
  bucket: 'SPIDER_BUCKET',
  /** The intake: submitted URLs go here (functions/fetch.ts routes them; docs/aws.md). */
  fetchQueueUrl: 'SPIDER_FETCH_QUEUE_URL',
  renderQueueUrl: 'SPIDER_RENDER_QUEUE_URL',
  learnQueueUrl: 'SPIDER_LEARN_QUEUE_URL',
  applyQueueUrl: 'SPIDER_APPLY_QUEUE_URL',
  /** A consuming function's own dead-letter queue, where it puts messages that can never succeed. */
  deadLetterQueueUrl: 'SPIDER_DEAD_LETTER_QUEUE_URL',
  /**
   * A consuming function's own queue (fetch and render), where it puts back, with a delay, a message
   * whose host's turn has not come (lib/aws/sqs-records.ts).
   */
  queueUrl: 'SPIDER_QUEUE_URL',
  /** A cdk-outputs.json to read when SPIDER_BUCKET is not set. */
  stackOutputsFile: 'SPIDER_STACK_OUTPUTS',
  /** The stack's name inside that file (default: the only stack, or `Spider`). */
  stackName: 'SPIDER_STACK_NAME',
} as const;

/**
 * SPIDER_ variables read outside the schema above: the deployed stack's (AWS_VARIABLES, and
 * lib/aws/clients.ts's), and the tests'. test/config/config.test.ts holds this list to every SPIDER_
 * name in the repository.
 */
export const OTHER_VARIABLES = [
  ...Object.values(AWS_VARIABLES),
  'SPIDER_S3_FORCE_PATH_STYLE',
  /** Tests: the AWS handlers' logs at DEBUG (infra-tests). */
  'SPIDER_TEST_LOGS',
  /** Tests: renders of the soak test (test/render/soak.test.ts). */
  'SPIDER_SOAK_RENDERS',
] as const;

/** Every SPIDER_ variable something reads: the configuration's and the others. */
export function knownVariables(): string[] {
  return [...Object.keys(ConfigSchema.shape).map(envName), ...OTHER_VARIABLES];
}

/** Most edits (insertions, deletions, substitutions) from an unknown variable to the known one it may misspell. */
const MAX_MISSPELLING_EDITS = 3;

/**
 * The SPIDER_ variables of the environment that nothing reads (a misspelling, SPIDER_HOST_INTERVAL for
 * SPIDER_HOST_INTERVAL_MS, would otherwise be ignored silently), each with the known one nearest it
 * when that one is close (at most MAX_MISSPELLING_EDITS edits away), none for a name like no other.
 */
export function unknownVariables(env: NodeJS.ProcessEnv = process.env): { name: string; nearest?: string }[] {
  const known = knownVariables();
  return Object.keys(env)
    .filter((name) => name.startsWith('SPIDER_') && !known.includes(name))
    .sort()
    .map((name) => {
      const nearest = known.reduce((best, k) => (editDistance(name, k) < editDistance(name, best) ? k : best));
      return editDistance(name, nearest) <= MAX_MISSPELLING_EDITS ? { name, nearest } : { name };
    });
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
    // Each problem names its variable and the value given (an item of a list: that item).
    const given = { ...fromEnv, ...stripUndefined(overrides) } as Record<string, unknown>;
    const problems = result.error.issues.map((i) => {
      const key = String(i.path[0]);
      const value = i.path.length > 1 ? itemOf(given[key], i.path[1]) : given[key];
      return `${envName(key)}: ${i.message}${value === undefined ? '' : ` (given: ${JSON.stringify(value)})`}`;
    });
    throw new Error(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const conflicts = configConflicts(result.data);
  if (conflicts.length) throw new Error(`invalid configuration:\n  ${conflicts.join('\n  ')}`);
  return result.data;
}

/** Values valid each alone that contradict each other, each said naming both variables (the stack's settings check them too). */
export function configConflicts(config: Config): string[] {
  const out: string[] = [];
  if (config.learnPages < config.learnMinPages) {
    out.push(
      `${envName('learnPages')}: ${config.learnPages} is fewer than ${envName('learnMinPages')} (${config.learnMinPages}): a site's first learn waits for ` +
        `${config.learnMinPages} pages and would read only ${config.learnPages} of them (set ${envName('learnPages')} to ${config.learnMinPages} or more, or ${envName('learnMinPages')} to ${config.learnPages} or less)`,
    );
  }
  return out;
}

/** The item of a list value (a comma-separated string in the environment) a problem's path points at. */
function itemOf(value: unknown, index: PropertyKey): unknown {
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
  return Array.isArray(items) && typeof index === 'number' ? items[index] : value;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
