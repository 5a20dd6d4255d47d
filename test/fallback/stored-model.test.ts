/**
 * A fallback model retrained from the store (`trainFromStore`, `spider train`) at
 * `models/fallback.json`: trained from learned sites' articles, loaded by the apply step once per
 * stored version, and never able to fail an extraction.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { clearFallbackModelCache, extractFallback, loadFallbackModel } from '../../lib/apply/fallback';
import { parseHtml } from '../../lib/html/parse';
import { ConfigSchema } from '../../lib/config/config';
import { generateSite, pageHtml, pagesOf, type GeneratedSite, type PageTruth } from '../../lib/demo';
import { aggregate, scorePage } from '../../lib/metric/metric';
import { defaultFallbackModel } from '../../lib/fallback/default-model';
import { modelJson, parseModel, type FallbackModel } from '../../lib/fallback/model';
import { storePages, trainFromStore } from '../../lib/fallback/store-training';
import type { Logger, StepContext } from '../../lib/step/context';
import type { QueueSender } from '../../lib/queue/queue';
import { keys } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson, type Store, type StoredObject } from '../../lib/store/store';
import { ARTICLE_DOCUMENT_VERSION, type ArticleDocument } from '../../lib/types/article-document';

/** A learned site in the store: every article page extracted "by its rules" (the generator's truth), with its snapshot. */
async function putLearnedSite(store: Store, host: string, site: GeneratedSite, method: 'rules' | 'fallback' = 'rules'): Promise<PageTruth[]> {
  const articles = pagesOf(site, { kind: 'article' });
  for (const [i, p] of articles.entries()) {
    const pageId = `page${i}`;
    const article: ArticleDocument = {
      version: ARTICLE_DOCUMENT_VERSION,
      pageId,
      url: `http://${host}${p.path}`,
      site: host,
      title: p.title,
      text: p.bodyText,
      html: '',
      wordCount: p.wordCount,
      method,
      ...(method === 'rules' ? { rulesVersion: 1 } : {}),
      extractedAt: '2026-03-14T00:00:00.000Z',
      elapsedMs: 1,
    };
    await putJson(store, keys.article(host, pageId), article);
    await store.put(keys.snapshot(host, pageId), pageHtml(site, p.path, `http://${host}`));
  }
  return articles;
}

/** A rendered page of a site the store has no rules for, as apply finds it. */
async function putNewPage(store: Store, site: GeneratedSite, p: PageTruth, pageId: string): Promise<void> {
  const url = `http://new.example${p.path}`;
  const html = pageHtml(site, p.path, 'http://new.example').replace('<head>', `<head><meta name="spider:url" content="${url}">`);
  await store.put(keys.snapshot('new.example', pageId), html);
}

interface Logged {
  level: string;
  message: string;
}

function context(store: Store): { ctx: StepContext; logs: Logged[] } {
  const logs: Logged[] = [];
  const log = (level: string) => (message: string) => void logs.push({ level, message });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const sender = <T>(): QueueSender<T> => ({ send: async () => {} });
  return { ctx: { store, queues: { render: sender(), learn: sender(), apply: sender() }, config: ConfigSchema.parse({}), logger }, logs };
}

/** A valid model that calls every block boilerplate: proof of which model an extraction used. */
function sabotagedModel(): FallbackModel {
  const m = structuredClone(defaultFallbackModel());
  m.dragnet.classifier.bias = 50; // every block is article text: navigation, rails and footer join the run
  m.trainedOn = 'sabotaged (test)';
  return m;
}

const learned = [
  ['alpha.example', generateSite({ seed: 'stored-model-a', pagesPerTemplate: 3, templates: 2 })],
  ['beta.example', generateSite({ seed: 'stored-model-b', pagesPerTemplate: 3, templates: 2 })],
  ['gamma.example', generateSite({ seed: 'stored-model-c', pagesPerTemplate: 3, templates: 2 })],
] as const;
const unseen = generateSite({ seed: 'stored-model-unseen', pagesPerTemplate: 2, templates: 4 });

beforeEach(() => {
  clearRulesCache();
  clearFallbackModelCache();
});

describe('training from a store', () => {
  it('takes pages from every learned site in turn, within the caps', async () => {
    const store = new MemoryStore();
    for (const [host, site] of learned) await putLearnedSite(store, host, site);
    await putLearnedSite(store, 'unlearned.example', unseen, 'fallback');

    expect((await storePages(store)).sites).toEqual({ 'alpha.example': 6, 'beta.example': 6, 'gamma.example': 6 });
    expect((await storePages(store, { maxPagesPerSite: 2 })).sites).toEqual({ 'alpha.example': 2, 'beta.example': 2, 'gamma.example': 2 });
    // A total cap is shared out, not filled by the first site in key order.
    const capped = await storePages(store, { maxPages: 7 });
    expect(capped.pages).toHaveLength(7);
    expect(capped.sites).toEqual({ 'alpha.example': 3, 'beta.example': 2, 'gamma.example': 2 });
  });

  it('records the sites, the time and a leave-one-site-out holdout against the default', async () => {
    const store = new MemoryStore();
    for (const [host, site] of learned) await putLearnedSite(store, host, site);

    const result = await trainFromStore(store, { includeGenerated: false, holdoutSites: 2, now: () => new Date('2026-03-14T12:00:00Z') });
    expect(result.pages).toBe(18);
    expect(result.generatedPages).toBe(0);
    expect(result.model.sites).toEqual({ 'alpha.example': 6, 'beta.example': 6, 'gamma.example': 6 });
    expect(result.model.trainedAt).toBe('2026-03-14T12:00:00.000Z');
    expect(result.holdout).toEqual(result.model.holdout);
    expect(result.holdout!.sites).toEqual(['alpha.example', 'beta.example']);
    expect(result.holdout!.pages).toBe(12);
    expect(result.holdout!.retrained.f1).toBeGreaterThan(0.85);
    expect(result.holdout!.default.f1).toBeGreaterThan(0.85);
    // The stored form round-trips through the schema.
    expect(parseModel(JSON.parse(modelJson(result.model)))).toEqual(result.model);
  });

  it('skips the holdout with a single learned site', async () => {
    const store = new MemoryStore();
    await putLearnedSite(store, ...learned[0]);
    const result = await trainFromStore(store, { includeGenerated: false, holdoutSites: 3 });
    expect(result.holdout).toBeUndefined();
    expect(result.model.holdout).toBeUndefined();
  });
});

describe('the stored model in the apply step', () => {
  it('is loaded by apply and extracts a site it never saw as well as the default', async () => {
    const store = new MemoryStore();
    for (const [host, site] of learned) await putLearnedSite(store, host, site);
    const { model } = await trainFromStore(store, { includeGenerated: false });
    await store.put(keys.fallbackModel(), modelJson(model));
    const { ctx, logs } = context(store);

    const pages = pagesOf(unseen, { kind: 'article' });
    const retrained = [];
    const baseline = [];
    for (const [i, p] of pages.entries()) {
      await putNewPage(store, unseen, p, `new${i}`);
      const article = await applyStep({ v: 1, site: 'new.example', pageId: `new${i}`, reason: 'rendered' }, ctx);
      expect(article.method).toBe('fallback');
      const doc = parseHtml((await store.get(keys.snapshot('new.example', `new${i}`)))!.body.toString('utf8'));
      // Apply used the stored model...
      expect(article.text).toBe(extractFallback(doc, { model: parseModel(model) }).text);
      retrained.push(scorePage(article.text, p.bodyText));
      baseline.push(scorePage(extractFallback(doc).text, p.bodyText));
    }
    // ...parsed once for all those pages, and it extracts sanely.
    expect(logs.filter((l) => l.message === 'using the stored fallback model')).toHaveLength(1);
    expect(aggregate(retrained).f1).toBeGreaterThan(0.9);
    expect(aggregate(retrained).f1).toBeGreaterThan(aggregate(baseline).f1 - 0.03);
  });

  it('is what apply extracts with: a model that takes every block changes the output', async () => {
    const store = new MemoryStore();
    const [p] = pagesOf(unseen, { kind: 'article' });
    await putNewPage(store, unseen, p, 'new0');
    const message = { v: 1, site: 'new.example', pageId: 'new0', reason: 'rendered' } as const;

    const before = await applyStep(message, context(store).ctx);
    expect(scorePage(before.text, p.bodyText).tp).toBeGreaterThan(0.8);

    await store.put(keys.fallbackModel(), modelJson(sabotagedModel()));
    clearFallbackModelCache();
    const after = await applyStep(message, context(store).ctx);
    // the boilerplate around the story comes in (not the readers' comments: they score 0 under any model)
    expect(after.text).not.toBe(before.text);
    expect(scorePage(after.text, p.bodyText).fp).toBeGreaterThan(scorePage(before.text, p.bodyText).fp + 0.05);
  });

  it('a corrupt or unknown-version model is logged once and the default is used; apply never fails', async () => {
    const store = new MemoryStore();
    const [p] = pagesOf(unseen, { kind: 'article' });
    await putNewPage(store, unseen, p, 'new0');
    const message = { v: 1, site: 'new.example', pageId: 'new0', reason: 'rendered' } as const;
    const expected = (await applyStep(message, context(store).ctx)).text;

    for (const body of ['{"version": 1, "trainedOn": "trunc', JSON.stringify({ ...defaultFallbackModel(), version: 2 })]) {
      clearFallbackModelCache();
      await store.put(keys.fallbackModel(), body);
      const { ctx, logs } = context(store);
      expect((await applyStep(message, ctx)).text).toBe(expected);
      expect((await applyStep(message, ctx)).text).toBe(expected);
      expect(logs.filter((l) => l.level === 'error' && l.message === 'stored fallback model is invalid; using the default model')).toHaveLength(1);
    }
  });

  it('a store that cannot read the model: logged, the model in use kept, apply goes on', async () => {
    class FailingModelStore extends MemoryStore {
      fail = false;
      override async get(key: string): Promise<StoredObject | undefined> {
        if (this.fail && key === keys.fallbackModel()) throw new Error('AccessDenied');
        return super.get(key);
      }
    }
    const store = new FailingModelStore();
    await store.put(keys.fallbackModel(), modelJson(sabotagedModel()));
    const { ctx, logs } = context(store);
    const first = await loadFallbackModel(ctx, { recheckMs: 0 });
    expect(first?.trainedOn).toBe('sabotaged (test)');

    store.fail = true;
    expect(await loadFallbackModel(ctx, { recheckMs: 0 })).toBe(first);
    expect(logs.some((l) => l.level === 'error' && l.message.startsWith('cannot read the stored fallback model'))).toBe(true);

    clearFallbackModelCache();
    expect(await loadFallbackModel(ctx, { recheckMs: 0 })).toBeUndefined(); // nothing in use: the default
    const [p] = pagesOf(unseen, { kind: 'article' });
    await putNewPage(store, unseen, p, 'new0');
    const article = await applyStep({ v: 1, site: 'new.example', pageId: 'new0', reason: 'rendered' }, ctx);
    expect(scorePage(article.text, p.bodyText).tp).toBeGreaterThan(0.8);
  });

  it('is cached by etag and read again only after the recheck interval', async () => {
    let reads = 0;
    class CountingStore extends MemoryStore {
      override async get(key: string): Promise<StoredObject | undefined> {
        if (key === keys.fallbackModel()) reads++;
        return super.get(key);
      }
    }
    const store = new CountingStore();
    const { ctx } = context(store);
    let now = 0;
    const load = () => loadFallbackModel(ctx, { now: () => now, recheckMs: 1000 });

    expect(await load()).toBeUndefined(); // none stored: the default
    await store.put(keys.fallbackModel(), modelJson(sabotagedModel()));
    expect(await load()).toBeUndefined(); // within the interval: not read again
    expect(reads).toBe(1);

    now = 1000;
    const a = await load();
    expect(a?.trainedOn).toBe('sabotaged (test)');
    now = 2000;
    expect(await load()).toBe(a); // same etag: the same parsed object
    expect(reads).toBe(3);

    const [x, y] = await Promise.all([((now = 3000), load()), load()]);
    expect(x).toBe(a);
    expect(y).toBe(a);
    expect(reads).toBe(4); // concurrent loads share one read

    await store.put(keys.fallbackModel(), modelJson({ ...sabotagedModel(), trainedOn: 'newer' }));
    now = 4000;
    expect((await load())?.trainedOn).toBe('newer');
    await store.delete(keys.fallbackModel());
    now = 5000;
    expect(await load()).toBeUndefined();
  });
});
