/**
 * Render archived pages through the real render step (Chromium, one browser reused, the archived
 * HTML answered at the page's own URL, subresources aborted as configured), with a disk cache so
 * repeated runs skip rendering: `.bench/cache/<dataset>/<id>.json.gz`, valid while the page's HTML,
 * its render URL, the render code (collector, browser, feature schema), the Chromium package and
 * the renderer's settings are unchanged.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Config } from '../lib/config/config';
import { silentLogger } from '../lib/step/context';
import type { Queues } from '../lib/queue/queue';
import { Renderer } from '../lib/render/browser';
import { renderStep } from '../lib/render/render-step';
import { keys, normalizeUrl, pageIdOf, siteOf } from '../lib/store/keys';
import { MemoryStore } from '../lib/store/memory-store';
import { FeatureDocumentSchema, type FeatureDocument } from '../lib/types/feature-document';
import { RenderMessageSchema } from '../lib/types/messages';

/**
 * Files whose change changes the feature document or the snapshot: the in-page collector, the
 * browser (interception, waits, snapshot) and the feature schema. The render step itself only adds
 * ids and store writes, and changes often for other reasons (feeds), so it is left out: after
 * changing how it builds the document, run with --no-cache (or bump CACHE_VERSION).
 */
const RENDER_SOURCES = [
  '../lib/render/collector.ts', '../lib/render/browser.ts', '../lib/render/readability-in-page.ts', '../lib/render/served.ts',
  '../lib/types/feature-document.ts',
];
const CACHE_VERSION = 1;

/** Errors that say the browser itself went away, not that the page failed. */
const BROWSER_DIED = /disconnected|Target closed|Session closed|crashed|Connection closed/i;

export interface RenderedPage {
  readonly id: string;
  /** The URL the page was rendered at (its own, or a placeholder when the dataset has none). */
  readonly renderUrl: string;
  /** The store's site and page id for that URL (hostname based, as the pipeline keys them). */
  readonly site: string;
  readonly pageId: string;
  readonly features?: FeatureDocument;
  readonly snapshot?: string;
  /** The HTML as served, as the render step stored it (served.html). */
  readonly served?: string;
  /** Render time as the render step reports it (Chromium load + collect + snapshot). */
  readonly renderMs?: number;
  readonly error?: string;
  /** Read from the disk cache instead of rendered in this run. */
  readonly cached: boolean;
}

interface CacheFile {
  readonly key: string;
  readonly renderUrl: string;
  readonly site: string;
  readonly pageId: string;
  readonly renderMs?: number;
  readonly features?: FeatureDocument;
  readonly snapshot?: string;
  readonly served?: string;
  readonly error?: string;
}

/** Queues that only record: the bench drives learn and apply itself. */
export function recordingQueues(): Queues & { sent: Array<{ queue: string; body: unknown }> } {
  const sent: Array<{ queue: string; body: unknown }> = [];
  const q = (queue: string) => ({ send: async (body: unknown) => void sent.push({ queue, body }) });
  return { sent, render: q('render'), learn: q('learn'), apply: q('apply') };
}

/** The placeholder URL of a page without one: a reserved TLD, never resolved (the document is answered from the archive). */
export function placeholderUrl(id: string): string {
  return `http://unknown.invalid/${encodeURIComponent(id)}`;
}

let sourceHashMemo: string | undefined;
async function renderSourceHash(): Promise<string> {
  if (sourceHashMemo) return sourceHashMemo;
  const h = createHash('sha256').update(`bench-render-cache:${CACHE_VERSION}`);
  for (const rel of RENDER_SOURCES) {
    h.update(rel);
    h.update(await readFile(fileURLToPath(new URL(rel, import.meta.url))));
  }
  try {
    const require = createRequire(import.meta.url);
    h.update(String((require('@sparticuz/chromium/package.json') as { version?: string }).version));
  } catch {
    h.update('chromium:unknown');
  }
  sourceHashMemo = h.digest('hex');
  return sourceHashMemo;
}

export interface BenchRendererOptions {
  readonly config: Config;
  /** Folder of this dataset's cache; undefined: no cache at all. */
  readonly cacheDir?: string;
  /** Ignore cached renders (still write fresh ones). */
  readonly refresh?: boolean;
  /**
   * Take a cached render of the same URL and HTML even when other render code wrote it (`--trust-cache`):
   * for tuning runs of code that does not change rendering, on a cache an equivalent render wrote.
   * Figures to publish are run without it.
   */
  readonly trustCache?: boolean;
}

export class BenchRenderer {
  private renderer?: Renderer;
  rendered = 0;
  fromCache = 0;
  /** Of fromCache: entries written by other render code, taken because of trustCache. */
  trusted = 0;

  constructor(private readonly options: BenchRendererOptions) {}

  private async cacheKey(url: string, html: string): Promise<string> {
    const c = this.options.config;
    const settings = {
      viewportWidth: c.viewportWidth, viewportHeight: c.viewportHeight, archiveAllowSubresources: c.archiveAllowSubresources,
      maxBlocks: c.maxBlocks, maxHtmlBytes: c.maxHtmlBytes, userAgent: c.userAgent,
    };
    return createHash('sha256').update(await renderSourceHash()).update(JSON.stringify(settings)).update(url).update('\0').update(html).digest('hex');
  }

  private cachePath(id: string): string | undefined {
    return this.options.cacheDir ? path.join(this.options.cacheDir, `${id.replace(/[^A-Za-z0-9._-]/g, '-')}.json.gz`) : undefined;
  }

  /** Render one dataset page (from the cache when valid). */
  async render(id: string, url: string, html: string): Promise<RenderedPage> {
    const file = this.cachePath(id);
    const key = await this.cacheKey(url, html);
    if (file && !this.options.refresh) {
      const hit = await readCache(file, key, this.options.trustCache ? { url, html } : undefined);
      if (hit) {
        this.fromCache++;
        if (hit.key !== key) this.trusted++;
        return { id, renderUrl: hit.renderUrl, site: hit.site, pageId: hit.pageId, features: hit.features, snapshot: hit.snapshot, served: hit.served, renderMs: hit.renderMs, error: hit.error, cached: true };
      }
    }
    const page = await this.renderFresh(id, url, html);
    this.rendered++;
    // Failures are cached too (a page that times out does so every run, and the cache key changes
    // with the render code); only a browser that died under the page is tried again next run.
    if (file && (page.features || !BROWSER_DIED.test(page.error ?? ''))) {
      const entry: CacheFile = { key, renderUrl: page.renderUrl, site: page.site, pageId: page.pageId, renderMs: page.renderMs, features: page.features, snapshot: page.snapshot, served: page.served, error: page.error };
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, gzipSync(JSON.stringify(entry), { level: 3 }));
      await rename(tmp, file);
    }
    return page;
  }

  /** The real render step, against a scratch in-memory store holding only this page's archive. */
  private async renderFresh(id: string, url: string, html: string): Promise<RenderedPage> {
    let site = '';
    let pageId = '';
    try {
      const message = RenderMessageSchema.parse({ v: 1, url, archiveKey: 'pending' });
      const normalized = normalizeUrl(message.url);
      site = siteOf(normalized);
      pageId = pageIdOf(normalized);
      const store = new MemoryStore();
      const archiveKey = keys.archive(site, pageId);
      await store.put(archiveKey, html, { contentType: 'text/html; charset=utf-8' });
      this.renderer ??= new Renderer(this.options.config);
      const outcome = await renderStep(
        { ...message, archiveKey },
        // No feed fetching: the scratch store's feeds would be thrown away (with SPIDER_ARCHIVE_ALLOW_SUBRESOURCES the step would fetch them).
        { store, queues: recordingQueues(), config: this.options.config, logger: silentLogger, renderer: this.renderer, feeds: { enabled: false } },
      );
      const featuresObj = await store.get(keys.features(outcome.site, outcome.pageId));
      const snapshotObj = await store.get(keys.snapshot(outcome.site, outcome.pageId));
      if (!featuresObj || !snapshotObj) throw new Error('the render step stored no feature document or snapshot');
      const features = FeatureDocumentSchema.parse(JSON.parse(featuresObj.body.toString('utf8')));
      const servedObj = features.served ? await store.get(features.served.key) : undefined;
      return { id, renderUrl: url, site: outcome.site, pageId: outcome.pageId, features, snapshot: snapshotObj.body.toString('utf8'), served: servedObj?.body.toString('utf8'), renderMs: outcome.elapsedMs, cached: false };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { id, renderUrl: url, site, pageId, error: message, cached: false };
    }
  }

  async close(): Promise<void> {
    await this.renderer?.close();
    this.renderer = undefined;
  }
}

async function readCache(file: string, key: string, trust?: { url: string; html: string }): Promise<CacheFile | undefined> {
  try {
    const entry = JSON.parse(gunzipSync(await readFile(file)).toString('utf8')) as CacheFile;
    if (entry.key === key) return entry;
    // trusted: the same page (URL, and the snapshot of the same document) whatever code rendered it
    return trust && entry.renderUrl === trust.url && (entry.features || entry.error) ? entry : undefined;
  } catch {
    return undefined;
  }
}
