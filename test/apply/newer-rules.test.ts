/**
 * Two applies of one page, one that read the site's rules v1 and one that read v2 (a relearn wrote
 * them and sent the page to apply again): whichever writes last, the page keeps v2's article. The
 * embedded store on disk and the real apply step; the v1 apply is held back at a store call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPage, applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { ConfigSchema } from '../../lib/config/config';
import type { QueueSender, Queues } from '../../lib/queue/queue';
import type { Logger, StepContext } from '../../lib/step/context';
import { FsStore } from '../../lib/store/fs-store';
import { keys } from '../../lib/store/keys';
import { putJson, type Store } from '../../lib/store/store';
import { ARTICLE_DOCUMENT_VERSION, ArticleDocumentSchema, type ArticleDocument } from '../../lib/types/article-document';
import type { ApplyMessage } from '../../lib/types/messages';
import { RULES_DOCUMENT_VERSION, type RulesDocument } from '../../lib/types/rules-document';

const site = 'example.com';
const pageId = 'story1';
const url = 'https://example.com/news/story1';

const long = (i: number) => `Sentence ${i} of the body, with enough words, commas and substance to count as a paragraph of prose.`;
const page = `<!DOCTYPE html><html lang="en"><head><meta name="spider:url" content="${url}">
<title>The story | Example</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="article"><h1 class="title">The story</h1>
<div class="text">${[1, 2, 3, 4].map((i) => `<p>${long(i)}</p>`).join('')}<div class="related"><a href="/o">Other story</a></div></div></div>
<footer>Footer text</footer></body></html>`;

/** v1 takes the headline with the body, v2 the body alone: the article says which rules made it. */
const WITH_HEADLINE = ['div.article > h1', 'div.text'];
const BODY_ALONE = ['div.text'];

function rulesDoc(rulesVersion: number, selectors: string[]): RulesDocument {
  return {
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion,
    learnedAt: '2026-01-01T00:00:00.000Z',
    learnedFrom: [pageId],
    content: { selectors, clean: ['.related'] },
    clusters: [],
    selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] },
    params: {},
  };
}

function context(store: Store) {
  const logs: { level: string; message: string; extra?: Record<string, unknown> }[] = [];
  const sent: unknown[] = [];
  const log = (level: string) => (message: string, extra?: Record<string, unknown>) => void logs.push({ level, message, extra });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const sender = <T>(): QueueSender<T> => ({ send: async (body) => void sent.push(body) });
  const queues: Queues = { render: sender(), learn: sender(), apply: sender() };
  const ctx: StepContext = { store, queues, config: ConfigSchema.parse({}), logger };
  return { ctx, logs, sent };
}

/**
 * The store as one apply sees it: its first `method` call on the page's article waits until `release`
 * is called (`reached` resolves when it gets there): after it read the site's rules and extracted.
 */
function heldAt(store: Store, method: 'get' | 'put') {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (arrived = r));
  let held = false;
  const hold = async (key: string, m: 'get' | 'put') => {
    if (held || m !== method || key !== keys.article(site, pageId)) return;
    held = true;
    arrived();
    await gate;
  };
  const view: Store = {
    get: async (key) => (await hold(key, 'get'), store.get(key)),
    put: async (key, body, options) => (await hold(key, 'put'), store.put(key, body, options)),
    delete: (key) => store.delete(key),
    list: (prefix, options) => store.list(prefix, options),
  };
  return { view, reached, release };
}

async function storedArticle(store: Store): Promise<ArticleDocument | undefined> {
  const obj = await store.get(keys.article(site, pageId));
  return obj && ArticleDocumentSchema.parse(JSON.parse(obj.body.toString('utf8')));
}

let dir: string;
let store: FsStore;
beforeEach(async () => {
  clearRulesCache();
  dir = await mkdtemp(path.join(os.tmpdir(), 'spider-newer-rules-'));
  store = new FsStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rendered: ApplyMessage = { v: 1, site, pageId, reason: 'rendered' };
const relearned: ApplyMessage = { v: 1, site, pageId, reason: 'relearned' };

describe('an apply that read older rules', () => {
  for (const at of ['get', 'put'] as const) {
    it(`leaves the article an apply of newer rules wrote first (held before its ${at === 'get' ? 'read of the stored article' : 'write'})`, async () => {
      await store.put(keys.snapshot(site, pageId), page);
      await putJson(store, keys.rules(site), rulesDoc(1, WITH_HEADLINE));
      const held = heldAt(store, at);
      const a = context(held.view);
      const older = applyPage(rendered, a.ctx);
      await held.reached; // A read v1 and extracted

      // a relearn writes v2 and sends the page to apply again; that apply reads v2 and writes first
      await putJson(store, keys.rules(site), rulesDoc(2, BODY_ALONE));
      const b = context(store);
      const newer = await applyStep(relearned, b.ctx);
      expect(newer).toMatchObject({ method: 'rules', rulesVersion: 2, rulesVersionRead: 2 });

      held.release();
      const outcome = await older;
      expect(outcome.extracted).toMatchObject({ method: 'rules', rulesVersion: 1, rulesVersionRead: 1 });
      expect(outcome.extracted.text.split('\n')[0]).toBe('The story');
      // not written: what A returns is the page's article, v2's
      expect(outcome.written).toBe(false);
      expect(outcome.article).toEqual(newer);
      expect(await storedArticle(store)).toEqual(newer);
      expect((await storedArticle(store))!.text.split('\n')[0]).toBe(long(1));
      expect(a.logs).toContainEqual(
        expect.objectContaining({ level: 'info', message: 'not written: the stored article was made under newer rules', extra: expect.objectContaining({ rulesVersionRead: 1, storedRulesVersionRead: 2 }) }),
      );
      expect(a.logs.some((l) => l.message === 'applied')).toBe(false);
    });
  }

  it('leaves no drift marker of rules that selected nothing, and sends no fetched page to render, when newer rules made the article', async () => {
    await store.put(keys.served(site, pageId), page);
    await putJson(store, keys.rules(site), rulesDoc(1, ['div.gone']));
    const fetched: ApplyMessage = { v: 1, site, pageId, reason: 'rendered', path: 'fetch', url };
    const held = heldAt(store, 'get');
    const a = context(held.view);
    const older = applyPage(fetched, a.ctx);
    await held.reached;

    await putJson(store, keys.rules(site), rulesDoc(2, BODY_ALONE));
    const newer = await applyStep({ ...fetched, reason: 'relearned' }, context(store).ctx);
    expect(newer).toMatchObject({ method: 'rules', rulesVersion: 2 });

    held.release();
    const outcome = await older;
    expect(outcome.extracted).toMatchObject({ method: 'fallback', rulesVersionRead: 1 });
    expect(outcome.extracted.rulesVersion).toBeUndefined();
    expect(outcome.written).toBe(false);
    expect(await storedArticle(store)).toEqual(newer);
    // no marker against v1, no learn signal, no render request nor render
    expect(await store.list(keys.driftPrefix(site))).toEqual([]);
    expect(a.sent).toEqual([]);
  });

  it("an apply that read no rules leaves the article the site's first rules made", async () => {
    await store.put(keys.snapshot(site, pageId), page);
    const held = heldAt(store, 'get');
    const older = applyPage(rendered, context(held.view).ctx);
    await held.reached;

    // the first learn writes v1 and sends the page to apply again
    await putJson(store, keys.rules(site), rulesDoc(1, BODY_ALONE));
    const newer = await applyStep(relearned, context(store).ctx);
    held.release();
    const outcome = await older;
    expect(outcome.extracted.method).toBe('fallback');
    expect(outcome.extracted.rulesVersionRead).toBeUndefined();
    expect(outcome.written).toBe(false);
    expect(await storedArticle(store)).toEqual(newer);
  });

  it('leaves an article written before rulesVersionRead by newer rules (its rulesVersion)', async () => {
    await store.put(keys.snapshot(site, pageId), page);
    const before = ArticleDocumentSchema.parse({
      version: ARTICLE_DOCUMENT_VERSION, pageId, url, site, text: 'The story.', html: '<p>The story.</p>', wordCount: 2,
      method: 'rules', rulesVersion: 2, extractedAt: '2026-01-01T00:00:00.000Z', elapsedMs: 1,
    });
    await putJson(store, keys.article(site, pageId), before);
    // this apply reads v1; v2 (whose apply wrote that article) is written while it is under way
    await putJson(store, keys.rules(site), rulesDoc(1, WITH_HEADLINE));
    const held = heldAt(store, 'get');
    const older = applyPage(rendered, context(held.view).ctx);
    await held.reached;
    await putJson(store, keys.rules(site), rulesDoc(2, BODY_ALONE));
    held.release();
    expect((await older).written).toBe(false);
    expect(await storedArticle(store)).toEqual(before);
  });

  it('an apply under the same rules replaces the article (a page rendered again)', async () => {
    await store.put(keys.snapshot(site, pageId), page);
    await putJson(store, keys.rules(site), rulesDoc(2, BODY_ALONE));
    const { ctx } = context(store);
    await applyStep(rendered, ctx);
    await store.put(keys.snapshot(site, pageId), page.replace(long(4), long(5)));
    const again = await applyPage(rendered, ctx);
    expect(again.written).toBe(true);
    expect((await storedArticle(store))!.text).toContain(long(5));
  });
});

describe("an article of rules that are gone", () => {
  it("freezes nothing: the site's rules removed, a later apply writes the fallback's article", async () => {
    await store.put(keys.snapshot(site, pageId), page);
    await putJson(store, keys.rules(site), rulesDoc(3, BODY_ALONE));
    const { ctx } = context(store);
    expect(await applyStep(rendered, ctx)).toMatchObject({ method: 'rules', rulesVersion: 3 });

    await store.delete(keys.rules(site));
    const after = await applyPage(rendered, ctx);
    expect(after.written).toBe(true);
    expect(after.article).toMatchObject({ method: 'fallback' });
    expect(await storedArticle(store)).toEqual(after.article);
  });

  it('freezes nothing: rules learned afresh from version 1 (after a bad rules file) replace an article of version 3', async () => {
    await store.put(keys.snapshot(site, pageId), page);
    await putJson(store, keys.rules(site), rulesDoc(3, BODY_ALONE));
    const { ctx } = context(store);
    await applyStep(rendered, ctx);

    await putJson(store, keys.rules(site), rulesDoc(1, WITH_HEADLINE));
    const after = await applyPage(rendered, ctx);
    expect(after.written).toBe(true);
    expect(await storedArticle(store)).toMatchObject({ method: 'rules', rulesVersion: 1, rulesVersionRead: 1 });
  });
});
