/**
 * The embedded default: the whole pipeline on one machine. A filesystem store with the bucket's key
 * layout, in-process queues with SQS's semantics journaled under the data folder, and the same
 * Chromium and step code as on AWS.
 *
 *   <dataDir>/store/...            the bucket (see lib/store/keys.ts)
 *   <dataDir>/queues/<name>/...    pending messages and dead letters of each queue
 */
import path from 'node:path';
import type { Config } from '../config/config';
import { applyStep } from '../apply/apply-step';
import { learnStep } from '../learn/learn-step';
import { MemoryQueue, type DeadLetter } from '../queue/memory-queue';
import type { Queues } from '../queue/queue';
import { consumer, drain, type ConsumerEvent } from '../queue/worker';
import { Renderer } from '../render/browser';
import { renderStep } from '../render/render-step';
import { FsStore } from '../store/fs-store';
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
import { silentLogger, type Logger, type StepContext } from './context';

export interface EmbeddedPipelineOptions {
  readonly logger?: Logger;
  /** A store other than the data folder's (tests, benchmarks). */
  readonly store?: Store;
  /** Keep queues in memory only (no journal under the data folder). */
  readonly ephemeralQueues?: boolean;
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
  private renderer?: Renderer;

  constructor(readonly config: Config, options: EmbeddedPipelineOptions = {}) {
    this.store = options.store ?? new FsStore(path.join(config.dataDir, 'store'));
    const journal = (name: string) => (options.ephemeralQueues ? undefined : path.join(config.dataDir, 'queues', name));
    const common = { maxReceiveCount: config.maxReceiveCount, retryBaseMs: config.retryBaseMs };
    this.queues = {
      // A message stays invisible for longer than its consumer can take, as SQS wants (6x).
      render: new MemoryQueue<RenderMessage>({ name: 'render', visibilityTimeoutSeconds: Math.ceil((6 * config.renderTimeoutMs) / 1000), journalDir: journal('render'), ...common }),
      learn: new MemoryQueue<LearnMessage>({ name: 'learn', fifo: true, visibilityTimeoutSeconds: 600, journalDir: journal('learn'), ...common }),
      apply: new MemoryQueue<ApplyMessage>({ name: 'apply', visibilityTimeoutSeconds: 60, journalDir: journal('apply'), ...common }),
    };
    const queues: Queues = this.queues;
    this.context = { store: this.store, queues, config, logger: options.logger ?? silentLogger };
  }

  async open(): Promise<this> {
    await Promise.all(Object.values(this.queues).map((q) => q.open()));
    return this;
  }

  /** Queues URLs for rendering; archived HTML goes to the store first and the message carries its key. */
  async submit(submissions: readonly Submission[]): Promise<void> {
    for (const s of submissions) {
      const message: RenderMessage = RenderMessageSchema.parse({ v: 1, url: s.url, submittedAt: new Date().toISOString() });
      if (s.html !== undefined) {
        const archiveKey = keys.archive(siteOf(s.url), pageIdOf(s.url));
        await this.store.put(archiveKey, s.html, { contentType: 'text/html; charset=utf-8' });
        message.archiveKey = archiveKey;
      }
      await this.queues.render.send(message);
    }
  }

  /** Asks for a site to be learned now, whatever its count of new pages. */
  async relearn(site: string): Promise<void> {
    await this.queues.learn.send({ v: 1, site, force: true }, { groupId: site, deduplicationId: `${site}:force:${Date.now()}` });
  }

  /** Runs render, learn and apply until every queue is empty. */
  async run(options: { signal?: AbortSignal; onEvent?(event: ConsumerEvent): void } = {}): Promise<void> {
    const ctx = this.context;
    const consumers = [
      consumer({
        queue: this.queues.render,
        schema: RenderMessageSchema,
        concurrency: this.config.renderConcurrency,
        handle: (m) => renderStep(m, { ...ctx, renderer: this.getRenderer() }),
      }),
      consumer({ queue: this.queues.learn, schema: LearnMessageSchema, concurrency: 1, handle: (m) => learnStep(m, ctx) }),
      consumer({ queue: this.queues.apply, schema: ApplyMessageSchema, concurrency: 4, handle: (m) => applyStep(m, ctx) }),
    ];
    await drain(consumers, options);
  }

  deadLetters(): DeadLetter[] {
    return Object.values(this.queues).flatMap((q) => [...q.deadLettered] as DeadLetter[]);
  }

  async close(): Promise<void> {
    await this.renderer?.close();
    this.renderer = undefined;
  }

  private getRenderer(): Renderer {
    this.renderer ??= new Renderer(this.config);
    return this.renderer;
  }
}
