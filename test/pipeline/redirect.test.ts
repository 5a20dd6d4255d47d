/**
 * A submitted URL whose navigation ends on another site (a link shortener's 301, a moved domain's) is
 * a page of the site that served it: stored, learned and extracted as that site's page, with that
 * site's rules, and found by the URL submitted through its redirect record. Real parts: a generated
 * site and a "shortener" served on 127.0.0.1 under two *.localhost names, real Chromium, real HTTP on
 * the fetch path, the embedded store on disk read back by the `spider` command.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../lib/cli/progress';
import type { ConsumerEvent } from '../../lib/queue/worker';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, pageHtml, serveSite, type ServedSite } from '../../lib/demo/index';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { keys, pageIdOf } from '../../lib/store/keys';
import { readRedirect, readThroughRedirect } from '../../lib/store/redirects';
import { getJson, putJson } from '../../lib/store/store';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { FeatureDocumentSchema } from '../../lib/types/feature-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import { fetchPathRules } from '../helpers/fetch-path-rules';
import { serveRoutes, type TestServer } from '../helpers/http-server';
import { runSpider } from '../helpers/spider-cli';

const site = generateSite({ seed: 'redirect-test', pagesPerTemplate: 10, templates: 1 });
const NEWS = 'news.localhost';
const SHORT = 'short.localhost';
/** A learned site whose rules work on the HTML as served (its pages take the fetch path), one of whose URLs moved to NEWS. */
const OLD = 'old.localhost';
/** A site with one page of its own that starts redirecting to NEWS, then stops (its route reads flipTo). */
const FLIP = 'flip.localhost';
let flipTo: string | undefined;
let served: ServedSite;
let shortener: TestServer;
let pipeline: EmbeddedPipeline;
let dataDir: string;

const pages = articlesOf(site);
const newsUrl = (p: string) => `http://${NEWS}:${served.port}${p}`;
const shortUrl = (p: string) => `http://${SHORT}:${new URL(shortener.origin).port}${p}`;
const oldUrl = (p: string) => `http://${OLD}:${new URL(shortener.origin).port}${p}`;
const flipUrl = () => `http://${FLIP}:${new URL(shortener.origin).port}/flip`;
/** A site never learned: a short link to it is rendered, whatever the shortener. */
const PLAIN = 'plain.localhost';
const plainUrl = () => `http://${PLAIN}:${new URL(shortener.origin).port}/plain-story`;
const readArticle = (s: string, id: string) => getJson(pipeline.store, keys.article(s, id), (v) => ArticleDocumentSchema.parse(v));

beforeAll(async () => {
  served = await serveSite(site, { hostname: NEWS });
  const to = (p: string) => ({ status: 301, type: 'text/plain', body: '', headers: { location: newsUrl(p) } });
  // Two short links to one article, and a moved page of another site (the shortener's server answers every name)
  shortener = await serveRoutes({
    '/abc': to(pages[6].path),
    '/xyz': to(pages[6].path),
    '/moved': to(pages[7].path),
    // an article of its own (another story than the one it redirects to), or a 302 to NEWS (a 301 the
    // browser would keep in its cache, and follow again once the route stopped redirecting)
    '/flip': () => (flipTo ? { ...to(flipTo), status: 302 } : { body: pageHtml(site, pages[8].path, new URL(flipUrl()).origin) }),
    // once the shortener is known to redirect: a link to a story of NEWS none of its URLs led to yet,
    // one to an unlearned site's page (served here too), and one whose first answer is an error
    '/new': to(pages[5].path),
    '/to-plain': () => ({ status: 301, type: 'text/plain', body: '', headers: { location: plainUrl() } }),
    '/plain-story': () => ({ body: pageHtml(site, pages[3].path, new URL(plainUrl()).origin) }),
    '/flaky': () => (shortener.hits.get('/flaky') === 1 ? { status: 500, type: 'text/plain', body: 'try again' } : to(pages[6].path)),
  });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-redirect-'));
  // renderSampleRate 0: a page of a site whose rules work on the HTML as served is fetched, never rendered by lot
  const config = loadConfig({ dataDir, relearnAfter: 1000, retryBaseMs: 10, renderSampleRate: 0 });
  pipeline = await new EmbeddedPipeline(config, { ephemeralQueues: true }).open();
});
afterAll(async () => {
  await pipeline?.close();
  await shortener?.close();
  await served?.close();
});

describe('a submitted URL that redirects to another site', () => {
  it("is that site's page: extracted with its rules, recording both URLs, found by the URL submitted; the shortener gets no pages and no rules", { timeout: 240_000 }, async () => {
    await pipeline.submit(pages.slice(0, 5).map((p) => ({ url: newsUrl(p.path) })));
    await pipeline.run();
    const rules = await getJson(pipeline.store, keys.rules(NEWS), (v) => RulesDocumentSchema.parse(v));
    expect(rules, 'the landing site learned from 5 pages').toBeDefined();
    // the moved page's site: learned, its rules work on the HTML as served
    await putJson(pipeline.store, keys.rules(OLD), fetchPathRules(OLD));

    const given = [shortUrl('/abc'), oldUrl('/moved'), shortUrl('/xyz')];
    const progress = createProgress({ mode: 'quiet', out: new Writable({ write: (_c, _e, done) => done() }) });
    await pipeline.submit(given.map((url) => ({ url })));
    await pipeline.run({ onEvent: progress.onEvent });
    expect(pipeline.deadLetters()).toEqual([]);

    // The short links' page: the landing site's, extracted with its rules, recording where it landed and what was submitted.
    const landing = newsUrl(pages[6].path);
    const article = await readArticle(NEWS, pageIdOf(landing));
    expect(article).toMatchObject({ url: landing, site: NEWS, pageId: pageIdOf(landing), method: 'rules', rulesVersion: rules!.rulesVersion, path: 'render', title: pages[6].title });
    expect([shortUrl('/abc'), shortUrl('/xyz')]).toContain(article!.submittedUrl);
    const features = await getJson(pipeline.store, keys.features(NEWS, pageIdOf(landing)), (v) => FeatureDocumentSchema.parse(v));
    expect(features).toMatchObject({ url: landing, finalUrl: landing, site: NEWS, submittedUrl: article!.submittedUrl });

    // The moved page of a fetch-path site: not fetched as OLD's page with OLD's rules, rendered as NEWS's.
    const moved = newsUrl(pages[7].path);
    expect(await readArticle(NEWS, pageIdOf(moved))).toMatchObject({ url: moved, submittedUrl: oldUrl('/moved'), method: 'rules', rulesVersion: rules!.rulesVersion, path: 'render' });

    // The submitting sites hold no page and no article, and learn nothing: the shortener has no rules.
    for (const s of [SHORT, OLD]) {
      expect(await pipeline.store.list(keys.pagePrefix(s)), s).toEqual([]);
      expect(await pipeline.store.list(keys.articlePrefix(s)), s).toEqual([]);
    }
    expect(await pipeline.store.get(keys.rules(SHORT))).toBeUndefined();

    // Each submitted URL's place points at the page it landed on; reading through it gives the article.
    for (const [url, to] of [[given[0], landing], [given[1], moved], [given[2], landing]]) {
      const record = await readRedirect(pipeline.store, new URL(url).hostname, pageIdOf(url));
      expect(record, url).toMatchObject({ version: 1, url, to: { url: to, site: NEWS, pageId: pageIdOf(to) } });
      const { value } = await readThroughRedirect(pipeline.store, new URL(url).hostname, pageIdOf(url), readArticle);
      expect(value?.url, url).toBe(to);
    }

    // The run's tally: each URL given ended, two articles by the rules, the second short link the same page as the first.
    const tally = progress.final();
    expect(tally).toMatchObject({ version: 5, urls: { done: 3, total: 3 }, outcomes: { articles: 2, articlesByMethod: { rules: 2 }, duplicates: 1, deadLetters: 0 } });
    expect(tally.outcomes.duplicateUrls).toHaveLength(1);
    expect([given[0], given[2]]).toContain(tally.outcomes.duplicateUrls[0].url);
    const o = tally.outcomes;
    expect(o.articles + o.notArticles + o.noWords + o.deadLetters + o.duplicates).toBe(given.length);

    // A relearn of the landing site leaves the pointer pointing: read through it, the article is the landing page's as stored now.
    await pipeline.relearn(NEWS);
    await pipeline.run();
    const relearned = await getJson(pipeline.store, keys.rules(NEWS), (v) => RulesDocumentSchema.parse(v));
    expect(relearned!.rulesVersion).toBeGreaterThan(rules!.rulesVersion);
    const through = await readThroughRedirect(pipeline.store, SHORT, pageIdOf(given[0]), readArticle);
    expect(through.value).toEqual(await readArticle(NEWS, pageIdOf(landing)));

    // The user finds the article by the URL submitted.
    const shown = await runSpider(dataDir, ['article', given[0]]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(pages[6].title);
    expect(shown.stderr).toContain(`${given[0]} led to another site's page: the article of ${landing}`);
    const json = await runSpider(dataDir, ['article', given[1], '--format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: moved, submittedUrl: given[1], site: NEWS });
  });

  it("a URL that started redirecting reads as its landing page's article, its old page left where it was (render deletes nothing), extracted again or not; one that stopped reads as its own again", { timeout: 240_000 }, async () => {
    const url = flipUrl();
    const pageId = pageIdOf(url);
    const through = () => readThroughRedirect(pipeline.store, FLIP, pageId, readArticle);
    const shown = async () => {
      const out = await runSpider(dataDir, ['article', url]);
      expect(out.code, out.stderr).toBe(0);
      return out.stdout;
    };

    // Its own page: its own article.
    flipTo = undefined;
    await pipeline.submit([{ url }]);
    await pipeline.run();
    const own = await readArticle(FLIP, pageId);
    expect(own).toMatchObject({ url, site: FLIP, title: pages[8].title });
    expect(own!.pageStoredAt).toBeDefined();
    expect(await through()).toEqual({ value: own });

    // It starts redirecting: a record newer than its page; the old page and article stay.
    flipTo = pages[9].path;
    await pipeline.submit([{ url }]);
    await pipeline.run();
    expect(pipeline.deadLetters()).toEqual([]);
    const record = await readRedirect(pipeline.store, FLIP, pageId);
    const landing = newsUrl(pages[9].path);
    expect(record).toMatchObject({ url, to: { url: landing, site: NEWS } });
    for (const key of [keys.snapshot(FLIP, pageId), keys.features(FLIP, pageId), keys.article(FLIP, pageId)]) expect(await pipeline.store.get(key), key).toBeDefined();
    expect((await through()).value).toMatchObject({ url: landing, submittedUrl: url, title: pages[9].title });
    expect(await shown()).toContain(pages[9].title);

    // Its site extracts the old page again (as a relearn does): an article extracted after the record, of a page stored before it.
    await pipeline.queues.apply.send({ v: 1, site: FLIP, pageId, reason: 'relearned' });
    await pipeline.run();
    const again = await readArticle(FLIP, pageId);
    expect(again!.extractedAt > record!.at).toBe(true);
    expect(again!.pageStoredAt).toBe(own!.pageStoredAt);
    expect((await through()).value).toMatchObject({ url: landing, title: pages[9].title });

    // It stops redirecting: its own page again, stored after the record, whose article wins.
    flipTo = undefined;
    await pipeline.submit([{ url }]);
    await pipeline.run();
    const back = await readArticle(FLIP, pageId);
    expect(back!.pageStoredAt! > record!.at).toBe(true);
    expect(await through()).toEqual({ value: back });
    expect(back).toMatchObject({ url, title: pages[8].title });
    expect(await shown()).toContain(pages[8].title);
  });

  describe('a short link of a shortener known to redirect (a redirect record under its site, from an earlier short link)', () => {
    /** Runs the given URLs with a tally of their own, and the render queue's results. */
    const runUrls = async (urls: string[]) => {
      const progress = createProgress({ mode: 'quiet', out: new Writable({ write: (_c, _e, done) => done() }) });
      const rendered: ConsumerEvent[] = [];
      await pipeline.submit(urls.map((url) => ({ url })));
      await pipeline.run({
        onEvent: (event) => {
          if (event.queue === 'render') rendered.push(event);
          progress.onEvent(event);
        },
      });
      expect(pipeline.deadLetters()).toEqual([]);
      return { tally: progress.final(), rendered };
    };

    it("to a new story of a learned site on the fetch path: fetched, not rendered, as that site's page; the article has both URLs and is found by the short link", { timeout: 120_000 }, async () => {
      const rules = await getJson(pipeline.store, keys.rules(NEWS), (v) => RulesDocumentSchema.parse(v));
      expect(rules?.fetchPath?.works, "the landing site's rules work on its HTML as served").toBe(true);
      expect(await readRedirect(pipeline.store, SHORT, pageIdOf(shortUrl('/abc'))), 'the shortener redirected before').toBeDefined();
      const url = shortUrl('/new');
      const landing = newsUrl(pages[5].path);
      const asked = { link: shortener.hits.get('/new') ?? 0, story: served.requestsByPath.get(pages[5].path) ?? 0 };

      const { tally, rendered } = await runUrls([url]);

      // no browser: the render consumer fetched it, and named the landing page, the URL submitted with it
      expect(rendered.map((e) => e.result)).toEqual([expect.objectContaining({ path: 'fetch', site: NEWS, pageId: pageIdOf(landing), url: landing, submittedUrl: url })]);
      expect(tally).toMatchObject({ urls: { done: 1, total: 1 }, outcomes: { rendered: 0, fetched: 1, articles: 1, articlesByMethod: { rules: 1 }, duplicates: 0, deadLetters: 0 } });
      // one request to the short link (not followed) and one to the story: no render's
      expect({ link: shortener.hits.get('/new')! - asked.link, story: served.requestsByPath.get(pages[5].path)! - asked.story }).toEqual({ link: 1, story: 1 });
      expect(await pipeline.store.get(keys.snapshot(NEWS, pageIdOf(landing)))).toBeUndefined();
      expect(await pipeline.store.get(keys.features(NEWS, pageIdOf(landing)))).toBeUndefined();

      const article = await readArticle(NEWS, pageIdOf(landing));
      expect(article).toMatchObject({ url: landing, submittedUrl: url, site: NEWS, path: 'fetch', method: 'rules', title: pages[5].title });
      expect(await readRedirect(pipeline.store, SHORT, pageIdOf(url))).toMatchObject({ version: 1, url, to: { url: landing, site: NEWS, pageId: pageIdOf(landing) } });
      expect(await pipeline.store.list(keys.pagePrefix(SHORT))).toEqual([]);
      expect((await readThroughRedirect(pipeline.store, SHORT, pageIdOf(url), readArticle)).value).toEqual(article);

      const shown = await runSpider(dataDir, ['article', url]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(pages[5].title);
      expect(shown.stderr).toContain(`${url} led to another site's page: the article of ${landing}`);

      // A relearn of the landing site extracting the page again (its message, as lib/learn sends it for a
      // fetched page: no submittedUrl) keeps the URL submitted: the page's fetch record names it.
      await pipeline.queues.apply.send({ v: 1, site: NEWS, pageId: pageIdOf(landing), reason: 'relearned', path: 'fetch', url: landing });
      await pipeline.run();
      const again = await readArticle(NEWS, pageIdOf(landing));
      expect(again!.extractedAt > article!.extractedAt).toBe(true);
      expect(again).toMatchObject({ url: landing, submittedUrl: url, path: 'fetch' });
    });

    it('to an unlearned site, or asked and failing (an error first): rendered as before, in the same attempt', { timeout: 120_000 }, async () => {
      const toPlain = shortUrl('/to-plain');
      const flaky = shortUrl('/flaky');
      const asked = { plain: shortener.hits.get('/to-plain') ?? 0, flaky: shortener.hits.get('/flaky') ?? 0 };
      expect(asked.flaky).toBe(0);

      const { tally, rendered } = await runUrls([toPlain, flaky]);

      expect(tally).toMatchObject({ urls: { done: 2, total: 2 }, outcomes: { rendered: 2, fetched: 0, articles: 2, retried: 0, deadLetters: 0 } });
      // the unlearned site's page: rendered as that site's, found by the short link
      const plain = plainUrl();
      expect(rendered.map((e) => e.result)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'render', site: PLAIN, url: plain, submittedUrl: toPlain }),
          expect.objectContaining({ path: 'render', site: NEWS, url: newsUrl(pages[6].path), submittedUrl: flaky }),
        ]),
      );
      expect(await readArticle(PLAIN, pageIdOf(plain))).toMatchObject({ url: plain, submittedUrl: toPlain, path: 'render', title: pages[3].title });
      expect((await readThroughRedirect(pipeline.store, SHORT, pageIdOf(flaky), readArticle)).value).toMatchObject({ url: newsUrl(pages[6].path), submittedUrl: flaky, path: 'render' });
      // what the question cost: one request more to each short link, the browser's after it (the flaky
      // link's error was the question's, so the render, in the same attempt, was redirected)
      expect({ plain: shortener.hits.get('/to-plain')! - asked.plain, flaky: shortener.hits.get('/flaky')! - asked.flaky }).toEqual({ plain: 2, flaky: 2 });
    });
  });
});
