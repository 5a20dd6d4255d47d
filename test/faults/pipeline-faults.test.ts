/**
 * Faults through the embedded runner, with real Chromium: the browser killed in the middle of a batch,
 * a 500 then a 200, a 503 for good, 4xx and PDF, store writes that fail (throttling) and queue sends
 * that fail, invalid submissions and archived HTML over the cap. Every URL ends as an article or as a
 * dead letter that says why; a failure in one message fails only that message.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../lib/config/config';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import type { ConsumerEvent } from '../../lib/queue/worker';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import type { ListOptions, PutOptions, Store } from '../../lib/store/store';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${'Words of the body of this article. '.repeat(25)}</p></article></body></html>`;

/** A store whose writes fail now and then, as S3 does under throttling (SlowDown, 503). */
class FlakyStore implements Store {
  puts = 0;
  failed = 0;
  constructor(private readonly inner: Store, private readonly failEvery: number) {}
  get = (key: string) => this.inner.get(key);
  delete = (key: string) => this.inner.delete(key);
  list = (prefix: string, options?: ListOptions) => this.inner.list(prefix, options);
  async put(key: string, body: Buffer | string, options?: PutOptions): Promise<string> {
    if (++this.puts % this.failEvery === 0) {
      this.failed++;
      throw Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } });
    }
    return this.inner.put(key, body, options);
  }
}

let server: TestServer;
let flakyCalls = 0;
let slowArrivals = 0;
let onSlowArrival: (() => void) | undefined;

beforeAll(async () => {
  server = await serveRoutes({
    '/article': (req) => ({ body: page(`Article ${req.url}`) }),
    '/slow': (req) => {
      slowArrivals++;
      onSlowArrival?.();
      return { body: page(`Slow ${req.url}`) };
    },
    '/flaky': () => (flakyCalls++ === 0 ? { status: 500, body: 'oops', type: 'text/plain' } : { body: page('Flaky, then fine') }),
    '/unavailable': { status: 503, body: 'busy', type: 'text/plain' },
    '/missing': { status: 404, body: 'not here' },
    '/report.pdf': { type: 'application/pdf', body: Buffer.from('%PDF-1.4\n%%EOF\n') },
  });
});
afterAll(() => server?.close());

async function pipelineWith(overrides: Partial<Config> = {}, store?: Store): Promise<EmbeddedPipeline> {
  const config = loadConfig({
    dataDir: await mkdtemp(path.join(os.tmpdir(), 'spider-faults-')),
    allowHosts: [new URL(server.origin).host],
    hostIntervalMs: 0,
    retryBaseMs: 20,
    navigationTimeoutMs: 8000,
    renderTimeoutMs: 15_000,
    ...overrides,
  });
  return new EmbeddedPipeline(config, { ephemeralQueues: true, store }).open();
}

const hasArticle = async (p: EmbeddedPipeline, url: string) => (await p.store.get(keys.article(siteOf(url), pageIdOf(url)))) !== undefined;

describe('faults through the embedded runner (real Chromium)', () => {
  it('the browser dies in the middle of a batch: the render in flight is retried, the rest go on', async () => {
    const p = await pipelineWith();
    try {
      const urls = [1, 2, 3, 4, 5].map((i) => `${server.origin}/slow?i=${i}`);
      let killed = false;
      onSlowArrival = () => {
        if (slowArrivals === 3 && !killed) {
          killed = true;
          // The page is being loaded right now: kill the whole browser.
          void p.activeRenderer!.browserPid().then((pid) => pid && process.kill(pid, 'SIGKILL'));
        }
      };
      await p.submit(urls.map((url) => ({ url })));
      const events: ConsumerEvent[] = [];
      await p.run({ onEvent: (e) => events.push(e) });
      expect(killed).toBe(true);
      expect(p.deadLetters()).toEqual([]);
      for (const url of urls) expect(await hasArticle(p, url), url).toBe(true);
      expect(events.filter((e) => e.queue === 'render' && e.outcome === 'retry').length).toBeGreaterThanOrEqual(1);
      expect(await p.activeRenderer!.openPages()).toBeLessThanOrEqual(1);
    } finally {
      onSlowArrival = undefined;
      await p.close();
    }
  });

  it('HTTP errors: 500 then 200 is retried into an article; 503 for good, 404 and PDF are dead letters with reasons', async () => {
    const p = await pipelineWith({ maxReceiveCount: 3 });
    try {
      const urls = { flaky: `${server.origin}/flaky`, unavailable: `${server.origin}/unavailable`, missing: `${server.origin}/missing`, pdf: `${server.origin}/report.pdf` };
      await p.submit(Object.values(urls).map((url) => ({ url })));
      await p.run();
      expect(await hasArticle(p, urls.flaky)).toBe(true);
      expect(flakyCalls).toBe(2);
      const dead = new Map(p.deadLetters().map((d) => [(d.body as { url: string }).url, d]));
      expect(dead.get(urls.unavailable)?.reason).toMatch(/failed 3 times; last error: HTTP 503/);
      expect(server.hits.get('/unavailable')).toBe(3);
      expect(dead.get(urls.missing)?.reason).toMatch(/HTTP 404/);
      expect(dead.get(urls.missing)?.receiveCount).toBe(1); // at once, not retried
      expect(dead.get(urls.pdf)?.reason).toMatch(/not an HTML page \(application\/pdf\)/);
      expect(dead.size).toBe(3);
    } finally {
      await p.close();
    }
  });

  it('store writes and queue sends that fail are retried; only the messages they hit are retried', async () => {
    const store = new FlakyStore(new FsStore(await mkdtemp(path.join(os.tmpdir(), 'spider-flaky-store-'))), 7);
    const p = await pipelineWith({ maxReceiveCount: 6 }, store);
    try {
      // Every fifth send to the apply queue fails too (SQS throttling or a 5xx).
      const send = p.queues.apply.send.bind(p.queues.apply);
      let sends = 0;
      p.queues.apply.send = async (body, options) => {
        if (++sends % 5 === 0) throw Object.assign(new Error('Request rate exceeded'), { name: 'ThrottlingException' });
        return send(body, options);
      };
      const urls = Array.from({ length: 8 }, (_, i) => `${server.origin}/article?n=${i}`);
      await p.submit(urls.map((url) => ({ url })));
      const events: ConsumerEvent[] = [];
      await p.run({ onEvent: (e) => events.push(e) });
      expect(store.failed).toBeGreaterThan(0);
      expect(p.deadLetters()).toEqual([]);
      for (const url of urls) expect(await hasArticle(p, url), url).toBe(true);
      const retried = events.filter((e) => e.outcome === 'retry');
      expect(retried.length).toBeGreaterThan(0);
      expect(retried.every((e) => /reduce your request rate|Request rate exceeded/.test(e.error ?? ''))).toBe(true);
      // Each URL rendered successfully exactly once: a failure retried only its own message.
      const rendered = events.filter((e) => e.queue === 'render' && e.outcome === 'done').map((e) => (e.message as { url: string }).url);
      expect(rendered.sort()).toEqual([...urls].sort());
    } finally {
      await p.close();
    }
  });

  it('invalid submissions and archived HTML over the cap are refused at the door with reasons, and kept as dead letters', async () => {
    const p = await pipelineWith({ maxHtmlBytes: 4096 });
    try {
      const submissions = [
        { url: `${server.origin}/article?ok` },
        { url: `https://example.com/${'a'.repeat(2100)}` },
        { url: 'ftp://example.com/file' },
        { url: 'file:///proc/self/environ' },
        { url: 'javascript:alert(1)' },
        { url: 'http://user:secret@example.com/' },
        { url: 'not a url' },
        { url: `${server.origin}/archived`, html: `<html><body>${'x'.repeat(5000)}</body></html>` },
      ];
      const report = await p.submit(submissions);
      expect(report.queued).toBe(1);
      const reasons = Object.fromEntries(report.rejected.map((r) => [r.url.slice(0, 40), r.reason]));
      expect(Object.values(reasons)).toEqual([
        expect.stringMatching(/URL is longer than 2048 characters/),
        expect.stringMatching(/only http and https URLs are supported, not ftp:/),
        expect.stringMatching(/not file:/),
        expect.stringMatching(/not javascript:/),
        expect.stringMatching(/user name or password/),
        expect.stringMatching(/not a valid absolute URL/),
        expect.stringMatching(/archived HTML is larger than the 4096-byte cap/),
      ]);
      await p.run();
      // Nothing lost: every submission is an article or a dead letter with its reason.
      expect(await hasArticle(p, submissions[0].url)).toBe(true);
      expect(p.deadLetters().map((d) => (d.body as { url: string }).url).sort()).toEqual(submissions.slice(1).map((s) => s.url).sort());
    } finally {
      await p.close();
    }
  });
});
