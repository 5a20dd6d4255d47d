/**
 * The embedded default: the whole pipeline on one machine. A filesystem store with the bucket's key
 * layout, in-process queues with SQS's semantics journaled under the data folder, and the same
 * Chromium and step code as on AWS.
 *
 *   <dataDir>/store/...            the bucket (see lib/store/keys.ts)
 *   <dataDir>/queues/<name>/...    pending messages and dead letters of each queue
 *
 * Memory stays flat with the number of URLs: a message leaves nothing behind once done (see
 * lib/queue/memory-queue.ts); what the process holds per URL is its pending message until then.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { Config } from '../config/config';
import { MemoryQueue, type DeadLetter } from '../queue/memory-queue';
import type { Queues } from '../queue/queue';
import { consumer, drain, type ConsumerEvent } from '../queue/worker';
import type { Resolver } from '../net/egress-policy';
import { Politeness } from '../politeness/politeness';
import type { Renderer, RendererOptions } from '../render/browser';
import { embeddedStore } from '../store/fs-store';
import { keys, pageIdOf, siteOf } from '../store/keys';
import type { Store } from '../store/store';
import {
  ApplyMessageSchema,
  LearnMessageSchema,
  RenderMessageSchema,
  type ApplyMessage,
  type LearnMessage,
  type RenderMessage,
} from '../types/messages';
import { silentLogger, type Logger, type StepContext } from '../step/context';
import type { QueueCounts, QueueName, SpiderStatus } from '../queue/status';
import { summarizeStore } from '../store/summary';
import { makeDirectory } from '../util/make-directory';

interface Heartbeat {
  readonly pid: number;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly queues: Record<QueueName, QueueCounts>;
}

/** The heartbeat of a run in a live process, if there is one. */
async function readHeartbeat(file: string): Promise<Heartbeat | undefined> {
  let beat: Heartbeat;
  try {
    beat = JSON.parse(await readFile(file, 'utf8')) as Heartbeat;
  } catch {
    return undefined;
  }
  try {
    process.kill(beat.pid, 0);
  } catch (error) {
    // EPERM: alive, someone else's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return beat;
}

/** Another process holds the data folder (a run, work, replay or extract on the same --data-dir). */
export class DataFolderBusyError extends Error {
  constructor(readonly dataDir: string, readonly holder?: { pid: number; startedAt: string }) {
    super(
      `the data folder ${dataDir} is in use by another spider process` +
        (holder ? ` (pid ${holder.pid}, running since ${holder.startedAt})` : '') +
        `: wait for it to finish (a lock left by a process that died frees itself within ${LOCK_STALE_MS / 1000} s), or use another --data-dir`,
    );
    this.name = 'DataFolderBusyError';
  }
}

/**
 * Takes <dataDir>/lock (proper-lockfile: a lock folder whose time the holder refreshes, taken over
 * when stale, i.e. its process died without releasing it). Returns its release.
 */
async function lockDataFolder(dataDir: string, heartbeatFile: string, logger: Logger): Promise<() => Promise<void>> {
  await makeDirectory(dataDir, 'data folder');
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'lock'),
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 6,
      retries: 0,
      realpath: false,
      // The event loop was blocked past the stale time and another process may have taken over: say so
      // (the default throws from a timer, which would kill the run).
      onCompromised: (error) => logger.warn('lost the data folder lock', { dataDir, error: error.message }),
    });
  } catch (error) {
    // A folder that exists but takes nothing (a pseudo or read-only filesystem): say so, naming it.
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
      throw new Error(`cannot write in the data folder ${path.resolve(dataDir)}: ${(error as Error).message}`, { cause: error });
    }
    const beat = await readHeartbeat(heartbeatFile);
    throw new DataFolderBusyError(path.resolve(dataDir), beat && { pid: beat.pid, startedAt: beat.startedAt });
  }
}

/** A lock not refreshed for this long belongs to a process that died. */
const LOCK_STALE_MS = 30_000;

export interface EmbeddedPipelineOptions {
  readonly logger?: Logger;
  /** A store other than the data folder's (tests, benchmarks). */
  readonly store?: Store;
  /** Keep queues in memory only (no journal under the data folder). */
  readonly ephemeralQueues?: boolean;
  /** The renderer's options (egress resolver, profile folder, egress events). */
  readonly renderer?: RendererOptions;
  /** Resolver of the egress policy for the browser and robots.txt alike (tests). */
  readonly resolver?: Resolver;
  /** robots.txt and per-host rate limit; default: in this process, early messages handed back. */
  readonly politeness?: Politeness;
  /** A browser to render with, owned by the caller (not closed by close()): tests running several pipelines. */
  readonly browser?: Renderer;
  /** The learn queue's deduplication window in ms (SQS: 5 minutes); its ids are kept that long. */
  readonly deduplicationWindowMs?: number;
}

export interface SubmitReport {
  readonly queued: number;
  /** Refused at the door, each also a dead letter of the render queue with the reason. */
  readonly rejected: readonly { readonly url: string; readonly reason: string }[];
}

export interface Submission {
  readonly url: string;
  /** Archived HTML of the page, stored and answered at the page's own URL. */
  readonly html?: string;
}

export class EmbeddedPipeline {
  readonly store: Store;
  readonly queues: { render: MemoryQueue<RenderMessage>; learn: MemoryQueue<LearnMessage>; apply: MemoryQueue<ApplyMessage> };
  readonly context: StepContext;
  readonly politeness: Politeness;
  private renderer?: Renderer;
  private readonly ownsRenderer: boolean;
  private readonly rendererOptions: RendererOptions;

  private readonly ephemeral: boolean;
  /** Set while this process holds the data folder's lock (open({ exclusive: true })). */
  private releaseLock?: () => Promise<void>;

  constructor(readonly config: Config, options: EmbeddedPipelineOptions = {}) {
    this.ephemeral = Boolean(options.ephemeralQueues);
    this.renderer = options.browser;
    this.ownsRenderer = !options.browser;
    this.store = options.store ?? embeddedStore(config.dataDir);
    const journal = (name: string) => (options.ephemeralQueues ? undefined : path.join(config.dataDir, 'queues', name));
    const common = { maxReceiveCount: config.maxReceiveCount, retryBaseMs: config.retryBaseMs };
    this.queues = {
      // A message stays invisible for longer than its consumer can take, as SQS wants (6x).
      // A render message may wait for Chromium behind the others taken with it (renderConsumerSlots).
      render: new MemoryQueue<RenderMessage>({
        name: 'render',
        visibilityTimeoutSeconds: Math.ceil(((6 + Math.ceil(renderConsumerSlots(config) / config.renderConcurrency)) * config.renderTimeoutMs) / 1000),
        journalDir: journal('render'),
        ...common,
      }),
      learn: new MemoryQueue<LearnMessage>({
        name: 'learn',
        fifo: true,
        visibilityTimeoutSeconds: 600,
        journalDir: journal('learn'),
        deduplicationWindowMs: options.deduplicationWindowMs,
        ...common,
      }),
      // Apply reads the page and its site's rules when it runs: a second message for a page whose
      // first is still waiting would do the same work again (a relearn while its render's apply waits).
      apply: new MemoryQueue<ApplyMessage>({
        name: 'apply',
        visibilityTimeoutSeconds: 60,
        journalDir: journal('apply'),
        coalesce: (m) => `${m.site}/${m.pageId}`,
        ...common,
      }),
    };
    const queues: Queues = this.queues;
    this.context = { store: this.store, queues, config, logger: options.logger ?? silentLogger };
    this.rendererOptions = { resolver: options.resolver, ...options.renderer };
    // One process: a message that comes before its host's turn is handed back at once (no waiting
    // with a render slot held), to come back when the host is free.
    this.politeness = options.politeness ?? new Politeness(config, { maxWaitMs: 0, resolver: this.rendererOptions.resolver });
  }

  /**
   * Loads the journal's pending messages. With `exclusive`, first takes the data folder's lock, so a
   * second process that would run the same journal (and fetch every URL twice) stops at once with a
   * DataFolderBusyError naming the process that holds it; close() releases it. `spider status`,
   * `dead-letters` and `articles` only read, and open without it.
   */
  async open(options: { exclusive?: boolean } = {}): Promise<this> {
    if (options.exclusive && !this.ephemeral && !this.releaseLock) this.releaseLock = await lockDataFolder(this.config.dataDir, this.heartbeatFile, this.context.logger);
    await Promise.all(Object.values(this.queues).map((q) => q.open()));
    return this;
  }

  /**
   * Queues URLs for rendering; archived HTML goes to the store first and the message carries its key.
   * A submission that can never succeed (invalid URL, archived HTML over SPIDER_MAX_HTML_BYTES) is not
   * queued: it becomes a dead letter at once with the reason, and is listed in the report.
   */
  async submit(submissions: readonly Submission[]): Promise<SubmitReport> {
    const rejected: { url: string; reason: string }[] = [];
    let queued = 0;
    for (const s of submissions) {
      const body = { v: 1 as const, url: s.url, submittedAt: new Date().toISOString() };
      const parsed = RenderMessageSchema.safeParse(body);
      let reason: string | undefined;
      if (!parsed.success) reason = `invalid message: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}`;
      else if (s.html !== undefined && Buffer.byteLength(s.html) > this.config.maxHtmlBytes) {
        reason = `archived HTML is larger than the ${this.config.maxHtmlBytes}-byte cap`;
      }
      if (reason) {
        await this.queues.render.reject(body, reason);
        rejected.push({ url: s.url, reason });
        continue;
      }
      const message: RenderMessage = parsed.data!;
      if (s.html !== undefined) {
        const archiveKey = keys.archive(siteOf(s.url), pageIdOf(s.url));
        await this.store.put(archiveKey, s.html, { contentType: 'text/html; charset=utf-8' });
        message.archiveKey = archiveKey;
      }
      await this.queues.render.send(message);
      queued++;
    }
    return { queued, rejected };
  }

  /** Asks for a site to be learned now, whatever its count of new pages. */
  async relearn(site: string): Promise<void> {
    await this.queues.learn.send({ v: 1, site, force: true }, { groupId: site, deduplicationId: `${site}:force:${Date.now()}` });
  }

  /** Runs render, learn and apply until every queue is empty. */
  async run(options: { signal?: AbortSignal; onEvent?(event: ConsumerEvent): void } = {}): Promise<void> {
    const heartbeat = this.startHeartbeat();
    try {
      await this.runConsumers(options);
    } finally {
      await heartbeat.stop();
    }
  }

  /** Each queue's pending, in-flight and dead-lettered messages in this process. */
  queueCounts(): Record<QueueName, QueueCounts> {
    return { render: this.queues.render.counts(), learn: this.queues.learn.counts(), apply: this.queues.apply.counts() };
  }

  /**
   * URLs submitted and not yet rendered, fetched or dead-lettered: the render queue's messages but
   * the renders apply asks of a page already fetched (`path: "render"`, docs/fetch-path.md), whose
   * URL was done when it was fetched.
   */
  urlsWaiting(): number {
    return this.queues.render.countWhere((m) => m.path !== 'render');
  }

  /**
   * What is queued, in flight, dead-lettered, learned and stored. While a run goes on in another
   * process (its heartbeat file is fresh and its process alive), the queue counts are the ones it last
   * wrote; otherwise they come from the journal (nothing is in flight then).
   */
  async status(): Promise<SpiderStatus> {
    await this.open();
    const live = this.ephemeral ? undefined : await readHeartbeat(this.heartbeatFile);
    return {
      where: 'embedded',
      location: path.resolve(this.config.dataDir),
      at: new Date().toISOString(),
      queues: live && live.pid !== process.pid ? live.queues : this.queueCounts(),
      store: await summarizeStore(this.store),
      ...(live && live.pid !== process.pid ? { running: { pid: live.pid, startedAt: live.startedAt, updatedAt: live.updatedAt } } : {}),
    };
  }

  private get heartbeatFile(): string {
    return path.join(this.config.dataDir, 'queues', 'running.json');
  }

  /** While run() goes on, the queue counts go to <dataDir>/queues/running.json every second, for `spider status` in another process. */
  private startHeartbeat(): { stop(): Promise<void> } {
    if (this.ephemeral) return { stop: async () => {} };
    const file = this.heartbeatFile;
    const startedAt = new Date().toISOString();
    let writing: Promise<void> = Promise.resolve();
    const write = () => {
      const beat: Heartbeat = { pid: process.pid, startedAt, updatedAt: new Date().toISOString(), queues: this.queueCounts() };
      writing = writing.then(async () => {
        await makeDirectory(path.dirname(file));
        await writeFile(`${file}.tmp`, JSON.stringify(beat) + '\n');
        await rename(`${file}.tmp`, file);
      }).catch(() => {});
    };
    write();
    const timer = setInterval(write, 1000);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await writing;
        await rm(file, { force: true });
      },
    };
  }

  private async runConsumers(options: { signal?: AbortSignal; onEvent?(event: ConsumerEvent): void }): Promise<void> {
    // The steps (Chromium's driver, the learner) load when a run starts, not with this module: `spider
    // status`, `submit` and `dead-letters` open the pipeline only to read or queue, and these imports
    // took more than a second of each.
    const [{ renderStep }, { learnStep }, { applyStep }, { Renderer }] = await Promise.all([
      import('../render/render-step'),
      import('../learn/learn-step'),
      import('../apply/apply-step'),
      import('../render/browser'),
    ]);
    const ctx = this.context;
    const consumers = [
      consumer({
        queue: this.queues.render,
        schema: RenderMessageSchema,
        concurrency: renderConsumerSlots(this.config),
        handle: (m) => {
          this.renderer ??= new Renderer(this.config, this.rendererOptions);
          return renderStep(m, { ...ctx, renderer: this.renderer, politeness: this.politeness });
        },
      }),
      consumer({ queue: this.queues.learn, schema: LearnMessageSchema, concurrency: 1, handle: (m) => learnStep(m, ctx) }),
      consumer({ queue: this.queues.apply, schema: ApplyMessageSchema, concurrency: 4, handle: (m) => applyStep(m, ctx) }),
    ];
    await drain(consumers, options);
  }

  /** Every queue's dead letters (with a journal, read back from it: they are not kept in memory). */
  deadLetters(): DeadLetter[] {
    return Object.values(this.queues).flatMap((q) => [...q.deadLettered] as DeadLetter[]);
  }

  /** The renderer, once a render has needed it (page and process counts, egress counters). */
  get activeRenderer(): Renderer | undefined {
    return this.renderer;
  }

  async close(): Promise<void> {
    if (this.ownsRenderer) await this.renderer?.close();
    this.renderer = undefined;
    const release = this.releaseLock;
    this.releaseLock = undefined;
    await release?.();
  }

  /** Entries of the runner's in-memory structures per queue (tests: nothing stays per finished URL). */
  memoryEntries(): Record<QueueName, ReturnType<MemoryQueue<unknown>['memoryEntries']>> {
    return { render: this.queues.render.memoryEntries(), learn: this.queues.learn.memoryEntries(), apply: this.queues.apply.memoryEntries() };
  }
}

/**
 * Messages the render consumer takes at once. With the fetch path on, a learned site's page is fetched
 * while Chromium renders (the renderer itself renders config.renderConcurrency pages at a time): with
 * only renderConcurrency slots, each fetch waited behind the renders taking the slots, and the load
 * test's learned sites went at about 24 pages a second with 7% of their pages rendered.
 */
export function renderConsumerSlots(config: Pick<Config, 'renderConcurrency' | 'fetchConcurrency' | 'fetchPath'>): number {
  return config.renderConcurrency + (config.fetchPath ? config.fetchConcurrency : 0);
}
