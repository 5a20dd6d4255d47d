/**
 * Issue 14: a page whose own scripts take the article away. Real Chromium renders pages served from
 * 127.0.0.1 through the embedded pipeline (render, then apply without a browser): the article comes
 * from the HTML as served, and the article document says so.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { scorePage } from '../../lib/metric/metric';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { getJson } from '../../lib/store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../../lib/types/article-document';
import { FeatureDocumentSchema, READABILITY_MARK } from '../../lib/types/feature-document';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const TITLE = 'Flood waters reach the old market square';
const paragraphs = Array.from({ length: 9 }, (_, i) =>
  `Paragraph ${i + 1}: the river rose past the old stone bridge during the night, and traders in the market square carried crates of fruit, bolts of cloth and boxes of tools up to the first floors while volunteers filled sandbags under the lamps.`,
);
const storyText = [TITLE, ...paragraphs].join('\n');

function page(script = ''): string {
  return `<!doctype html><html><head><title>${TITLE} | The Valley Herald</title></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav></header>
<main><article><h1>${TITLE}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer><a href="/about">About us</a> <a href="/contact">Contact</a></footer>
${script}</body></html>`;
}

// What a failing error handler does: the whole document replaced by a banner with a retry link.
const BANNER = `<script>document.body.innerHTML = '<div class="error"><p>This page is not available right now.</p><p><a href="/">Click here to try this page again</a></p></div>';</script>`;
// A script navigating an archived copy away: a replay answers only the archived document, so the
// main frame ends on the browser's error page (two pages of the public benchmark do this).
const AWAY = `<script>location.href = '/elsewhere.html';</script>`;

let server: TestServer;
let pipeline: EmbeddedPipeline;

beforeAll(async () => {
  server = await serveRoutes({ '/banner.html': { body: page(BANNER) }, '/plain.html': { body: page() } });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-served-'));
  pipeline = await new EmbeddedPipeline(loadConfig({ dataDir, retryBaseMs: 10 }), { ephemeralQueues: true }).open();
});
afterAll(async () => {
  await pipeline?.close();
  await server?.close();
});

async function articleOf(url: string): Promise<ArticleDocument | undefined> {
  return getJson(pipeline.store, keys.article(siteOf(url), pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));
}

describe('the HTML as served', () => {
  it('gives the article when the page\'s script replaced the document with an error banner', async () => {
    const url = `${server.origin}/banner.html`;
    await pipeline.submit([{ url }]);
    await pipeline.run();
    const article = await articleOf(url);
    expect(article?.method).toBe('fallback');
    expect(article?.sources?.body).toBe('served');
    expect(article?.title).toBe(TITLE);
    expect(article?.text).not.toMatch(/not available/);
    const s = scorePage(`${article!.title}\n${article!.text}`, storyText);
    expect(s.tp).toBeGreaterThan(0.9);

    // The render kept the HTML as served and described it, beside what it rendered.
    const features = await getJson(pipeline.store, keys.features(siteOf(url), pageIdOf(url)), (v) => FeatureDocumentSchema.parse(v));
    expect(features?.served?.key).toBe(keys.served(siteOf(url), pageIdOf(url)));
    const served = await pipeline.store.get(features!.served!.key);
    expect(served?.body.toString('utf8')).toBe(page(BANNER));
    expect(features!.served!.textLength).toBeGreaterThan(1500);
    expect(pipeline.deadLetters()).toEqual([]);
  });

  it('keeps the rendered article when the scripts took nothing away, with Readability\'s marks in the snapshot', async () => {
    const url = `${server.origin}/plain.html`;
    await pipeline.submit([{ url }]);
    await pipeline.run();
    const article = await articleOf(url);
    expect(article?.sources?.body).toBeUndefined();
    expect(scorePage(`${article!.title}\n${article!.text}`, storyText).tp).toBeGreaterThan(0.9);
    const features = await getJson(pipeline.store, keys.features(siteOf(url), pageIdOf(url)), (v) => FeatureDocumentSchema.parse(v));
    expect(features?.readability).toMatchObject({ version: 1, ok: true, title: TITLE });
    // Readability keeps the paragraphs (the headline it gives as the title), not the navigation.
    expect(features!.readability!.marked).toBe(paragraphs.length);
    const kept = features!.blocks.filter((b) => (b.readabilityChars ?? 0) > 0).map((b) => b.text);
    expect(kept).toEqual(paragraphs);
    const snapshot = (await pipeline.store.get(keys.snapshot(siteOf(url), pageIdOf(url))))!.body.toString('utf8');
    expect(snapshot.split(`${READABILITY_MARK}="1"`).length - 1).toBe(paragraphs.length);
  });

  it('renders the served HTML without scripts when they took the page to an error page', async () => {
    const url = `${server.origin}/away.html`;
    await pipeline.submit([{ url, html: page(AWAY) }]);
    await pipeline.run();
    expect(pipeline.deadLetters()).toEqual([]);
    const features = await getJson(pipeline.store, keys.features(siteOf(url), pageIdOf(url)), (v) => FeatureDocumentSchema.parse(v));
    expect(features?.renderMode).toBe('no-script');
    const article = await articleOf(url);
    expect(scorePage(`${article!.title}\n${article!.text}`, storyText).tp).toBeGreaterThan(0.9);
    expect(pipeline.deadLetters()).toEqual([]);
  });
});
