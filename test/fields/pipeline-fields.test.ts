/**
 * Field rules through the whole embedded pipeline, real Chromium, a generated site on 127.0.0.1:
 * learn from pages of a template that carries a feed, JSON-LD, Open Graph and meta values, then
 * extract pages of the same template whose metadata was removed before rendering (archived copies
 * answered at their own URLs): every field must come from the learned HTML rules, right on >= 98%.
 *
 * Templates have their own markup, so rules learned on one template are measured on the same
 * template's unseen, stripped pages. Each template runs as its own site in its own store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, pageHtml, serveSite, truthFor, type PageTruth, type ServedSite } from '../../lib/demo/index';
import { parseMachineDate, sameDate } from '../../lib/text/dates';
import { clearFeedAttempts } from '../../lib/fields/feed-refresh';
import { rawPageMetadata, stripFieldMetadata } from '../../bench/strip-fields';
import { metadataValues } from '../../lib/fields/sources';
import { sameByline, sameTitle } from '../../lib/text/match';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { feedIdOf, keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { getJson } from '../../lib/store/store';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { FeatureDocumentSchema } from '../../lib/types/feature-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';

const site = generateSite({ seed: 'fields-pipeline', pagesPerTemplate: 30, templates: 3 });
let served: ServedSite;
const pipelines: EmbeddedPipeline[] = [];
/** A site's pages rendered by real Chromium, a learn and the unseen pages applied: about 35 s alone, twice that beside another Chromium test file. */
const SITE_TIMEOUT_MS = 180_000;

beforeAll(async () => {
  served = await serveSite(site);
  clearFeedAttempts();
});
afterAll(async () => {
  for (const p of pipelines) await p.close();
  await served?.close();
});

/**
 * A pipeline of its own (its own store) that has rendered these training pages live and learned
 * the site from them: render fetches the feed they link to (once), learn runs after the 5th.
 */
async function learnedFrom(train: readonly PageTruth[]): Promise<{ pipeline: EmbeddedPipeline; host: string }> {
  const pipeline = await new EmbeddedPipeline(loadConfig({ relearnAfter: 1000, retryBaseMs: 10 }), {
    store: new MemoryStore(),
    ephemeralQueues: true,
  }).open();
  pipelines.push(pipeline);
  clearFeedAttempts();
  await pipeline.submit(train.map((p) => ({ url: served.url(p.path) })));
  await pipeline.run();
  return { pipeline, host: siteOf(served.origin) };
}

describe.each(['classic', 'magazine'] as const)('template %s (feed + JSON-LD + meta)', (template) => {
  const pages = articlesOf(site, template);
  const train = pages.slice(0, 5);
  const unseen = pages.slice(5);

  it('learns field rules from its feed and metadata, and fills every field of stripped unseen pages from them', async () => {
    const { pipeline, host } = await learnedFrom(train);
    const rules = await getJson(pipeline.store, keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    expect(rules?.fields, 'field rules learned').toBeDefined();
    const fields = rules!.fields!;
    expect(await pipeline.store.get(keys.feed(host, feedIdOf(served.url('/feed.xml'))))).toBeDefined();
    expect(served.requestsByPath.get('/feed.xml')).toBeGreaterThanOrEqual(1);
    expect(fields.training.posts).toBe(5);
    expect(fields.training.feedEntries).toBeGreaterThan(0);
    expect(fields.training.fromFeed).toBe(15); // every value of every training post came from the feed
    for (const f of ['title', 'byline', 'published'] as const) {
      expect(fields[f]?.rules.length, `${f} has rules`).toBeGreaterThan(0);
      expect(fields[f]!.rules[0].score).toBe(1);
    }

    // Unseen pages of the same template without JSON-LD, Open Graph or meta values.
    const stripped = unseen.map((p) => ({ url: served.url(p.path), html: stripFieldMetadata(pageHtml(site, p.path, served.origin)) }));
    for (const s of stripped) expect(metadataValues(rawPageMetadata(s.html))).toEqual({});
    await pipeline.submit(stripped);
    await pipeline.run();
    expect(pipeline.deadLetters()).toEqual([]);

    const right = { title: 0, byline: 0, published: 0 };
    for (const p of unseen) {
      const article = await getJson(pipeline.store, keys.article(host, pageIdOf(served.url(p.path))), (v) => ArticleDocumentSchema.parse(v));
      expect(article).toBeDefined();
      const truth = truthFor(site, p.path)!;
      expect(article!.sources).toEqual({ title: 'rules', byline: 'rules', published: 'rules' });
      if (sameTitle(article!.title, truth.title)) right.title++;
      if (sameByline(article!.byline, truth.byline)) right.byline++;
      if (sameDate(parseMachineDate(article!.published), parseMachineDate(truth.published))) right.published++;
      expect(article!.published).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{3})?Z)?$/);
    }
    for (const f of ['title', 'byline', 'published'] as const) {
      expect(right[f] / unseen.length, `${f} right on unseen pages`).toBeGreaterThanOrEqual(0.98);
    }
  }, SITE_TIMEOUT_MS);
});

describe('template blog (no feed entry, no metadata names the author or the date)', () => {
  const pages = articlesOf(site, 'blog');
  const train = pages.slice(0, 5);
  const unseen = pages.slice(5);

  it('learns its byline from the one Readability reads on the rendered pages, where an author-marked element reads so, and its date from the day its URLs name; serves both on unseen pages', async () => {
    const { pipeline, host } = await learnedFrom(train);
    for (const p of train) {
      const features = await getJson(pipeline.store, keys.features(host, pageIdOf(served.url(p.path))), (v) => FeatureDocumentSchema.parse(v));
      // neither the feed nor the page's metadata names the author: the byline's only source is the page's HTML
      expect(metadataValues(features!.page).byline).toBeUndefined();
      expect(sameByline(features!.readability?.byline, truthFor(site, p.path)!.byline), 'Readability reads the byline').toBe(true);
    }
    const rules = await getJson(pipeline.store, keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    const fields = rules!.fields!;
    expect(fields.training.fromReadability).toBe(5);
    expect(fields.byline?.rules[0].score).toBe(1);
    // nor a date: the day each post's URL names (/2026/03/14/…) is one, and the element showing it is learned
    expect(fields.training.fromUrl).toBe(5);
    expect(fields.published?.rules[0].score).toBe(1);

    await pipeline.submit(unseen.map((p) => ({ url: served.url(p.path) })));
    await pipeline.run();
    expect(pipeline.deadLetters()).toEqual([]);
    const right = { byline: 0, published: 0 };
    for (const p of unseen) {
      const article = await getJson(pipeline.store, keys.article(host, pageIdOf(served.url(p.path))), (v) => ArticleDocumentSchema.parse(v));
      expect(article!.sources).toMatchObject({ byline: 'rules', published: 'rules' });
      const truth = truthFor(site, p.path)!;
      if (sameByline(article!.byline, truth.byline)) right.byline++;
      if (sameDate(parseMachineDate(article!.published), parseMachineDate(truth.published))) right.published++;
    }
    expect(right.byline / unseen.length, 'byline right on unseen pages').toBeGreaterThanOrEqual(0.98);
    expect(right.published / unseen.length, 'date right on unseen pages').toBeGreaterThanOrEqual(0.98);
  }, SITE_TIMEOUT_MS);
});
