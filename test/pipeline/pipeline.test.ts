/**
 * The whole embedded pipeline with real Chromium on generated sites served from 127.0.0.1:
 * learn a site from 5 pages, extract 20 unseen pages with the learned rules, per template.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, serveSite, truthFor, type ServedSite, type TemplateId, TEMPLATE_IDS } from '../../lib/demo/index';
import { aggregate, scorePage } from '../../lib/metric/metric';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { keys, pageIdOf } from '../../lib/store/keys';
import { getJson } from '../../lib/store/store';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';

const site = generateSite({ seed: 'pipeline-test', pagesPerTemplate: 25, templates: 4 });
let served: ServedSite;
let pipeline: EmbeddedPipeline;
/** 25 real Chromium renders, a learn and 20 applies: about 25 s alone, twice that beside another Chromium test file. */
const SITE_TIMEOUT_MS = 180_000;

beforeAll(async () => {
  served = await serveSite(site);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-pipeline-'));
  // Keep the rules learned from the first 5 pages: no relearn while the unseen pages arrive.
  const config = loadConfig({ dataDir, relearnAfter: 1000, retryBaseMs: 10 });
  pipeline = await new EmbeddedPipeline(config, { ephemeralQueues: true }).open();
});
afterAll(async () => {
  await pipeline?.close();
  await served?.close();
});

/** Each template served as a site of its own: <template>.localhost (Chromium resolves *.localhost to 127.0.0.1). */
const urlFor = (template: string, p: string) => `http://${template}.localhost:${served.port}${p}`;

describe.each(TEMPLATE_IDS as readonly TemplateId[])('template %s', (template) => {
  const pages = articlesOf(site, template);
  const train = pages.slice(0, 5);
  const unseen = pages.slice(5, 25);
  const host = `${template}.localhost`;

  it('learns from 5 pages and extracts 20 unseen pages with token F1 >= 0.98', async () => {
    await pipeline.submit(train.map((p) => ({ url: urlFor(template, p.path) })));
    await pipeline.run();
    const rules = await getJson(pipeline.store, keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    expect(rules, 'rules learned after 5 pages').toBeDefined();
    expect(rules!.learnedFrom).toHaveLength(5);

    await pipeline.submit(unseen.map((p) => ({ url: urlFor(template, p.path) })));
    await pipeline.run();
    const scores = [];
    for (const p of unseen) {
      const article = await getJson(pipeline.store, keys.article(host, pageIdOf(urlFor(template, p.path))), (v) => ArticleDocumentSchema.parse(v));
      expect(article?.method).toBe('rules');
      expect(article?.rulesVersion).toBe(rules!.rulesVersion);
      scores.push(scorePage(article!.text, truthFor(site, p.path)!.bodyText));
    }
    const quality = aggregate(scores);
    expect(quality.pages).toBe(20);
    expect(quality.f1).toBeGreaterThanOrEqual(0.98);
    expect(pipeline.deadLetters()).toEqual([]);
  }, SITE_TIMEOUT_MS);
});

describe('a site without rules', () => {
  it('gets a fallback article, and the home page is marked as not an article', async () => {
    const [article] = articlesOf(site, 'classic');
    const url = `http://lonely.localhost:${served.port}${article.path}`;
    const home = `http://lonely.localhost:${served.port}/`;
    await pipeline.submit([{ url }, { url: home }]);
    await pipeline.run();
    const got = await getJson(pipeline.store, keys.article('lonely.localhost', pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));
    expect(got?.method).toBe('fallback');
    expect(got?.title).toBe(article.title);
    expect(scorePage(got!.text, article.bodyText).tp).toBeGreaterThan(0.8);
    const listing = await getJson(pipeline.store, keys.article('lonely.localhost', pageIdOf(home)), (v) => ArticleDocumentSchema.parse(v));
    expect(listing?.notArticle).toBe(true);
    expect(await pipeline.store.get(keys.rules('lonely.localhost'))).toBeUndefined();
  });
});

describe('redelivery', () => {
  it('a URL submitted twice and messages delivered twice yield one page, one article, one learning input', async () => {
    const [article] = articlesOf(site, 'blog');
    const url = `http://twice.localhost:${served.port}${article.path}`;
    await pipeline.submit([{ url }, { url }, { url: url + '#comments' }]);
    await pipeline.run();
    // The apply message delivered again after the page was extracted.
    await pipeline.queues.apply.send({ v: 1, site: 'twice.localhost', pageId: pageIdOf(url), reason: 'requested' });
    await pipeline.run();
    expect((await pipeline.store.list(keys.pagePrefix('twice.localhost'))).map((o) => o.key)).toEqual([
      keys.features('twice.localhost', pageIdOf(url)),
      keys.snapshot('twice.localhost', pageIdOf(url)),
    ]);
    expect(await pipeline.store.list(keys.articlePrefix('twice.localhost'))).toHaveLength(1);
    expect(pipeline.deadLetters()).toEqual([]);
  });
});
