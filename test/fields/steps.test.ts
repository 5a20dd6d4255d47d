/**
 * Field learning and application with the store, without a browser: pages of a generated site stored
 * as snapshots with their feature documents, the site's feed stored as render stores it.
 */
import { JSDOM } from 'jsdom';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { ConfigSchema } from '../../lib/config/config';
import { articlesOf, generateSite, pageHtml, type PageTruth } from '../../lib/demo/index';
import { parseMachineDate, sameDate } from '../../lib/text/dates';
import { learnSiteFields } from '../../lib/fields/learn-fields';
import { rawPageMetadata, stripFieldMetadata } from '../../bench/strip-fields';
import { metadataValues } from '../../lib/fields/sources';
import { META_NAMES } from '../../lib/html/meta-names';
import { cssEscape } from '../../lib/html/selector';
import { collectPage, type LayoutSeam } from '../../lib/render/collector';
import { sameByline } from '../../lib/text/match';
import { silentLogger, type StepContext } from '../../lib/step/context';
import type { Queues } from '../../lib/queue/queue';
import { feedIdOf, keys, pageIdOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import { MAX_PATH_STEPS, MAX_SELECTOR_CHARS, type FeatureDocument } from '../../lib/types/feature-document';
import { RULES_DOCUMENT_VERSION, RulesDocumentSchema, type FieldsSection, type RulesDocument } from '../../lib/types/rules-document';

const ORIGIN = 'http://news.example';
const SITE = 'news.example';
const site = generateSite({ seed: 'fields-steps', pagesPerTemplate: 12, templates: 3 });

/** What render would store for a page: its snapshot and a feature document (blocks are not needed here). */
async function storePage(store: MemoryStore, p: PageTruth, html: string): Promise<FeatureDocument> {
  const url = ORIGIN + p.path;
  const pageId = pageIdOf(url);
  const snapshotKey = keys.snapshot(SITE, pageId);
  const withUrl = html.replace('<head>', `<head><meta name="spider:url" content="${url}">`);
  await store.put(snapshotKey, withUrl);
  const doc: FeatureDocument = {
    version: 1, pageId, url, finalUrl: url, site: SITE, renderedAt: new Date().toISOString(), viewport: { width: 1600, height: 1000 },
    snapshotKey, source: 'live', page: { ...rawPageMetadata(withUrl) }, bodyCss: {}, blocks: [],
  };
  await putJson(store, keys.features(SITE, pageId), doc);
  return doc;
}

function context(store: MemoryStore): StepContext {
  const q = { send: async () => undefined };
  return { store, queues: { render: q, learn: q, apply: q } as unknown as Queues, config: ConfigSchema.parse({}), logger: silentLogger };
}

function rulesWith(fields: FieldsSection | undefined): RulesDocument {
  return RulesDocumentSchema.parse({
    version: RULES_DOCUMENT_VERSION, site: SITE, rulesVersion: 1, learnedAt: new Date().toISOString(), learnedFrom: [],
    content: { selectors: ['main#content article.story div.story-body', 'div.story-body'], clean: [] },
    clusters: [], selfCheck: { pages: 0, recall: 1, precision: 1, adjusted: [] }, params: {},
    ...(fields ? { fields } : {}),
  });
}

beforeEach(() => clearRulesCache());

describe('learnSiteFields', () => {
  it('learns from the feed alone when the pages carry no metadata (self-supervised by the feed, as in the paper)', async () => {
    const store = new MemoryStore();
    await store.put(keys.feed(SITE, feedIdOf(`${ORIGIN}/feed.xml`)), pageHtml(site, '/feed.xml', ORIGIN));
    const train = articlesOf(site, 'classic').slice(0, 5);
    const docs = [];
    for (const p of train) {
      const html = stripFieldMetadata(pageHtml(site, p.path, ORIGIN));
      expect(metadataValues(rawPageMetadata(html))).toEqual({});
      docs.push(await storePage(store, p, html));
    }
    const fields = (await learnSiteFields(SITE, docs, store))!;
    expect(fields.training).toEqual({ posts: 5, feedEntries: 24, fromFeed: 15, fromMetadata: 0 });
    expect(fields.title!.rules[0]).toMatchObject({ kind: 'class', value: 'headline', score: 1 });
    expect(fields.byline!.rules[0]).toMatchObject({ score: 1, support: 5 });
    expect(fields.published!.rules[0]).toMatchObject({ score: 1, support: 5 });
  });

  it('learns from the pages\u2019 own JSON-LD and meta values when there is no feed; no title from a <title> every page shares', async () => {
    const store = new MemoryStore();
    const docs = [];
    for (const p of articlesOf(site, 'magazine').slice(0, 5)) docs.push(await storePage(store, p, pageHtml(site, p.path, ORIGIN)));
    const fields = (await learnSiteFields(SITE, docs, store))!;
    expect(fields.training).toMatchObject({ posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 15 });
    expect(fields.title!.rules[0].score).toBe(1);

    // the blog template has no machine-readable values: its <title> ("Headline | Site") gives the title
    const bare = new MemoryStore();
    const blog = articlesOf(site, 'blog').slice(0, 5);
    const blogDocs = [];
    for (const p of blog) blogDocs.push(await storePage(bare, p, pageHtml(site, p.path, ORIGIN)));
    const fromTitles = (await learnSiteFields(SITE, blogDocs, bare))!;
    expect(fromTitles.training).toMatchObject({ posts: 5, fromMetadata: 5 });
    expect(fromTitles.title!.rules[0].score).toBe(1);
    expect(fromTitles.byline).toBeUndefined();

    // a <title> every page shares names the site, not a post: no title; the day each post's URL names is its date
    const shared = new MemoryStore();
    const sharedDocs = [];
    for (const p of blog) sharedDocs.push(await storePage(shared, p, pageHtml(site, p.path, ORIGIN).replace(/<title>[^<]*<\/title>/, '<title>The Daily Example</title>')));
    const fromUrls = (await learnSiteFields(SITE, sharedDocs, shared))!;
    expect(fromUrls.title).toBeUndefined();
    expect(fromUrls.training).toEqual({ posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 0, fromUrl: 5 });
    expect(fromUrls.published!.rules[0].score).toBe(1);

    // posts all filed under one day teach no date: any element showing that day would do
    const oneDay = new MemoryStore();
    const oneDayDocs = [];
    for (const p of blog) oneDayDocs.push(await storePage(oneDay, { ...p, path: p.path.replace(/^\/\d{4}\/\d\d\/\d\d\//, '/2026/01/02/') }, pageHtml(site, p.path, ORIGIN)));
    expect(oneDayDocs.every((d) => d.url.includes('/2026/01/02/'))).toBe(true);
    const sameDay = await learnSiteFields(SITE, oneDayDocs, oneDay);
    expect(sameDay?.training.fromUrl).toBeUndefined();
    expect(sameDay?.published).toBeUndefined();
  });

  it('does not take a title value several pages share (a site-wide og:title) for the post\u2019s', async () => {
    const siteWide = (html: string) =>
      html
        .replace(/<meta property="og:title" content="[^"]*"/, '<meta property="og:title" content="Official Blog of the Example League"')
        .replace(/"headline":\s*"(?:[^"\\]|\\.)*"/, '"headline":"Official Blog of the Example League"');
    const store = new MemoryStore();
    const docs = [];
    for (const p of articlesOf(site, 'magazine').slice(0, 5)) docs.push(await storePage(store, p, siteWide(pageHtml(site, p.path, ORIGIN))));
    expect(docs.every((d) => d.page.ogTitle === 'Official Blog of the Example League')).toBe(true);
    const fields = (await learnSiteFields(SITE, docs, store))!;
    expect(fields.title!.rules[0].score).toBe(1);
    const page = articlesOf(site, 'magazine')[7];
    const doc = await storePage(store, page, siteWide(pageHtml(site, page.path, ORIGIN)));
    await putJson(store, keys.rules(SITE), rulesWith(fields));
    const article = await applyStep({ v: 1, site: SITE, pageId: doc.pageId, reason: 'rendered' }, context(store));
    expect(article.title).toBe(page.title);
  });
});

describe('applyStep with field rules', () => {
  it('fills title, byline and published from the rules first and records the source of each', async () => {
    const store = new MemoryStore();
    const train = articlesOf(site, 'classic').slice(0, 5);
    const docs = [];
    for (const p of train) docs.push(await storePage(store, p, pageHtml(site, p.path, ORIGIN)));
    const fields = await learnSiteFields(SITE, docs, store);
    await putJson(store, keys.rules(SITE), rulesWith(fields));

    const unseen = articlesOf(site, 'classic')[7];
    const doc = await storePage(store, unseen, stripFieldMetadata(pageHtml(site, unseen.path, ORIGIN)));
    const article = await applyStep({ v: 1, site: SITE, pageId: doc.pageId, reason: 'rendered' }, context(store));
    expect(article.title).toBe(unseen.title);
    expect(sameByline(article.byline, unseen.byline)).toBe(true);
    expect(article.published).toBe(new Date(unseen.published).toISOString());
    expect(article.sources).toEqual({ title: 'rules', byline: 'rules', published: 'rules' });
  });

  it('falls back to the page metadata where the rules give nothing, and says so', async () => {
    const store = new MemoryStore();
    const p = articlesOf(site, 'classic')[3];
    const doc = await storePage(store, p, pageHtml(site, p.path, ORIGIN));
    const fields: FieldsSection = {
      title: { rules: [{ kind: 'class', value: 'no-such-class', selector: '.no-such-class', score: 1, support: 5 }], posts: 5 },
      training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 15 },
      minScore: 0.6,
    };
    await putJson(store, keys.rules(SITE), rulesWith(fields));
    const article = await applyStep({ v: 1, site: SITE, pageId: doc.pageId, reason: 'rendered' }, context(store));
    expect(article.title).toBe(p.title);
    expect(sameDate(parseMachineDate(article.published), parseMachineDate(p.published))).toBe(true);
    expect(article.sources).toEqual({ title: 'metadata', byline: 'metadata', published: 'metadata' });

    // Rules documents learned before fields existed still parse and apply.
    clearRulesCache();
    await putJson(store, keys.rules(SITE), rulesWith(undefined));
    const old = await applyStep({ v: 1, site: SITE, pageId: doc.pageId, reason: 'rendered' }, context(store));
    expect(old.sources).toEqual({ title: 'metadata', byline: 'metadata', published: 'metadata' });
  });
});

describe("the bench's raw metadata reader", () => {
  it('reads and strips what the collector records from the same HTML', () => {
    const html = `<!doctype html><html><head><title>T | Site</title><meta property="og:title" name="title" content="The headline">
      <meta name="Twitter:Title" content="Tweeted"><meta name="title" content="Meta headline"><meta name="dc.creator" content="Jane Doe">
      <meta http-equiv="date" content="2012-11-06"><meta name="author" content=" "></head><body><p>Text.</p></body></html>`;
    const seam: LayoutSeam = { rect: () => ({ x: 0, y: 0, width: 1, height: 1 }), style: () => 'block', visible: () => true, cssEscape };
    const options = { maxBlocks: 10, maxPathSteps: MAX_PATH_STEPS, maxSelectorChars: MAX_SELECTOR_CHARS, metaNames: META_NAMES };
    const collected = collectPage(new JSDOM(html).window.document, seam, options).page;
    const raw = rawPageMetadata(html);
    for (const k of ['metaTitle', 'ogTitle', 'twitterTitle', 'author', 'published'] as const) expect(raw[k], k).toBe(collected[k]);
    expect(raw).toMatchObject({ ogTitle: 'The headline', metaTitle: 'Meta headline', author: 'Jane Doe', published: '2012-11-06' });
    const stripped = new JSDOM(stripFieldMetadata(html)).window.document;
    expect(collectPage(stripped, seam, options).page).toEqual({ title: 'T | Site', jsonLd: [], feeds: [] });
  });
});
