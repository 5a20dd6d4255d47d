import { describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../lib/config/config';
import { extractsDifferently, learnStep, relearnFanOut } from '../../lib/learn/learn-step';
import type { Logger, StepContext } from '../../lib/step/context';
import type { QueueSender, Queues } from '../../lib/queue/queue';
import { EgressPolicy } from '../../lib/net/egress-policy';
import { Politeness } from '../../lib/politeness/politeness';
import { fetchPathPage } from '../../lib/step/fetch-step';
import { keys, pageIdOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import type { FeatureDocument } from '../../lib/types/feature-document';
import type { ApplyMessage } from '../../lib/types/messages';
import { RulesDocumentSchema, type DriftMarker, type RulesDocument } from '../../lib/types/rules-document';
import { blogPage, newsPage, newsSnapshot, type NewsPage } from './factory';
import { extractCombined } from '../../lib/fallback/extract';
import { parseHtml } from '../../lib/html/parse';
import { pageF1, scorePage } from '../../lib/metric/metric';
import { serveRoutes } from '../helpers/http-server';
import { ARTICLE_DOCUMENT_VERSION, ArticleDocumentSchema, EXTRACTION_VERSION } from '../../lib/types/article-document';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function context(store: MemoryStore, config: Partial<Config> = {}) {
  const applied: ApplyMessage[] = [];
  const none: QueueSender<never> = { send: async () => {} };
  const queues = {
    render: none,
    learn: none,
    // apply, as far as learn can see it: the page's article, made by the site's current rules
    apply: {
      send: async (m: ApplyMessage) => {
        applied.push(m);
        const rules = await rulesOf(store);
        await putArticle(store, m.pageId, { method: 'rules', rulesVersion: rules.rulesVersion, extraction: EXTRACTION_VERSION });
      },
    },
  } as unknown as Queues;
  const ctx: StepContext = { store, queues, config: ConfigSchema.parse({ relearnAfter: 3, driftRelearnAfter: 2, learnPages: 5, ...config }), logger: quiet };
  return { ctx, applied };
}

/** Page i of the test news site, as render writes it, under example.com. */
async function addPage(store: MemoryStore, i: number): Promise<FeatureDocument> {
  const doc = { ...newsPage(i).doc, site: 'example.com' };
  await putJson(store, keys.features('example.com', doc.pageId), doc);
  return doc;
}

/** An article as apply stores it (it passes the article schema), made as `made` says: all learn reads of it. */
async function putArticle(
  store: MemoryStore,
  pageId: string,
  made: { method: 'rules' | 'fallback'; rulesVersion?: number; rulesVersionRead?: number; extraction?: number; notArticle?: true },
): Promise<void> {
  const article = ArticleDocumentSchema.parse({
    version: ARTICLE_DOCUMENT_VERSION,
    pageId,
    url: `https://example.com/${pageId}`,
    site: 'example.com',
    text: 'The story.',
    html: '<p>The story.</p>',
    wordCount: 2,
    extractedAt: new Date().toISOString(),
    elapsedMs: 1,
    ...made,
  });
  await putJson(store, keys.article('example.com', pageId), article);
}

async function rulesOf(store: MemoryStore): Promise<RulesDocument> {
  const obj = await store.get(keys.rules('example.com'));
  return RulesDocumentSchema.parse(JSON.parse(obj!.body.toString('utf8')));
}

/** The site learned from 5 pages, its rules then given a selector more: a relearn learns rules that extract differently. */
async function learnedThenChanged() {
  const store = new MemoryStore();
  for (let i = 0; i < 5; i++) await addPage(store, i);
  const { ctx, applied } = context(store, { learnPages: 50 });
  await learn(ctx);
  const v1 = await rulesOf(store);
  await putJson(store, keys.rules('example.com'), { ...v1, content: { ...v1.content, selectors: [...v1.content.selectors, 'aside.extra'] } });
  applied.length = 0;
  return { store, ctx, applied };
}

/** Runs `during` once, when the next learn writes the site's rules: after it listed the pages, before the rules change. */
function beforeRulesWrite(store: MemoryStore, during: () => Promise<void>): void {
  const put = store.put.bind(store);
  store.put = async (key, ...rest) => {
    if (key === keys.rules('example.com')) {
      store.put = put;
      await during();
    }
    return put(key, ...rest);
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
const learn = (ctx: StepContext, force = false) => learnStep({ v: 1, site: 'example.com', force }, ctx);

describe('learnStep', () => {
  it('counts pages rendered since the last learn, not every page outside the newest learnPages', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 8; i++) await addPage(store, i);
    const { ctx, applied } = context(store);
    const first = await learn(ctx);
    expect(first.learned).toBe(true);
    expect((await rulesOf(store)).learnedFrom).toHaveLength(5);
    expect(applied).toHaveLength(8);

    // 3 older pages are outside learnedFrom, but none is new: no relearn
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('0 new pages since rules v1') });

    for (let i = 8; i < 10; i++) await addPage(store, i);
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('2 new pages') });
    await addPage(store, 10);
    const again = await learn(ctx);
    expect(again.learned).toBe(true);
    expect((await rulesOf(store)).rulesVersion).toBe(2);
  });

  it('names and quarantines a truncated feature document, and learns from the other pages', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5; i++) await addPage(store, i);
    const broken = keys.features('example.com', 'ffffffffffffffffffff');
    await store.put(broken, JSON.stringify({ ...newsPage(5).doc, site: 'example.com' }).slice(0, 200));
    const warnings: { message: string; extra?: Record<string, unknown> }[] = [];
    const { ctx } = context(store, { learnPages: 10 });
    const outcome = await learnStep({ v: 1, site: 'example.com', force: false }, { ...ctx, logger: { ...quiet, warn: (message, extra) => warnings.push({ message, extra }) } });
    expect(outcome.learned).toBe(true);
    expect((await rulesOf(store)).learnedFrom).toHaveLength(5);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toBe('quarantined a bad feature document');
    expect(String(warnings[0].extra?.detail)).toContain(`${broken} is unreadable (not JSON:`);
    // Its bytes are kept aside, and the next learn no longer meets it.
    expect(await store.get(broken)).toBeUndefined();
    expect((await store.get(`quarantine/${broken}`))?.body.toString()).toHaveLength(200);
  });

  it('leaves out a page without a block of words: no training page, its place taken by the next older one', async () => {
    // the same 5 pages with words, learned alone and beside an empty page (the newest: it would take a place)
    const alone = new MemoryStore();
    const beside = new MemoryStore();
    for (let i = 0; i < 5; i++) {
      await addPage(alone, i);
      await addPage(beside, i);
      await tick();
    }
    const empty = { ...newsPage(5).doc, site: 'example.com', blocks: [] };
    // a block of no words (white space, a rule drawn with dashes) is no evidence either
    const dashes = { ...newsPage(6).doc, site: 'example.com', blocks: newsPage(6).doc.blocks.slice(0, 1).map((b) => ({ ...b, text: '— — —', words: 0, chars: 5 })) };
    for (const doc of [empty, dashes]) await putJson(beside, keys.features('example.com', doc.pageId), doc);
    const learnedAlone = await learn(context(alone, { learnPages: 5 }).ctx);
    const learnedBeside = await learn(context(beside, { learnPages: 5 }).ctx);
    expect(learnedAlone.learned && learnedBeside.learned).toBe(true);
    const [a, b] = [await rulesOf(alone), await rulesOf(beside)];
    expect(b.learnedFrom).toHaveLength(5);
    expect(b.learnedFrom).not.toContain(empty.pageId);
    expect(b.learnedFrom).not.toContain(dashes.pageId);
    // what was learned is what the pages with words teach
    const learned = (r: RulesDocument) => ({ learnedFrom: r.learnedFrom, content: r.content, templates: r.templates, clusters: r.clusters, selfCheck: r.selfCheck, params: r.params });
    expect(learned(b)).toEqual(learned(a));

    // nor does it count toward the pages a first learn waits for
    const few = new MemoryStore();
    for (let i = 0; i < 4; i++) await addPage(few, i);
    await putJson(few, keys.features('example.com', empty.pageId), empty);
    expect(await learn(context(few).ctx)).toMatchObject({ learned: false, reason: '4 of the 5 pages needed to learn (1 without words)' });
    const onlyEmpty = new MemoryStore();
    await putJson(onlyEmpty, keys.features('example.com', empty.pageId), empty);
    expect(await learn(context(onlyEmpty).ctx, true)).toMatchObject({ learned: false, reason: 'no pages with words (1 without)' });
  });

  it('leaves out a page the not-an-article test flags (its snapshot a login form, a listing), and learns from every page when it would leave fewer than two', async () => {
    const paragraph = (i: number) => `<p>Paragraph ${i} of the story says what the council decided on Tuesday evening, who spoke against it, and what the plan will cost the town's residents over the next ten years.</p>`;
    const article = `<html><head><title>Council votes</title></head><body><article><h1>Council votes</h1>${[1, 2, 3, 4, 5].map(paragraph).join('')}</article></body></html>`;
    const login = '<html><head><title>Sign in</title></head><body><form><p><label>Email</label> <input type="email"></p><p><label>Password</label> <input type="password"></p><p><a href="/forgot">Forgot your password?</a></p></form></body></html>';
    const listing = `<html><head><title>Housing</title></head><body>${[1, 2, 3, 4, 5, 6].map((i) => `<h2><a href="/s${i}">Story number ${i} about housing</a></h2><p>A teaser of story ${i}.</p>`).join('')}</body></html>`;
    const site = async (snapshots: string[]) => {
      const store = new MemoryStore();
      const docs: FeatureDocument[] = [];
      for (const [i, html] of snapshots.entries()) {
        const doc = await addPage(store, i);
        await store.put(doc.snapshotKey, html);
        docs.push(doc);
        await tick();
      }
      const warnings: string[] = [];
      const { ctx } = context(store, { learnPages: 10 });
      const outcome = await learnStep({ v: 1, site: 'example.com', force: false }, { ...ctx, logger: { ...quiet, warn: (message) => warnings.push(message) } });
      expect(outcome.learned).toBe(true);
      return { docs, rules: await rulesOf(store), warnings };
    };
    const mixed = await site([article, login, article, listing, article, article, article]);
    expect(mixed.rules.learnedFrom).toHaveLength(5);
    expect(mixed.rules.learnedFrom).not.toContain(mixed.docs[1].pageId);
    expect(mixed.rules.learnedFrom).not.toContain(mixed.docs[3].pageId);
    expect(mixed.rules.params).toMatchObject({ pages: 5, notArticlesLeftOut: 2 });
    expect(mixed.warnings).toEqual([]);

    const none = await site([login, listing, login, listing, login]);
    expect(none.rules.learnedFrom).toHaveLength(5);
    expect(none.rules.params).toMatchObject({ pages: 5, notArticlesKept: 5 });
    expect(none.warnings).toEqual(['the not-an-article test flags 5 of the 5 training pages; learning from them all']);

    // one article left: nothing on one page repeats, so the flagged pages stay as the template's evidence
    const one = await site([login, article, listing, login, listing]);
    expect(one.rules.learnedFrom).toHaveLength(5);
    expect(one.rules.params).toMatchObject({ pages: 5, notArticlesKept: 4 });
    expect(one.warnings).toEqual(['the not-an-article test flags 4 of the 5 training pages; learning from them all']);
    const two = await site([login, article, listing, article, login]);
    expect([...two.rules.learnedFrom].sort()).toEqual([two.docs[1].pageId, two.docs[3].pageId].sort());
    expect(two.rules.params).toMatchObject({ pages: 2, notArticlesLeftOut: 3 });
  });

  it('reads a page that holds the same article as a newer page read (a print variant, an AMP variant naming it canonical) as that page: no training page, not counted toward a first learn', async () => {
    // pages 0..n-1 of the site, each with its snapshot; `copies`: then a print variant of page 2 (its URL
    // with ?output=print) and an AMP variant of page 3 (another title, naming page 3 canonical), the newest
    const site = async (n: number, copies: boolean) => {
      const store = new MemoryStore();
      const docs: FeatureDocument[] = [];
      for (let i = 0; i < n; i++) {
        const doc = await addPage(store, i);
        await store.put(doc.snapshotKey, newsSnapshot(newsPage(i)));
        docs.push(doc);
        await tick();
      }
      const copy = async (i: number, url: string, page: Partial<FeatureDocument['page']>) => {
        const pageId = pageIdOf(url);
        const doc = { ...docs[i], pageId, url, finalUrl: url, snapshotKey: keys.snapshot('example.com', pageId), renderedAt: new Date().toISOString(), page: { ...docs[i].page, ...page } };
        await putJson(store, keys.features('example.com', pageId), doc);
        await store.put(doc.snapshotKey, newsSnapshot({ ...newsPage(i), doc }, page.canonical ? { canonical: page.canonical } : {}));
        await tick();
        return doc;
      };
      const copied = copies
        ? [await copy(2, `${docs[2].url}?output=print`, {}), await copy(3, `${docs[3].url}/amp/`, { title: `${docs[3].page.title} (AMP)`, canonical: docs[3].url })]
        : [];
      return { store, docs, copied };
    };
    const alone = await site(5, false);
    const beside = await site(5, true);
    expect((await learn(context(alone.store, { learnPages: 10 }).ctx)).learned).toBe(true);
    expect((await learn(context(beside.store, { learnPages: 10 }).ctx)).learned).toBe(true);
    const [a, b] = [await rulesOf(alone.store), await rulesOf(beside.store)];
    // the newest of each pair learned from
    const [print, amp] = beside.copied;
    expect([...b.learnedFrom].sort()).toEqual([amp.pageId, print.pageId, ...[0, 1, 4].map((i) => beside.docs[i].pageId)].sort());
    expect(b.params.duplicatesLeftOut).toBe(2);
    expect(a.params.duplicatesLeftOut).toBeUndefined();
    // what was learned is what the 5 articles teach (the old learner read pages 2 and 3 twice: the
    // not-an-article test flagged all four, their text all the site's repeated text, and it learned
    // from 3 pages other field rules and repeated texts)
    expect(extractsDifferently(a, b)).toBe(false);
    expect([...(b.content.boilerplate ?? [])].sort()).toEqual([...(a.content.boilerplate ?? [])].sort());
    expect(b.fields).toEqual(a.fields);
    // a copy keeps its place among the pages read (learnPages): reading on would read a site of copies without bound
    expect((await learn(context(beside.store, { learnPages: 5 }).ctx, true)).learned).toBe(true);
    expect((await rulesOf(beside.store)).learnedFrom).toEqual([amp.pageId, print.pageId, beside.docs[4].pageId]);

    // a copy is no page a first learn waits for
    const few = await site(4, false);
    const url = `${few.docs[2].url}?output=print`;
    await putJson(few.store, keys.features('example.com', pageIdOf(url)), { ...few.docs[2], pageId: pageIdOf(url), url, finalUrl: url });
    expect(await learn(context(few.store).ctx)).toMatchObject({ learned: false, reason: '4 of the 5 pages needed to learn (1 the same article as another)' });
  });

  it('does not read two articles of a site that share its long blocks (a disclaimer, a sidebar) as one', async () => {
    // a disclaimer of 700 words in the footer and a paragraph about the site in the sidebar, on every page
    const prose = (i: number) => { const p = newsPage(i); return p.doc.blocks.filter((_, k) => p.roles[k] === 'body').map((b) => `<p>${b.text}</p>`).join(''); };
    const shared = { footer: prose(8) + prose(9), sidebar: `<div class="about">${prose(10).split('</p>')[0]}</p></div>` };
    const site = async (pages: NewsPage[], canonical?: string) => {
      const store = new MemoryStore();
      for (const page of pages) {
        const doc = { ...page.doc, site: 'example.com', page: { ...page.doc.page, ...(canonical ? { canonical } : {}) } };
        await putJson(store, keys.features('example.com', doc.pageId), doc);
        await store.put(doc.snapshotKey, newsSnapshot(page, { ...shared, canonical }));
        await tick();
      }
      expect((await learn(context(store, { learnPages: 10 }).ctx, true)).learned).toBe(true);
      return rulesOf(store);
    };
    // briefs of a paragraph: the single-page extractor takes the disclaimer for their article, the same
    // on both (the text alone would make them one article); their titles tell them apart
    const briefs = [0, 1].map((i) => newsPage(i, { paragraphs: 1, comments: 0 }));
    const [t0, t1] = briefs.map((p) => extractCombined(parseHtml(newsSnapshot(p, shared))).text);
    expect(pageF1(scorePage(t0, t1))).toBeGreaterThanOrEqual(0.9);
    const short = await site([...briefs, ...[2, 3, 4].map((i) => newsPage(i))]);
    expect(short.learnedFrom).toHaveLength(5);
    expect(short.params.duplicatesLeftOut).toBeUndefined();
    // articles whose every page has the site's name for its title and its home page for its canonical
    // URL: their texts tell them apart
    const named = [0, 1, 2, 3, 4].map((i) => { const p = newsPage(i); return { ...p, doc: { ...p.doc, page: { ...p.doc.page, title: 'Example News' } } }; });
    const same = await site(named, 'https://news.example/');
    expect(same.learnedFrom).toHaveLength(5);
    expect(same.params.duplicatesLeftOut).toBeUndefined();
  });

  it('copies a schema-invalid rules document to quarantine/, names the field, and learns the site afresh', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5; i++) await addPage(store, i);
    const bad = JSON.stringify({ v: 1, site: 'example.com', rulesVersion: 'three' });
    await store.put(keys.rules('example.com'), bad);
    const warnings: { message: string; extra?: Record<string, unknown> }[] = [];
    const { ctx } = context(store, { learnPages: 10 });
    const outcome = await learnStep({ v: 1, site: 'example.com', force: false }, { ...ctx, logger: { ...quiet, warn: (message, extra) => warnings.push({ message, extra }) } });
    expect(outcome.learned).toBe(true);
    expect((await rulesOf(store)).rulesVersion).toBe(1);
    expect((await store.get(`quarantine/${keys.rules('example.com')}`))?.body.toString()).toBe(bad);
    const detail = String(warnings.find((w) => w.message.startsWith('the stored rules are a bad file'))?.extra?.detail);
    expect(detail).toMatch(/rules\/example\.com\.json is unreadable \(not a valid document: .*rulesVersion/);
    expect(detail).not.toContain('\n');
  });

  it('extracts the site again only when the new rules can extract differently', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) await addPage(store, i);
    const { ctx, applied } = context(store, { learnPages: 50 });
    expect(await learn(ctx)).toMatchObject({ learned: true, reapplied: 6, unchanged: 0 });
    const v1 = await rulesOf(store);
    expect(v1.sameExtractionSince).toBe(1);
    // the same pages again: the same selectors, a new version, nothing to extract again
    const same = await learn(ctx, true);
    expect(same).toMatchObject({ learned: true, reapplied: 0, unchanged: 6 });
    const v2 = await rulesOf(store);
    expect(v2.rulesVersion).toBe(2);
    expect(v2.content).toEqual(v1.content);
    expect(v2.sameExtractionSince).toBe(1);
    expect(applied).toHaveLength(6);
  });

  it('a relearn extracts again only the pages whose article the new rules may change', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) await addPage(store, i);
    const { ctx, applied } = context(store, { learnPages: 50 });
    await learn(ctx);
    expect(applied).toHaveLength(6);
    // page-00: the rules selected nothing (drift marker of v1, the fallback's article); page-01: made before the
    // site had rules; page-02: no article yet (its apply under way); page-03: rules of version 1
    await putJson(store, keys.drift('example.com', 'page-00'), { version: 1, site: 'example.com', pageId: 'page-00', rulesVersion: 1, at: new Date().toISOString() });
    await putArticle(store, 'page-00', { method: 'fallback', extraction: EXTRACTION_VERSION });
    await putArticle(store, 'page-01', { method: 'fallback', extraction: EXTRACTION_VERSION });
    await store.delete(keys.article('example.com', 'page-02'));
    applied.length = 0;
    const same = await learn(ctx, true);
    // the same extraction: the drifted page's fallback article stays, the other two are extracted again
    expect(same).toMatchObject({ learned: true, reapplied: 2, unchanged: 4 });
    expect(applied.map((m) => m.pageId).sort()).toEqual(['page-01', 'page-02']);

    // rules that extract differently (a selector more): every article made by older rules is extracted again
    const v2 = await rulesOf(store);
    const changed = { ...v2, rulesVersion: 3, sameExtractionSince: 3, content: { ...v2.content, selectors: [...v2.content.selectors, 'aside.extra'] } };
    await putJson(store, keys.rules('example.com'), changed);
    applied.length = 0;
    const after = await learn(ctx, true);
    expect(after).toMatchObject({ learned: true, unchanged: 0 });
    expect((await rulesOf(store)).sameExtractionSince).toBe(4);
    expect(applied).toHaveLength(6);
  });

  it('a relearn extracts again a page stored and extracted with the older rules while it learned', async () => {
    const { store, ctx, applied } = await learnedThenChanged();
    // The relearn has listed the pages; before its rules are written, page-05 is rendered and applied with
    // v1, which select nothing on it: the fallback's article, and a drift marker against v1.
    beforeRulesWrite(store, async () => {
      await addPage(store, 5);
      await putJson(store, keys.drift('example.com', 'page-05'), { version: 1, site: 'example.com', pageId: 'page-05', rulesVersion: 1, at: new Date().toISOString() });
      await putArticle(store, 'page-05', { method: 'fallback', extraction: EXTRACTION_VERSION });
    });
    expect(await learn(ctx, true)).toMatchObject({ learned: true });
    expect((await rulesOf(store)).rulesVersion).toBe(2);
    expect(applied.map((m) => m.pageId)).toContain('page-05');
  });

  it('a relearn extracts again a fetched page whose apply read the older rules and has not written its article yet', async () => {
    const { store, ctx, applied } = await learnedThenChanged();
    const server = await serveRoutes({ '/story-99': { body: '<html><body><article><p>The story.</p></article></body></html>' } });
    try {
      const port = new URL(server.origin).port;
      const url = `http://example.com:${port}/story-99`;
      const policy = new EgressPolicy({ allowHosts: [`example.com:${port}`], resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
      // The page's apply is slow: it has read v1 and not written its article when the relearn lists the pages.
      const slowApply: ApplyMessage[] = [];
      const fetchCtx: StepContext = { ...ctx, queues: { ...ctx.queues, apply: { send: async (m: ApplyMessage) => void slowApply.push(m) } } as unknown as Queues };
      // The relearn has listed the pages; before its rules are written, the fetch step stores the page and sends it to apply.
      beforeRulesWrite(store, async () => {
        expect(await fetchPathPage(url, fetchCtx, { policy, politeness: new Politeness(ctx.config) })).toMatchObject({ ok: true });
      });
      expect(await learn(ctx, true)).toMatchObject({ learned: true });
      expect(slowApply).toEqual([expect.objectContaining({ pageId: pageIdOf(url), path: 'fetch', url })]);
      expect(applied).toContainEqual({ v: 1, site: 'example.com', pageId: pageIdOf(url), reason: 'relearned', path: 'fetch', url });
    } finally {
      await server.close();
    }
  });

  it('a relearn extracts again a page fetched before fetch records were written, with the URL its article holds', async () => {
    const { store, ctx, applied } = await learnedThenChanged();
    // served.html and its article (made by v1), no fetch record
    await store.put(keys.served('example.com', 'fetched-1'), '<html><body><p>The story.</p></body></html>');
    await putArticle(store, 'fetched-1', { method: 'rules', rulesVersion: 1, extraction: EXTRACTION_VERSION });
    expect(await learn(ctx, true)).toMatchObject({ learned: true });
    expect(applied).toContainEqual({ v: 1, site: 'example.com', pageId: 'fetched-1', reason: 'relearned', path: 'fetch', url: 'https://example.com/fetched-1' });
  });

  it('a relearn extracts again the newest relearnReextractMax pages whose article older rules made; spider relearn, every one', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) {
      await addPage(store, i);
      await tick(); // distinct times: the newest pages are known
    }
    const { ctx, applied } = context(store, { learnPages: 50, relearnReextractMax: 2 });
    await learn(ctx);
    // rules that extract differently (a selector more) stand as v2
    const differently = async () => {
      const current = await rulesOf(store);
      const next = current.rulesVersion + 1;
      await putJson(store, keys.rules('example.com'), { ...current, rulesVersion: next, sameExtractionSince: next, content: { ...current.content, selectors: [...current.content.selectors, 'aside.extra'] } });
    };
    await differently();
    applied.length = 0;
    for (let i = 6; i < 9; i++) {
      await tick();
      await addPage(store, i); // 3 new pages: a relearn
    }
    const relearned = await learn(ctx);
    // the new pages (no article yet) and the newest 2 of the 6 whose article rules v1 made
    expect(relearned).toMatchObject({ learned: true, reapplied: 5, keptOlder: 4 });
    expect(applied.map((m) => m.pageId).sort()).toEqual(['page-04', 'page-05', 'page-06', 'page-07', 'page-08']);

    await differently();
    applied.length = 0;
    expect(await learn(ctx, true)).toMatchObject({ learned: true, reapplied: 9, keptOlder: 0 });
  });

  it('a relearn extracts again the articles an older extraction made, though the rules extract the same', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) await addPage(store, i);
    const { ctx, applied } = context(store, { learnPages: 50 });
    await learn(ctx);
    // page-00: made by these rules with an older extraction code; page-01: the fallback's, before the field
    await putArticle(store, 'page-00', { method: 'rules', rulesVersion: 1, extraction: EXTRACTION_VERSION - 1 });
    await putJson(store, keys.drift('example.com', 'page-01'), { version: 1, site: 'example.com', pageId: 'page-01', rulesVersion: 1, at: new Date().toISOString() });
    await putArticle(store, 'page-01', { method: 'fallback' });
    applied.length = 0;
    expect(await learn(ctx, true)).toMatchObject({ learned: true, reapplied: 2, unchanged: 4 });
    expect(applied.map((m) => m.pageId).sort()).toEqual(['page-00', 'page-01']);
  });

  it('a relearn\'s bound takes the fallback\'s articles first, and covers them too', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) {
      await addPage(store, i);
      await tick();
    }
    const { ctx } = context(store, { learnPages: 50, relearnReextractMax: 2 });
    await learn(ctx);
    // pages 00-02: the fallback's article (rules v1 selected nothing there); pages 03-05: rules v1's
    for (const i of [0, 1, 2]) {
      const pageId = `page-0${i}`;
      await putJson(store, keys.drift('example.com', pageId), { version: 1, site: 'example.com', pageId, rulesVersion: 1, at: new Date().toISOString() });
      await putArticle(store, pageId, { method: 'fallback', extraction: EXTRACTION_VERSION });
    }
    // rules that extract differently stand as v2; a forced relearn is unbounded, so the bound is seen on fanOut
    const current = await rulesOf(store);
    const next = { ...current, rulesVersion: 2, sameExtractionSince: 2, content: { ...current.content, selectors: [...current.content.selectors, 'aside.extra'] } };
    const pages = ['page-05', 'page-04', 'page-03', 'page-02', 'page-01', 'page-00'].map((pageId) => ({ pageId }));
    const fanOut = await relearnFanOut('example.com', pages, next, ctx, 2);
    expect(fanOut).toEqual({ reextract: ['page-02', 'page-01'], unchanged: 0, keptOlder: 4 });
  });

  it("a relearn leaves the fallback's article flagged not an article (no drift marker) that rules extracting the same read; a render request is no marker", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 6; i++) {
      await addPage(store, i);
      await tick();
    }
    const { ctx } = context(store, { learnPages: 50 });
    await learn(ctx);
    const current = await rulesOf(store);
    // v3 extracts as v2 did (sameExtractionSince 2), not as v1
    const next = { ...current, rulesVersion: 3, sameExtractionSince: 2, content: { ...current.content, selectors: [...current.content.selectors, 'aside.extra'] } };
    const request = (pageId: string, rulesVersion: number): DriftMarker => ({ version: 1, site: 'example.com', pageId, rulesVersion, at: new Date().toISOString() });
    // page-00, page-01: flagged, the rules (v2, v3) selected nothing: no marker, nothing a relearn can change
    await putArticle(store, 'page-00', { method: 'fallback', rulesVersionRead: 2, notArticle: true, extraction: EXTRACTION_VERSION });
    await putArticle(store, 'page-01', { method: 'fallback', rulesVersionRead: 3, notArticle: true, extraction: EXTRACTION_VERSION });
    // page-02: flagged under v1, which extracts otherwise; page-03: flagged by an older extraction code
    await putArticle(store, 'page-02', { method: 'fallback', rulesVersionRead: 1, notArticle: true, extraction: EXTRACTION_VERSION });
    await putArticle(store, 'page-03', { method: 'fallback', rulesVersionRead: 3, notArticle: true, extraction: EXTRACTION_VERSION - 1 });
    // page-04: the fallback's article under v2, unflagged and with no marker, but a render request of v2
    // (a fetched page sent to render): no marker, so extracted again
    await putArticle(store, 'page-04', { method: 'fallback', rulesVersionRead: 2, extraction: EXTRACTION_VERSION });
    await putJson(store, keys.driftRender('example.com', 2, 'page-04'), request('page-04', 2));
    // page-05: rules v3's article
    await putArticle(store, 'page-05', { method: 'rules', rulesVersion: 3, rulesVersionRead: 3, extraction: EXTRACTION_VERSION });
    const pages = ['page-05', 'page-04', 'page-03', 'page-02', 'page-01', 'page-00'].map((pageId) => ({ pageId }));
    const fanOut = await relearnFanOut('example.com', pages, next, ctx, 20);
    expect(fanOut).toEqual({ reextract: ['page-04', 'page-03', 'page-02'], unchanged: 3, keptOlder: 0 });
  });

  it("does not count the render requests of fetched pages flagged not an article as drift: they write no marker", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5; i++) await addPage(store, i);
    const { ctx } = context(store);
    await learn(ctx);
    const request = (pageId: string): DriftMarker => ({ version: 1, site: 'example.com', pageId, rulesVersion: 1, at: new Date().toISOString() });
    // two fetched pages (driftRelearnAfter 2) flagged off their HTML as served, sent to render; one rendered since
    for (const pageId of ['page-00', 'page-05']) await putJson(store, keys.driftRender('example.com', 1, pageId), request(pageId));
    await tick();
    await addPage(store, 5);
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('0 they selected nothing on') });
    expect((await rulesOf(store)).rulesVersion).toBe(1);
  });

  it('learns a site of two layouts as two templates, each its own, stored valid', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 3; i++) await addPage(store, i);
    for (let i = 10; i < 13; i++) {
      const doc = { ...blogPage(i), site: 'example.com' };
      await putJson(store, keys.features('example.com', doc.pageId), doc);
    }
    const { ctx } = context(store, { learnPages: 10 });
    expect((await learn(ctx, true)).learned).toBe(true);
    const first = await rulesOf(store);
    expect(first.templates?.map((t) => t.learnedFrom.length)).toEqual([3, 3]);
    const [blog, news] = first.templates!;
    expect(news.learnedFrom.sort()).toEqual(['page-00', 'page-01', 'page-02']);
    expect(news.content.selectors[0]).toBe('div.article-body > p');
    expect(blog.content.selectors[0]).toBe('div.entry-text > p');
    // with four news pages, the blog's names are on under half the site's pages: the template keeps them
    await tick();
    await addPage(store, 3);
    expect((await learn(ctx, true)).learned).toBe(true);
    const second = await rulesOf(store);
    expect(second.templates?.map((t) => t.learnedFrom.length)).toEqual([4, 3]);
    expect(second.templates![1].content.selectors[0]).toBe(blog.content.selectors[0]);
    expect(second.templates![1].layout.every((s) => s.startsWith('body > div#blog.layout') || s.startsWith('body > div.colophon'))).toBe(true);
  });

  it('field rules scores are provenance: only what apply reads makes rules extract differently', () => {
    const base = { content: { selectors: ['div.body > p'], clean: [] }, fields: undefined } as Pick<RulesDocument, 'content' | 'fields'>;
    const rule = { kind: 'class' as const, value: 'headline', selector: '.headline', score: 0.9, support: 9 };
    const withFields = (score: number, locale?: string) => ({
      ...base,
      fields: { title: { rules: [{ ...rule, score }], posts: 10, ...(locale ? { locale } : {}) }, training: { posts: 10, feedEntries: 0, fromFeed: 0, fromMetadata: 10 }, minScore: 0.5 },
    });
    expect(extractsDifferently(withFields(0.9), withFields(0.7))).toBe(false);
    expect(extractsDifferently(withFields(0.9), withFields(0.9, 'de'))).toBe(true);
    // an announced byline rule reads no byline where its element introduces none
    const byline = (announced: boolean) => ({ ...base, fields: { byline: { rules: [{ ...rule, ...(announced ? { announced: true as const } : {}) }], posts: 10 }, training: { posts: 10, feedEntries: 0, fromFeed: 0, fromMetadata: 10 }, minScore: 0.5 } });
    expect(extractsDifferently(byline(false), byline(true))).toBe(true);
    expect(extractsDifferently(base, { ...base, content: { ...base.content, clean: ['p.ad'] } })).toBe(true);
    expect(extractsDifferently(base, { ...base, content: { ...base.content, dek: ['p.standfirst'] } })).toBe(true);
    // selectors are sets: apply takes their matches in document order
    const two = { ...base, content: { ...base.content, selectors: ['div.body > p', 'div.body > ul > li'] } };
    expect(extractsDifferently(two, { ...two, content: { ...two.content, selectors: ['div.body > ul > li', 'div.body > p'] } })).toBe(false);
    expect(extractsDifferently(two, { ...two, content: { ...two.content, selectors: ['div.body > ul > li'] } })).toBe(true);
    // a template's layout chooses the pages its rules serve: a change of either extracts differently
    const template = { layout: ['div.post > h2'], learnedFrom: ['a'], content: { selectors: ['div.post > p'], clean: [] }, selfCheck: { pages: 2, recall: 1, precision: 1, adjusted: [] } };
    const templated = { ...two, templates: [template] };
    expect(extractsDifferently(two, templated)).toBe(true);
    expect(extractsDifferently(templated, { ...two, templates: [{ ...template, learnedFrom: ['b'], selfCheck: { ...template.selfCheck, recall: 0.9 } }] })).toBe(false);
    expect(extractsDifferently(templated, { ...two, templates: [{ ...template, layout: ['div.post > h3'] }] })).toBe(true);
    expect(extractsDifferently(templated, { ...two, templates: [{ ...template, content: { selectors: ['div.post > div > p'], clean: [] } }] })).toBe(true);
    // in any order: a relearn may rank the same templates otherwise
    const other = { ...template, layout: ['div.story > h1'], content: { selectors: ['div.story > p'], clean: [] } };
    expect(extractsDifferently({ ...two, templates: [template, other] }, { ...two, templates: [other, template] })).toBe(false);
  });

  it('relearns a site whose rules selected nothing on enough pages (drift) once a page they failed on is rendered since, and clears the old markers', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 5; i++) await addPage(store, i);
    const { ctx } = context(store);
    await learn(ctx);
    const marker = (pageId: string, rulesVersion: number): DriftMarker => ({ version: 1, site: 'example.com', pageId, rulesVersion, at: new Date().toISOString() });

    await putJson(store, keys.drift('example.com', 'page-00'), marker('page-00', 1));
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('1 they selected nothing on') });

    await putJson(store, keys.drift('example.com', 'page-01'), marker('page-01', 1));
    // enough markers, but no page to learn from that the rules were not learned from: the same rules again
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('0 new pages') });
    await tick();
    await addPage(store, 5);
    // a page rendered since that the rules worked on says nothing new about the pages they failed on
    expect(await learn(ctx)).toMatchObject({ learned: false, reason: expect.stringContaining('with a new rendered page among them: 0') });
    await putJson(store, keys.drift('example.com', 'page-05'), marker('page-05', 1));
    const relearned = await learn(ctx);
    expect(relearned.learned).toBe(true);
    expect((await rulesOf(store)).rulesVersion).toBe(2);
    // markers of v1 say nothing about v2: removed
    expect(await store.list(keys.driftPrefix('example.com'))).toEqual([]);
    await tick();
    expect(await learn(ctx)).toMatchObject({ learned: false });
  });
});
