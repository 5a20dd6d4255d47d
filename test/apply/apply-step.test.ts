import { beforeEach, describe, expect, it } from 'vitest';
import { applyStep, clearRulesCache } from '../../lib/apply/apply-step';
import { ConfigSchema } from '../../lib/config/config';
import type { Logger, StepContext } from '../../lib/step/context';
import type { QueueSender, Queues } from '../../lib/queue/queue';
import { keys } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson, type Store, type StoredObject } from '../../lib/store/store';
import { ArticleDocumentSchema, EXTRACTION_VERSION } from '../../lib/types/article-document';
import type { ApplyMessage } from '../../lib/types/messages';
import { RULES_DOCUMENT_VERSION, type RulesDocument } from '../../lib/types/rules-document';
import { isNonRetryable } from '../../lib/util/errors';
import { normalizeText } from '../../lib/text/match';

const site = 'example.com';
const pageId = 'abc123';
const url = 'https://example.com/news/story';

const long = (i: number) => `Sentence ${i} of the body, with enough words, commas and substance to count as a paragraph of prose.`;
const snapshot = (withUrl = true) => `<!DOCTYPE html><html lang="en"><head>${withUrl ? `<meta name="spider:url" content="${url}">` : ''}
<title>The story | Example</title>
<meta property="article:published_time" content="2024-05-06T07:08:09Z"><meta name="author" content="Jane Doe">
<meta property="og:site_name" content="Example News"><meta property="og:image" content="../img/lead.jpg">
</head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="article"><h1 class="title">The story</h1>
<div class="text">${[1, 2, 3, 4].map((i) => `<p>${long(i)}</p>`).join('')}<div class="related"><a href="/o">Other story</a></div></div>
<p class="summary">A summary line.</p></div>
<footer>Footer text</footer></body></html>`;

function rulesDoc(rulesVersion: number, selectors: string[], clean: string[] = []): RulesDocument {
  return {
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion,
    learnedAt: '2024-05-06T00:00:00.000Z',
    learnedFrom: [pageId],
    content: { selectors, clean },
    clusters: [],
    selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] },
    params: {},
  };
}

interface Recorded {
  level: string;
  message: string;
  extra?: Record<string, unknown>;
}

function context(store: Store) {
  const logs: Recorded[] = [];
  const sent: unknown[] = [];
  const logger: Logger = {
    debug: (message, extra) => logs.push({ level: 'debug', message, extra }),
    info: (message, extra) => logs.push({ level: 'info', message, extra }),
    warn: (message, extra) => logs.push({ level: 'warn', message, extra }),
    error: (message, extra) => logs.push({ level: 'error', message, extra }),
  };
  const sender = <T>(): QueueSender<T> => ({
    send: async (body) => {
      sent.push(body);
    },
  });
  const queues: Queues = { render: sender(), learn: sender(), apply: sender() };
  const ctx: StepContext = { store, queues, config: ConfigSchema.parse({}), logger };
  return { ctx, logs, sent };
}

const message: ApplyMessage = { v: 1, site, pageId, reason: 'rendered' };

/** A store that counts reads per key. */
class CountingStore extends MemoryStore {
  readonly reads = new Map<string, number>();
  override async get(key: string): Promise<StoredObject | undefined> {
    this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
    return super.get(key);
  }
}

beforeEach(() => clearRulesCache());

describe('applyStep', () => {
  it('extracts with the site rules and writes a valid article document', async () => {
    const store = new CountingStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    await putJson(store, keys.rules(site), rulesDoc(3, ['div.article > h1', 'div.text'], ['.related']));
    const { ctx, sent, logs } = context(store);

    const article = await applyStep(message, ctx);
    expect(article).toMatchObject({
      version: 1,
      pageId,
      site,
      url,
      title: 'The story',
      byline: 'Jane Doe',
      published: '2024-05-06T07:08:09.000Z',
      lang: 'en',
      siteName: 'Example News',
      image: 'https://example.com/img/lead.jpg',
      method: 'rules',
      rulesVersion: 3,
    });
    expect(article.text.split('\n')).toEqual(['The story', long(1), long(2), long(3), long(4)]);
    expect(article.html).toBe(`<h1>The story</h1>${[1, 2, 3, 4].map((i) => `<p>${long(i)}</p>`).join('')}`);
    expect(article.wordCount).toBe(2 + 4 * 18);
    expect(article.excerpt).toBe(long(1));
    expect(article.notArticle).toBeUndefined();
    expect(article.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(article.extractedAt)).not.toBeNaN();

    const stored = JSON.parse((await store.get(keys.article(site, pageId)))!.body.toString('utf8'));
    expect(ArticleDocumentSchema.parse(stored)).toEqual(article);
    expect(sent).toEqual([]);
    // The URL came from the snapshot: no feature document read.
    expect(store.reads.get(keys.features(site, pageId))).toBeUndefined();
    expect(logs.some((l) => l.level === 'info' && l.message === 'applied')).toBe(true);
  });

  it('is idempotent: a second run overwrites the same key', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    const { ctx } = context(store);
    const a = await applyStep(message, ctx);
    const b = await applyStep(message, ctx);
    expect({ ...b, extractedAt: a.extractedAt, elapsedMs: a.elapsedMs }).toEqual(a);
    expect((await store.list(keys.articlePrefix(site))).length).toBe(1);
  });

  it('warns when an article is replaced by one that lost most of its words (a truncated snapshot)', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    await putJson(store, keys.rules(site), rulesDoc(3, ['div.article > h1', 'div.text'], ['.related']));
    const first = context(store);
    const good = await applyStep(message, first.ctx);
    expect(first.logs.filter((l) => l.level === 'warn')).toEqual([]);

    // the same snapshot cut off after its first paragraph
    const full = snapshot();
    await store.put(keys.snapshot(site, pageId), full.slice(0, full.indexOf(long(2))));
    const second = context(store);
    const worse = await applyStep(message, second.ctx);
    expect(worse.wordCount).toBeLessThan(good.wordCount / 2);
    const warned = second.logs.filter((l) => l.level === 'warn' && l.message === 'article replaced by a much shorter one');
    expect(warned).toHaveLength(1);
    expect(warned[0].extra).toMatchObject({ site, pageId, wordsBefore: good.wordCount, wordsAfter: worse.wordCount });

    // an unchanged extraction says nothing
    const third = context(store);
    await applyStep(message, third.ctx);
    expect(third.logs.filter((l) => l.level === 'warn' && l.message.startsWith('article replaced'))).toEqual([]);
  });

  it('uses the cached rules while the stored etag is unchanged and picks up a new version', async () => {
    const real = new MemoryStore();
    await real.put(keys.snapshot(site, pageId), snapshot());
    // Both versions select the story (the apply guard serves the fallback when rules take too little).
    await putJson(real, keys.rules(site), rulesDoc(1, ['div.article > h1', 'div.text'], ['.related']));
    // A store whose rules object keeps its etag but changes its body: only a cache can still see v1.
    let tamper = false;
    const store: Store = {
      get: async (key) => {
        const obj = await real.get(key);
        if (tamper && obj && key === keys.rules(site)) {
          return { ...obj, body: Buffer.from(JSON.stringify(rulesDoc(99, ['p.summary']))) };
        }
        return obj;
      },
      put: (k, b, o) => real.put(k, b, o),
      delete: (k) => real.delete(k),
      list: (p, o) => real.list(p, o),
    };
    const { ctx } = context(store);

    const first = await applyStep(message, ctx);
    expect(first).toMatchObject({ method: 'rules', rulesVersion: 1 });
    expect(first.text.split('\n')[0]).toBe('The story');

    tamper = true;
    const second = await applyStep(message, ctx);
    expect(second).toMatchObject({ method: 'rules', rulesVersion: 1, text: first.text });

    tamper = false;
    await putJson(real, keys.rules(site), rulesDoc(2, ['div.text'], ['.related']));
    const third = await applyStep(message, ctx);
    expect(third).toMatchObject({ method: 'rules', rulesVersion: 2 });
    expect(third.text.split('\n')[0]).toBe(long(1));
  });

  it('falls back (and warns) when the rules select nothing on the page', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    await putJson(store, keys.rules(site), rulesDoc(1, ['div.gone', 'div[broken']));
    const { ctx, logs, sent } = context(store);
    const article = await applyStep(message, ctx);
    expect(article.method).toBe('fallback');
    expect(article.rulesVersion).toBeUndefined();
    // the extraction code's version: a relearn extracts again what an older one made
    expect(article.extraction).toBe(EXTRACTION_VERSION);
    expect(article.text).toContain(long(1));
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'rules hold selectors that do not compile; skipped',
      'rules selected nothing on this page; using the fallback extractor',
    ]);
    // drift: a marker for the learn step to count against rules v1, and a learn signal for the site
    const marker = await store.get(keys.drift(site, pageId));
    expect(JSON.parse(marker!.body.toString('utf8'))).toMatchObject({ version: 1, site, pageId, rulesVersion: 1 });
    expect(sent).toEqual([{ v: 1, site, force: false }]);
  });

  it("leaves the site's repeated texts out of the fallback's article where the rules give way", async () => {
    const notice = 'You can follow any responses to this entry through the RSS 2.0 feed, or leave a response from your own site.';
    const page = snapshot().replace('<div class="related">', `<p>${notice}</p><div class="related">`);
    const extract = async (content: RulesDocument['content']) => {
      clearRulesCache();
      const store = new MemoryStore();
      await store.put(keys.snapshot(site, pageId), page);
      await putJson(store, keys.rules(site), { ...rulesDoc(1, []), content });
      return applyStep(message, context(store).ctx);
    };
    // without the site's evidence the notice sits in the article's run and is taken
    const alone = await extract({ selectors: ['div.gone'], clean: [] });
    expect(alone.method).toBe('fallback');
    expect(alone.text).toContain(notice);
    const withSite = await extract({ selectors: ['div.gone'], clean: [], boilerplate: [normalizeText(notice), 'home'] });
    expect(withSite.method).toBe('fallback');
    expect(withSite.text).not.toContain(notice);
    for (const i of [1, 2, 3, 4]) expect(withSite.text).toContain(long(i));
    expect(withSite.title).toBe(alone.title);
  });

  it('renders a fetched page its rules fail on after its first apply, not after a relearn extracts it again', async () => {
    const store = new MemoryStore();
    await store.put(keys.served(site, pageId), snapshot(false));
    await putJson(store, keys.rules(site), rulesDoc(1, ['div.gone']));
    const { ctx, sent } = context(store);
    const fetched: ApplyMessage = { v: 1, site, pageId, reason: 'rendered', path: 'fetch', url };
    expect((await applyStep(fetched, ctx)).method).toBe('fallback');
    expect(sent).toContainEqual(expect.objectContaining({ url, path: 'render' }));
    // the relearn's rules fail on it too: its fallback article stands, and it is not rendered again
    await putJson(store, keys.rules(site), rulesDoc(2, ['div.still-gone']));
    sent.length = 0;
    expect((await applyStep({ ...fetched, reason: 'relearned' }, ctx)).method).toBe('fallback');
    expect(sent).toEqual([{ v: 1, site, force: false }]);
  });

  it('renders the first SPIDER_DRIFT_RELEARN_AFTER fetched pages its rules fail on, counting those sent to render, not the markers a relearn\'s extractions wrote', async () => {
    const store = new MemoryStore();
    await putJson(store, keys.rules(site), rulesDoc(2, ['div.gone']));
    // a relearn extracted four fetched pages again with these rules, which failed on them: markers, no renders
    for (const other of ['a1', 'a2', 'a3', 'a4']) {
      await putJson(store, keys.drift(site, other), { version: 1, site, pageId: other, rulesVersion: 2, at: new Date().toISOString() });
    }
    const { ctx, sent } = context(store);
    const rendered: string[] = [];
    for (const id of ['b1', 'b2', 'b3', 'b4']) {
      await store.put(keys.served(site, id), snapshot(false));
      sent.length = 0;
      expect((await applyStep({ v: 1, site, pageId: id, reason: 'rendered', path: 'fetch', url: `${url}?${id}` }, ctx)).method).toBe('fallback');
      if (sent.some((m) => (m as { path?: string }).path === 'render')) rendered.push(id);
    }
    expect(rendered).toEqual(['b1', 'b2', 'b3']);
    expect((await store.list(keys.driftRenderPrefix(site, 2))).length).toBe(3);

    // a short link's page, fetched through its redirect: rendered by the short link, whose render files it
    // again under this page with its redirect record and submittedUrl (the landing URL's render would drop them)
    await store.put(keys.served(site, 'b0'), snapshot(false));
    await store.delete(keys.driftRender(site, 2, 'b1'));
    sent.length = 0;
    const short = 'https://sho.rt/b0';
    expect(await applyStep({ v: 1, site, pageId: 'b0', reason: 'rendered', path: 'fetch', url: `${url}?b0`, submittedUrl: short }, ctx)).toMatchObject({ method: 'fallback', submittedUrl: short });
    expect(sent).toContainEqual(expect.objectContaining({ url: short, path: 'render' }));

    // b3's apply again (a retry after its request was written): it keeps its place, and is sent again
    sent.length = 0;
    await applyStep({ v: 1, site, pageId: 'b3', reason: 'rendered', path: 'fetch', url: `${url}?b3` }, ctx);
    expect(sent).toContainEqual(expect.objectContaining({ url: `${url}?b3`, path: 'render' }));
    // requests of older rules (an apply that read them as a relearn wrote new ones) take no place of these rules'
    await putJson(store, keys.rules(site), rulesDoc(3, ['div.gone']));
    sent.length = 0;
    await applyStep({ v: 1, site, pageId: 'b4', reason: 'rendered', path: 'fetch', url: `${url}?b4` }, ctx);
    expect(sent).toContainEqual(expect.objectContaining({ url: `${url}?b4`, path: 'render' }));
  });

  it("takes a fetched page's URL from its message, and no render evidence from the page's own spider:* metas", async () => {
    const store = new MemoryStore();
    const spoof = snapshot(false).replace('<head>', '<head><meta name="spider:url" content="http://elsewhere.example/story"><meta name="spider:readability-title" content="Not the title">');
    expect(spoof).toContain('spider:url');
    await store.put(keys.served(site, pageId), spoof);
    const article = await applyStep({ v: 1, site, pageId, reason: 'rendered', path: 'fetch', url }, context(store).ctx);
    expect(article.url).toBe(url);
    expect(article.title).not.toBe('Not the title');
  });

  it('records no drift when the rules select the article', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    await putJson(store, keys.rules(site), rulesDoc(1, ['div.text > p']));
    const { ctx, sent } = context(store);
    expect((await applyStep(message, ctx)).method).toBe('rules');
    expect(await store.list(keys.driftPrefix(site))).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("flags a fetched page of the site's layout that holds a login form as not an article: its text kept, no drift marker, not sent to render", async () => {
    const store = new MemoryStore();
    const login = snapshot(false).replace(/<div class="text">[\s\S]*<\/footer>/, '<div class="text"><p><label>Email</label> <input type="email"></p><p><label>Password</label> <input type="password"></p><p><a href="/forgot">Forgot your password?</a></p></div></div><footer>Footer text</footer>');
    await store.put(keys.served(site, pageId), login);
    await putJson(store, keys.rules(site), rulesDoc(1, ['div.text > p']));
    const { ctx, sent } = context(store);
    const article = await applyStep({ v: 1, site, pageId, reason: 'rendered', path: 'fetch', url }, ctx);
    expect(article).toMatchObject({ method: 'rules', path: 'fetch', notArticle: true, text: 'Email\nPassword\nForgot your password?' });
    expect(await store.list(keys.driftPrefix(site))).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('writes no drift marker and signals no learn for a page that is no article the rules select nothing on, logged at info; fetched, it still goes to render, within the budget', async () => {
    // the site's layout with a login form or a tag listing where its stories are: the rules (div.text > p) select nothing
    const inLayout = (main: string) => (rendered: boolean) => snapshot(rendered).replace(/<div class="article">[\s\S]*<\/footer>/, `${main}<footer>Footer text</footer>`);
    const login = inLayout('<div class="account"><h1>Sign in</h1><form><p><label>Email</label> <input type="email"></p><p><label>Password</label> <input type="password"></p><p><a href="/forgot">Forgot your password?</a></p></form></div>');
    const teaser = (i: number) => `<h2><a href="/news/s${i}">Council story number ${i} about housing</a></h2><p>A short teaser of story ${i}, a dozen words or so of its description.</p>`;
    const tag = inLayout(`<section class="listing"><h1>Stories tagged: housing</h1>${[1, 2, 3, 4, 5, 6].map(teaser).join('')}</section>`);
    for (const [name, html, path] of [['login page, rendered', login, 'render'], ['tag listing, fetched', tag, 'fetch']] as const) {
      clearRulesCache();
      const store = new MemoryStore();
      // a rendered page's snapshot carries render's spider:url; a fetched page's HTML as served does not
      await store.put(path === 'fetch' ? keys.served(site, pageId) : keys.snapshot(site, pageId), html(path === 'render'));
      await putJson(store, keys.rules(site), rulesDoc(1, ['div.text > p']));
      const { ctx, logs, sent } = context(store);
      const article = await applyStep(path === 'fetch' ? { v: 1, site, pageId, reason: 'rendered', path, url } : message, ctx);
      expect(article, name).toMatchObject({ method: 'fallback', notArticle: true, path, rulesVersionRead: 1 });
      expect(await store.get(keys.drift(site, pageId)), name).toBeUndefined();
      expect(logs.find((l) => l.message === 'rules gave way on a page that is not an article; no drift marker'), name).toMatchObject({ level: 'info', extra: { site, pageId, rulesVersion: 1, path } });
      if (path === 'render') {
        expect(await store.list(keys.driftPrefix(site)), name).toEqual([]);
        expect(sent, name).toEqual([]);
        continue;
      }
      // flagged off its HTML as served, which may not hold what a browser shows (a shell its scripts
      // fill in, a challenge page): rendered, its render's apply decides; the request counts in the budget
      expect(sent, name).toEqual([expect.objectContaining({ url, path: 'render' })]);
      expect((await store.list(keys.driftPrefix(site))).map((o) => o.key), name).toEqual([keys.driftRender(site, 1, pageId)]);
      // past the budget (SPIDER_DRIFT_RELEARN_AFTER, 3, pages sent under these rules): not rendered
      for (const other of ['r1', 'r2']) await putJson(store, keys.driftRender(site, 1, other), { version: 1, site, pageId: other, rulesVersion: 1, at: new Date().toISOString() });
      await store.put(keys.served(site, 'late'), html(false));
      sent.length = 0;
      expect(await applyStep({ v: 1, site, pageId: 'late', reason: 'rendered', path, url: `${url}?late` }, ctx), name).toMatchObject({ notArticle: true });
      expect(sent, name).toEqual([]);
      expect(await store.get(keys.drift(site, 'late')), name).toBeUndefined();
    }
  });

  it('writes the drift marker on the render of a fetched page flagged off its shell whose rules give the article there (the site moved its articles into the browser); only for a page the fetch path sent', async () => {
    const fetchPath = { works: true, pages: 5, minF1: 1, threshold: 0.9, checkedAt: '2024-05-06T00:00:00.000Z' };
    const store = new MemoryStore();
    await putJson(store, keys.rules(site), { ...rulesDoc(1, ['div.text > p']), fetchPath });
    // the HTML as served: the layout, its story filled in by scripts
    const shell = snapshot(false).replace(/<div class="text">[\s\S]*<\/footer>/, '<div class="text"></div></div><footer>Footer text</footer>');
    await store.put(keys.served(site, pageId), shell);
    const { ctx, sent } = context(store);
    const fetchedArticle = await applyStep({ v: 1, site, pageId, reason: 'rendered', path: 'fetch', url }, ctx);
    // the HTML as served names its image relative to the page: the message's URL is the page's
    expect(fetchedArticle).toMatchObject({ method: 'fallback', notArticle: true, path: 'fetch', image: 'https://example.com/img/lead.jpg' });
    expect(await store.get(keys.drift(site, pageId))).toBeUndefined();
    expect(sent).toEqual([expect.objectContaining({ url, path: 'render' })]);

    // its render: the rules give the story
    sent.length = 0;
    await store.put(keys.snapshot(site, pageId), snapshot());
    const rendered = await applyStep(message, ctx);
    expect(rendered).toMatchObject({ method: 'rules', path: 'render' });
    expect(rendered.notArticle).toBeUndefined();
    expect(JSON.parse((await store.get(keys.drift(site, pageId)))!.body.toString('utf8'))).toMatchObject({ site, pageId, rulesVersion: 1 });
    expect(sent).toEqual([{ v: 1, site, force: false }]);

    // a page of the render sample (no request of the fetch path's): no marker
    sent.length = 0;
    await store.put(keys.snapshot(site, 'sampled'), snapshot());
    expect(await applyStep({ ...message, pageId: 'sampled' }, ctx)).toMatchObject({ method: 'rules' });
    expect(await store.get(keys.drift(site, 'sampled'))).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it("keeps the field rules' title on a short post the rules take and the not-article test flags (a photo and its caption)", async () => {
    const store = new MemoryStore();
    const photo = snapshot().replace(/<div class="text">[\s\S]*<\/footer>/, '<div class="text"><p>Fans went out on Halloween dressed as their favourite players.</p></div></div><footer>Footer text</footer>');
    await store.put(keys.snapshot(site, pageId), photo);
    const fields = {
      title: { rules: [{ kind: 'class' as const, value: 'title', selector: 'h1.title', score: 1, support: 5 }], posts: 5 },
      training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 5 },
      minScore: 0.5,
    };
    await putJson(store, keys.rules(site), { ...rulesDoc(1, ['div.text > p']), fields });
    const article = await applyStep(message, context(store).ctx);
    expect(article).toMatchObject({ method: 'rules', notArticle: true, title: 'The story', sources: { title: 'rules' } });
  });

  it("leaves out of the text the lines that show the byline and the date the field rules read, not a sentence that names the author", async () => {
    const store = new MemoryStore();
    const dated = snapshot().replace(
      '<div class="text">',
      '<div class="text"><p><span class="by">By Ann Lee</span></p><p><span class="update">Posted: 3:25 pm<br>March 12, 2009</span></p><p>Ann Lee, who wrote <span class="by">it</span>, says more.</p>',
    );
    await store.put(keys.snapshot(site, pageId), dated);
    const fields = {
      byline: { rules: [{ kind: 'class' as const, value: 'by', selector: 'span.by', score: 1, support: 5 }], posts: 5 },
      published: { rules: [{ kind: 'class' as const, value: 'update', selector: 'span.update', score: 1, support: 5 }], posts: 5 },
      training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 5 },
      minScore: 0.5,
    };
    await putJson(store, keys.rules(site), { ...rulesDoc(1, ['div.text > p']), fields });
    const article = await applyStep(message, context(store).ctx);
    expect(article).toMatchObject({ method: 'rules', byline: 'Ann Lee', published: '2009-03-12', sources: { byline: 'rules', published: 'rules' } });
    expect(article.text.split('\n')).toEqual(['Ann Lee, who wrote it, says more.', long(1), long(2), long(3), long(4)]);
    expect(article.html).not.toMatch(/Posted|By Ann/);
  });

  it('keeps the body whose own text the byline rule reads: the element holds the story, not a line of the byline', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot().replace('<div class="text">', '<div class="text">By Ann Lee'));
    const fields = {
      byline: { rules: [{ kind: 'class' as const, value: 'text', selector: 'div.text', text: 'own' as const, score: 1, support: 5 }], posts: 5 },
      training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 5 },
      minScore: 0.5,
    };
    await putJson(store, keys.rules(site), { ...rulesDoc(1, ['div.text']), fields });
    const article = await applyStep(message, context(store).ctx);
    expect(article).toMatchObject({ method: 'rules', byline: 'Ann Lee', sources: { byline: 'rules' } });
    expect(article.text).toContain(long(4));
  });

  it("serves a page of one of the site's templates with that template's rules, and says which", async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    const template = (layout: string[], selectors: string[]) => ({
      layout,
      learnedFrom: [pageId],
      content: { selectors, clean: [] },
      selfCheck: { pages: 2, recall: 1, precision: 1, adjusted: [] },
    });
    // the rules of every page take the summary line too; the page's template (the second) does not
    const rules: RulesDocument = {
      ...rulesDoc(4, ['div.text > p', 'div.article > p.summary']),
      templates: [
        template(['body > div.gallery > figure', 'body > div.gallery > p.credit'], ['body > div.gallery > p']),
        template(['body > div.article > h1.title', 'body > div.article > div.text > p', 'body > div.article > div.text > div.related > a'], ['body > div.article > div.text > p']),
      ],
    };
    await putJson(store, keys.rules(site), rules);
    const { ctx } = context(store);
    const article = await applyStep(message, ctx);
    expect(article).toMatchObject({ method: 'rules', rulesVersion: 4, template: 1 });
    expect(article.text.split('\n')).toEqual([long(1), long(2), long(3), long(4)]);

    // a page of neither layout: the rules of every page, no template named
    clearRulesCache();
    await putJson(store, keys.rules(site), { ...rules, templates: [rules.templates![0], template(['body > div.post > h2'], ['body > div.post > p'])] });
    const other = await applyStep(message, ctx);
    expect(other.template).toBeUndefined();
    expect(other.text).toContain('A summary line.');
  });

  it('uses the fallback extractor for a site without rules', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    const { ctx } = context(store);
    const article = await applyStep(message, ctx);
    expect(article.method).toBe('fallback');
    expect(article.notArticle).toBeUndefined();
    expect(article.text).toContain(long(4));
    expect(article.text).not.toContain('Footer text');
  });

  it("titles a fallback article with its heading line where the page's title holds that line and its section's and site's names", async () => {
    const page = (title: string, heading: string) => `<!DOCTYPE html><html lang="en"><head><meta name="spider:url" content="${url}">
<title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/sport">Sport</a></nav>
<div class="story"><div class="headline"><b>${heading}</b></div>
${[1, 2, 3, 4, 5].map((i) => `<p>${long(i)}</p>`).join('')}</div>
<footer>Footer text</footer></body></html>`;
    const store = new MemoryStore();
    const { ctx } = context(store);
    await store.put(keys.snapshot(site, pageId), page('Cricket: Windies seal historic win | Cricket | Example Sport', 'Windies seal historic win'));
    const article = await applyStep(message, ctx);
    expect(article).toMatchObject({ method: 'fallback', title: 'Windies seal historic win', sources: { title: 'metadata' } });
    expect(article.text.split('\n')[0]).toBe('Windies seal historic win');
    // a line that shows the title whole, or only a name the title holds, leaves the title as it is
    await store.put(keys.snapshot(site, pageId), page('Windies seal historic win', 'Windies seal historic win'));
    expect((await applyStep(message, ctx)).title).toBe('Windies seal historic win');
    await store.put(keys.snapshot(site, pageId), page('Example Sport Daily: Windies seal historic win', 'Example Sport Daily'));
    expect((await applyStep(message, ctx)).title).toBe('Example Sport Daily: Windies seal historic win');
  });

  it("titles a fallback article with the heading it opens with where no line of the page shows the page's title (the site's name)", async () => {
    const page = (title: string, heading: string) => `<!DOCTYPE html><html lang="en"><head><meta name="spider:url" content="${url}">
<title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/hockey">Hockey</a></nav>
<div class="story"><h2>${heading}</h2>
${[1, 2, 3, 4, 5].map((i) => `<p>${long(i)}</p>`).join('')}</div>
<footer>Footer text</footer></body></html>`;
    const store = new MemoryStore();
    const { ctx } = context(store);
    await store.put(keys.snapshot(site, pageId), page('The Sports Network - National Hockey League', 'McDonald scores a pair as Blues rout Jackets'));
    expect(await applyStep(message, ctx)).toMatchObject({ title: 'McDonald scores a pair as Blues rout Jackets', sources: { title: 'metadata' } });
    // a heading of a name or two ("Latest News") is no headline: the page's title stays
    await store.put(keys.snapshot(site, pageId), page('The Sports Network - National Hockey League', 'Latest News'));
    expect((await applyStep(message, ctx)).title).toBe('The Sports Network - National Hockey League');
    // nor is a heading whose words the title mostly holds: a deck the title has after its headline
    await store.put(keys.snapshot(site, pageId), page('Storm closes schools across the county, thousands of pupils stay home', 'Thousands of pupils stay home'));
    expect((await applyStep(message, ctx)).title).toBe('Storm closes schools across the county, thousands of pupils stay home');
    // a page with no title at all: the heading just before the article, a toolbar between them
    await store.put(
      keys.snapshot(site, pageId),
      `<!DOCTYPE html><html lang="en"><head><meta name="spider:url" content="${url}"></head><body>
<nav><a href="/">Home</a> <a href="/hockey">Hockey</a></nav>
<h3>Reports: Taiwan opposition surges to big lead</h3><div class="tools"><a href="/print">Print article</a> <a href="/mail">Refer to a friend</a></div>
<div class="story">${[1, 2, 3, 4, 5].map((i) => `<p>${long(i)}</p>`).join('')}</div>
<footer>Footer text</footer></body></html>`,
    );
    expect((await applyStep(message, ctx)).title).toBe('Reports: Taiwan opposition surges to big lead');
  });

  it('uses the fallback extractor (and logs an error) when the stored rules are invalid', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot());
    await store.put(keys.rules(site), JSON.stringify({ version: 1, site }));
    const { ctx, logs } = context(store);
    const article = await applyStep(message, ctx);
    expect(article.method).toBe('fallback');
    expect(logs.some((l) => l.level === 'error')).toBe(true);
  });

  it('reads the URL from the feature document when the snapshot does not carry it', async () => {
    const store = new MemoryStore();
    await store.put(keys.snapshot(site, pageId), snapshot(false));
    await putJson(store, keys.features(site, pageId), { version: 1, pageId, url: 'https://example.com/from-features' });
    const { ctx } = context(store);
    expect((await applyStep(message, ctx)).url).toBe('https://example.com/from-features');
  });

  it('throws a NonRetryableError when the snapshot is missing', async () => {
    const { ctx } = context(new MemoryStore());
    const error = await applyStep(message, ctx).catch((e: unknown) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect(String(error)).toMatch(/no snapshot/);
  });

  it('throws a NonRetryableError for a site name that cannot be a key', async () => {
    const { ctx } = context(new MemoryStore());
    const error = await applyStep({ ...message, site: '../etc' }, ctx).catch((e: unknown) => e);
    expect(isNonRetryable(error)).toBe(true);
  });
});
