import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFallback } from '../../lib/apply/fallback';
import { parseHtml } from '../../lib/html/parse';
import { generateSite, pageHtml, pagesOf } from '../../lib/demo';
import { segmentBlocks } from '../../lib/fallback/blocks';
import { defaultFallbackModel } from '../../lib/fallback/default-model';
import { DEFAULT_DESCRIPTION, defaultTrainingPages, generatedPages } from '../../lib/fallback/generated';
import { labelBlocks, labelTokens } from '../../lib/fallback/labels';
import { modelJson, parseModel } from '../../lib/fallback/model';
import { mssTokens } from '../../lib/fallback/mss';
import { storePages, trainFromStore } from '../../lib/fallback/store-training';
import { trainModel } from '../../lib/fallback/train';
import { aggregate, scorePage } from '../../lib/metric/metric';
import { MemoryStore } from '../../lib/store/memory-store';
import { keys } from '../../lib/store/keys';
import { putJson } from '../../lib/store/store';
import { ARTICLE_DOCUMENT_VERSION, type ArticleDocument } from '../../lib/types/article-document';

describe('labels', () => {
  it('labels blocks by the article lines, the title left out', () => {
    const doc = parseHtml('<html><body><h1>The Title</h1><p>First paragraph here.</p><ul><li>Menu</li></ul><p>Second <a href="/">one</a> here.</p></body></html>');
    const { blocks } = segmentBlocks(doc);
    expect(labelBlocks(blocks, { article: 'First paragraph here.\nSecond one here.', title: 'The Title' })).toEqual([-1, 1, 0, 1]);
  });

  it('labels MSS tokens "in" from the first article word to the last, tags between included', () => {
    const doc = parseHtml('<html><body><p>nav</p><p>a b</p><p>c</p><p>foot</p></body></html>');
    const t = mssTokens(doc);
    const labels = Array.from(labelTokens(t, { article: 'a b\nc' }));
    expect(t.feature.map((f, i) => (labels[i] ? f : '·')).join(' ')).toBe('· · · · a w </p> <p> w · · · ·') // 'a' is a stop word, kept as itself;
  });
});

describe('training', () => {
  it('trains a valid, small, deterministic model from generated pages', () => {
    const pages = () => generatedPages({ seeds: ['t-1'], pagesPerTemplate: 1, templates: 4 });
    const said: string[] = [];
    const a = trainModel(pages(), { description: 'test', log: (line) => said.push(line) });
    expect(said[0]).toMatch(/^5 pages in 5 groups \(/);
    trainModel(pages().slice(0, 1), { description: 'test', log: (line) => said.push(line) });
    expect(said).toContainEqual(expect.stringMatching(/^1 page in 1 group \(/));
    const b = trainModel(pages(), { description: 'test' });
    expect(modelJson(a)).toBe(modelJson(b));
    expect(parseModel(JSON.parse(modelJson(a)))).toEqual(a);
    expect(a.pages).toBe(5);
    expect(Object.keys(a.dragnet.tokens).length).toBeGreaterThan(20);
    // Known directions hold: link density never counts for content.
    const w = (f: string) => a.dragnet.classifier.weights[a.dragnet.classifier.features.indexOf(f)];
    expect(w('linkDensity')).toBeLessThanOrEqual(0);
    expect(w('idClassChain')).toBeGreaterThan(0);
  });

  it('ships the default model: the training script output, under 1 MB', { timeout: 120_000 }, () => {
    const path = new URL('../../models/fallback-default.json', import.meta.url);
    expect(statSync(path).size).toBeLessThan(1024 * 1024);
    const shipped = readFileSync(path, 'utf8');
    // apply's default is that file, trained on the generated sites
    expect(defaultFallbackModel().trainedOn).toBe(DEFAULT_DESCRIPTION);
    expect(modelJson(trainModel(defaultTrainingPages(), { description: DEFAULT_DESCRIPTION }))).toBe(shipped);
  });
});

describe('self-training from a store', () => {
  it('labels pages of learned sites with their rules-extracted articles and trains on them', async () => {
    const store = new MemoryStore();
    const site = generateSite({ seed: 'store-training', pagesPerTemplate: 2, templates: 4 });
    const articles = pagesOf(site, { kind: 'article' });
    const put = async (p: (typeof articles)[number], i: number, method: 'rules' | 'fallback') => {
      const pageId = `page${i}`;
      const doc: ArticleDocument = {
        version: ARTICLE_DOCUMENT_VERSION, pageId, url: `http://learned.example${p.path}`, site: 'learned.example', title: p.title,
        text: p.bodyText, html: '', wordCount: p.wordCount, method, ...(method === 'rules' ? { rulesVersion: 1 } : {}),
        extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1,
      };
      await putJson(store, keys.article('learned.example', pageId), doc);
      await store.put(keys.snapshot('learned.example', pageId), pageHtml(site, p.path, 'http://learned.example'));
    };
    for (const [i, p] of articles.entries()) await put(p, i, i < 6 ? 'rules' : 'fallback');

    const { pages, sites } = await storePages(store);
    expect(sites).toEqual({ 'learned.example': 6 }); // fallback articles are not labels
    expect(pages.every((p) => p.group === 'learned.example')).toBe(true);

    const { model, pages: used } = await trainFromStore(store, { includeGenerated: false });
    expect(used).toBe(6);
    expect(model.trainedOn).toMatch(/6 pages of 1 learned sites/);
    // The retrained model extracts the site's other pages.
    const scores = articles.slice(6).map((p) => scorePage(extractFallback(parseHtml(pageHtml(site, p.path, 'http://learned.example')), { model }).text, p.bodyText));
    expect(aggregate(scores).f1).toBeGreaterThan(0.9);
  });

  it('refuses a store without learned articles', async () => {
    await expect(trainFromStore(new MemoryStore(), { includeGenerated: false })).rejects.toThrow(/no labelled pages/);
  });
});
