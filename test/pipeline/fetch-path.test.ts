/**
 * The fetch path with real parts: a generated site served from 127.0.0.1, real Chromium for the
 * training pages and the render sample, real HTTP for the rest. Learned from 5 pages, 20 unseen pages
 * mostly skip the browser, and their articles are the ones the render path gives.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../../lib/demo/index';
import { tokenF1 } from '../../lib/html/fetch-verdict';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { Renderer } from '../../lib/render/browser';
import { inRenderSample } from '../../lib/step/route';
import { keys, pageIdOf } from '../../lib/store/keys';
import { getJson, putJson } from '../../lib/store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../../lib/types/article-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';

const site = generateSite({ seed: 'fetch-path-test', pagesPerTemplate: 25, templates: 1 });
const template = 'classic';
let served: ServedSite;
let browser: Renderer;
const pipelines: EmbeddedPipeline[] = [];

/** hostIntervalMs 0: politeness is not the subject here; relearnAfter 1000: the rules of the first 5 pages stay. */
async function pipelineWith(overrides: Parameters<typeof loadConfig>[0]): Promise<EmbeddedPipeline> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-fetch-path-'));
  const config = loadConfig({ dataDir, relearnAfter: 1000, retryBaseMs: 10, hostIntervalMs: 0, ...overrides });
  const p = await new EmbeddedPipeline(config, { ephemeralQueues: true, browser }).open();
  pipelines.push(p);
  return p;
}

beforeAll(async () => {
  served = await serveSite(site);
  browser = new Renderer(loadConfig({}));
});
afterAll(async () => {
  for (const p of pipelines) await p.close();
  await browser?.close();
  await served?.close();
});

const host = `${template}.localhost`;
const urlFor = (p: string) => `http://${host}:${served.port}${p}`;
const articleOf = (p: EmbeddedPipeline, url: string) => getJson(p.store, keys.article(host, pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));

describe('the fetch path', () => {
  it('learned from 5 pages, takes 20 unseen pages over HTTP (all but the render sample) with the articles the render path gives', async () => {
    const pages = articlesOf(site, template);
    const train = pages.slice(0, 5).map((p) => ({ url: urlFor(p.path) }));
    const unseen = pages.slice(5, 25).map((p) => urlFor(p.path));

    const fast = await pipelineWith({});
    await fast.submit(train);
    await fast.run();
    const rules = await getJson(fast.store, keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    expect(rules?.fetchPath, 'the verdict is recorded').toBeDefined();
    expect(rules!.fetchPath!.works).toBe(true);
    expect(rules!.fetchPath!.pages).toBe(5);
    expect(rules!.fetchPath!.minF1).toBeGreaterThanOrEqual(0.99);

    const requestsBefore = served.requests;
    await fast.submit(unseen.map((url) => ({ url })));
    await fast.run();
    const fastArticles = new Map<string, ArticleDocument>();
    for (const url of unseen) {
      const a = await articleOf(fast, url);
      expect(a, url).toBeDefined();
      fastArticles.set(url, a!);
    }
    const fetched = unseen.filter((url) => fastArticles.get(url)!.path === 'fetch');
    // Exactly the pages outside the render sample took the fetch path, and no feature document or
    // snapshot was made for them. Which pages those are depends on the URL, and so on the server's
    // random port: no share of them is asserted (test/step/route.test.ts holds the sample to its rate).
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched).toEqual(unseen.filter((url) => !inRenderSample(pageIdOf(url), fast.config.renderSampleRate)));
    for (const url of fetched) {
      const a = fastArticles.get(url)!;
      expect(a.method).toBe('rules');
      expect(a.url).toBe(url);
      expect(await fast.store.get(keys.snapshot(host, pageIdOf(url)))).toBeUndefined();
      expect(await fast.store.get(keys.served(host, pageIdOf(url)))).toBeDefined();
    }
    expect(served.requests).toBeGreaterThan(requestsBefore);
    expect(fast.deadLetters()).toEqual([]);

    // The same pages through the render path, with the same rules.
    const slow = await pipelineWith({ fetchPath: false });
    await putJson(slow.store, keys.rules(host), rules!);
    await slow.submit(unseen.map((url) => ({ url })));
    await slow.run();
    for (const url of fetched) {
      const rendered = await articleOf(slow, url);
      expect(rendered?.path).toBe('render');
      expect(rendered?.method).toBe('rules');
      const fast = fastArticles.get(url)!;
      expect(tokenF1(fast.text, rendered!.text), url).toBeGreaterThanOrEqual(0.99);
      expect(fast.title).toBe(rendered!.title);
    }
    expect(slow.deadLetters()).toEqual([]);
  }, 120_000);

  it('fetches a learned site\'s pages while Chromium renders, instead of after it', async () => {
    const pages = articlesOf(site, template);
    const p = await pipelineWith({ renderConcurrency: 1 });
    await p.submit(pages.slice(0, 5).map((x) => ({ url: urlFor(x.path) })));
    await p.run();
    const fetchable = pages.slice(5).map((x) => urlFor(x.path)).filter((url) => !inRenderSample(pageIdOf(url), p.config.renderSampleRate)).slice(0, 8);
    const haveArticles = async () => {
      for (const url of fetchable) if (!(await p.store.get(keys.article(host, pageIdOf(url))))) return false;
      return true;
    };
    // A page of a site not learned holds its answer, and so the only render slot, until the learned
    // site's pages submitted after it have their articles (or 20 s have passed).
    let held: 'until the fetched pages had articles' | 'until the time ran out' | undefined;
    const slow = createServer(async (_req, res) => {
      const deadline = Date.now() + 20_000;
      while (!(await haveArticles()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      held ??= Date.now() < deadline ? 'until the fetched pages had articles' : 'until the time ran out';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!DOCTYPE html><html><head><title>Slow story</title></head><body><article><h1>Slow story</h1>${'<p>A paragraph of the slow story, long enough to be read as its body text.</p>'.repeat(6)}</article></body></html>`);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowUrl = `http://slow.localhost:${(slow.address() as AddressInfo).port}/story.html`;
      await p.submit([{ url: slowUrl }, ...fetchable.map((url) => ({ url }))]);
      await p.run();
      expect(held).toBe('until the fetched pages had articles');
      for (const url of fetchable) expect((await articleOf(p, url))?.path, url).toBe('fetch');
      expect(await p.store.get(keys.article('slow.localhost', pageIdOf(slowUrl)))).toBeDefined();
      expect(p.deadLetters()).toEqual([]);
    } finally {
      slow.close();
    }
  }, 120_000);

  it('renders a fetched page its rules fail on, and goes on fetching the pages they do not fail on', async () => {
    const pages = articlesOf(site, template);
    const p = await pipelineWith({ driftRelearnAfter: 2 }); // 2 markers and a page rendered since: a relearn
    await p.submit(pages.slice(0, 5).map((x) => ({ url: urlFor(x.path) })));
    await p.run();

    // A page in a layout the rules do not know, outside the render sample.
    const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of a story in the site's new layout, long enough to read as an article body: the council met on Tuesday and voted on the budget.</p>`).join('');
    const body = `<!DOCTYPE html><html><head><title>Redesigned story</title></head><body><section class="story-v2"><h2>Redesigned story</h2>${paragraphs}</section></body></html>`;
    const redesigned = Array.from({ length: 50 }, (_, i) => `/redesigned-${i}.html`).find((x) => !inRenderSample(pageIdOf(urlFor(x)), p.config.renderSampleRate))!;
    (site.files as Map<string, (typeof site.files extends ReadonlyMap<string, infer F> ? F : never)>).set(redesigned, { status: 200, contentType: 'text/html; charset=utf-8', body });
    await p.submit([{ url: urlFor(redesigned) }]);
    await p.run();
    expect(await p.store.get(keys.drift(host, pageIdOf(urlFor(redesigned))))).toBeDefined();
    const drifted = await articleOf(p, urlFor(redesigned));
    expect(drifted?.path).toBe('render'); // fetched, the rules selected nothing: rendered, the render's article stands
    expect(drifted?.text).toMatch(/new layout/);

    // With the drift marker standing, the site's pages the rules still work on are fetched.
    const unseen = pages.slice(5, 15).map((x) => urlFor(x.path)).filter((url) => !inRenderSample(pageIdOf(url), p.config.renderSampleRate));
    await p.submit(unseen.map((url) => ({ url })));
    await p.run();
    expect(await p.store.list(keys.driftPrefix(host)).then((l) => l.map((o) => o.key).sort())).toEqual(
      [keys.drift(host, pageIdOf(urlFor(redesigned))), keys.driftRender(host, 1, pageIdOf(urlFor(redesigned)))].sort(),
    );
    for (const url of unseen) expect((await articleOf(p, url))?.path, url).toBe('fetch');

    // Three more pages of the new layout: the first is rendered (the site's second marker: the relearn
    // has its pages), the others are not; every one has an article with the new layout's text.
    const more = Array.from({ length: 200 }, (_, i) => `/redesigned-more-${i}.html`).filter((x) => !inRenderSample(pageIdOf(urlFor(x)), p.config.renderSampleRate)).slice(0, 3);
    for (const x of more) (site.files as Map<string, (typeof site.files extends ReadonlyMap<string, infer F> ? F : never)>).set(x, { status: 200, contentType: 'text/html; charset=utf-8', body });
    for (const x of more) {
      await p.submit([{ url: urlFor(x) }]);
      await p.run();
    }
    const rendered = [];
    for (const x of more) {
      const a = await articleOf(p, urlFor(x));
      expect(a?.text, x).toMatch(/new layout/);
      if (await p.store.get(keys.snapshot(host, pageIdOf(urlFor(x))))) rendered.push(x);
    }
    expect(rendered).toEqual([more[0]]);
    expect(p.deadLetters()).toEqual([]);
  }, 120_000);
});
