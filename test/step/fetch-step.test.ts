/** The fetch path's step (lib/step/fetch-step.ts) on a page served from 127.0.0.1: what it stores, and in what order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../lib/config/config';
import type { Queues } from '../../lib/queue/queue';
import { silentLogger, type StepContext } from '../../lib/step/context';
import { fetchStep } from '../../lib/step/fetch-step';
import { Politeness } from '../../lib/politeness/politeness';
import { deferralOf, RetryLaterError } from '../../lib/util/errors';
import { keys, pageIdOf } from '../../lib/store/keys';
import { readRedirect, recordRedirect, siteRedirects } from '../../lib/store/redirects';
import { MemoryStore } from '../../lib/store/memory-store';
import { putJson } from '../../lib/store/store';
import { fetchRecordOf } from '../../lib/types/fetch-record';
import { parseServedHtml } from '../../lib/html/parse';
import { DomUtils } from 'htmlparser2';
import { fetchPathRules } from '../helpers/fetch-path-rules';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const PAGE = '<html><head><title>A story</title></head><body><article><p>The story, as served.</p></article></body></html>';

let server: TestServer;
const SHORT = 'short.localhost';
const LEARNED = 'learned.localhost';
const UNLEARNED = 'unlearned.localhost';
const port = () => new URL(server.origin).port;
beforeAll(async () => {
  server = await serveRoutes({
    '/story': { body: PAGE },
    // a page of this site moved to another site's (any *.localhost name reaches this server)
    '/moved': (req) => ({ status: 301, body: '', headers: { location: `http://elsewhere.localhost:${new URL(`http://${req.headers.host}`).port}/story` } }),
    // a link shortener's links (short.localhost): to a learned site's story, to an unlearned site's, and one that is a page of its own
    '/s/learned': () => ({ status: 301, body: '', headers: { location: `http://${LEARNED}:${port()}/landing` } }),
    '/s/unlearned': () => ({ status: 302, body: '', headers: { location: `http://${UNLEARNED}:${port()}/landing-too` } }),
    '/s/own-page': { body: PAGE },
    '/landing': { body: PAGE },
    '/landing-too': { body: PAGE },
    // a shortener that asks to come back later; a link to a landing host that does; a landing page that redirects again
    '/s/busy': { status: 429, type: 'text/plain', body: 'slow down', headers: { 'retry-after': '60' } },
    '/s/to-busy': () => ({ status: 301, body: '', headers: { location: `http://${LEARNED}:${port()}/busy` } }),
    '/busy': { status: 429, type: 'text/plain', body: 'slow down', headers: { 'retry-after': '60' } },
    '/s/to-hop': () => ({ status: 301, body: '', headers: { location: `http://${LEARNED}:${port()}/hop?utm_source=short` } }),
    '/hop': () => ({ status: 301, body: '', headers: { location: `http://${LEARNED}:${port()}/landing` } }),
  });
});
afterAll(() => server.close());

describe('fetchStep', () => {
  it("writes a fetched page's served.html, led by its record (its URL), before it sends the page to apply, and nothing else but the host's rate-limit slot", async () => {
    const url = `${server.origin}/story`;
    const site = '127.0.0.1';
    const pageId = pageIdOf(url);
    const store = new MemoryStore();
    await putJson(store, keys.rules(site), fetchPathRules(site));
    const events: string[] = [];
    const put = store.put.bind(store);
    store.put = async (key, ...rest) => {
      events.push(`put ${key}`);
      return put(key, ...rest);
    };
    const queues = {
      apply: { send: async () => void events.push('send apply') },
      render: { send: async () => void events.push('send render') },
    } as unknown as Queues;
    const config = ConfigSchema.parse({ allowHosts: [new URL(server.origin).host], hostIntervalMs: 0, renderSampleRate: 0 });
    const ctx: StepContext = { store, queues, config, logger: silentLogger };

    expect(await fetchStep({ v: 1, url }, ctx)).toMatchObject({ site, pageId, path: 'fetch' });

    const host = keys.hostState(new URL(url).hostname);
    expect(events.filter((e) => e !== `put ${host}`)).toEqual([`put ${keys.served(site, pageId)}`, 'send apply']);
    expect(events).toContain(`put ${host}`);
    const served = (await store.get(keys.served(site, pageId)))!.body;
    expect(fetchRecordOf(served)).toMatchObject({ version: 1, url });
    // the record is a comment before the page as served: the document parses as the page alone
    expect(served.toString('utf8').endsWith(PAGE)).toBe(true);
    const text = DomUtils.textContent(parseServedHtml(served));
    expect(text).toContain('The story, as served.');
    expect(text).not.toContain('spider:fetched');
  });

  it("sends a page a redirect took to another site to render, unchanged, and stores nothing of it: it is that site's page, not this one's", async () => {
    const url = `${server.origin}/moved`;
    const store = new MemoryStore();
    await putJson(store, keys.rules('127.0.0.1'), fetchPathRules('127.0.0.1'));
    const sent: { queue: string; body: unknown }[] = [];
    const queues = {
      apply: { send: async (body: unknown) => void sent.push({ queue: 'apply', body }) },
      render: { send: async (body: unknown) => void sent.push({ queue: 'render', body }) },
    } as unknown as Queues;
    const config = ConfigSchema.parse({ allowHosts: [new URL(server.origin).host, '*.localhost'], hostIntervalMs: 0, renderSampleRate: 0 });
    const message = { v: 1 as const, url, submittedAt: '2026-11-28T00:00:00.000Z' };

    const outcome = await fetchStep(message, { store, queues, config, logger: silentLogger });

    expect(outcome).toMatchObject({ path: 'render', reason: `redirected to another site (http://elsewhere.localhost:${new URL(server.origin).port}/story): rendered as that site's page` });
    expect(sent).toEqual([{ queue: 'render', body: message }]);
    expect((await store.list('pages/')).map((o) => o.key)).toEqual([]);
  });

  describe("a link shortener's URL (its site has no rules and holds a redirect record)", () => {
    const shortUrl = (p: string) => `http://${SHORT}:${port()}${p}`;
    /** A store where the shortener's site holds a redirect record (an earlier link, rendered) and LEARNED's rules work on the HTML as served. */
    const setUp = async () => {
      const store = new MemoryStore();
      await putJson(store, keys.rules(LEARNED), fetchPathRules(LEARNED));
      const earlier = shortUrl('/s/earlier');
      const to = `http://${LEARNED}:${port()}/earlier-story`;
      await recordRedirect(store, { url: earlier, site: SHORT, pageId: pageIdOf(earlier) }, { url: to, site: LEARNED, pageId: pageIdOf(to) });
      const sent: { queue: string; body: unknown }[] = [];
      const queues = {
        apply: { send: async (body: unknown) => void sent.push({ queue: 'apply', body }) },
        render: { send: async (body: unknown) => void sent.push({ queue: 'render', body }) },
      } as unknown as Queues;
      const config = ConfigSchema.parse({ allowHosts: ['127.0.0.1', '*.localhost'], hostIntervalMs: 0, renderSampleRate: 0 });
      return { store, sent, ctx: { store, queues, config, logger: silentLogger } satisfies StepContext };
    };

    it("is asked where it leads (one request, not followed), and a page of a site on the fetch path is fetched as that site's page: stored, its redirect recorded, sent to apply with the URL submitted", async () => {
      const { store, sent, ctx } = await setUp();
      const url = shortUrl('/s/learned');
      const landing = `http://${LEARNED}:${port()}/landing`;
      const before = { link: server.hits.get('/s/learned') ?? 0, page: server.hits.get('/landing') ?? 0 };

      const outcome = await fetchStep({ v: 1, url }, ctx);

      expect(outcome).toMatchObject({ site: LEARNED, pageId: pageIdOf(landing), submittedUrl: url, path: 'fetch' });
      expect(sent).toEqual([{ queue: 'apply', body: { v: 1, site: LEARNED, pageId: pageIdOf(landing), reason: 'rendered', path: 'fetch', url: landing, submittedUrl: url } }]);
      expect(fetchRecordOf((await store.get(keys.served(LEARNED, pageIdOf(landing))))!.body)).toMatchObject({ version: 1, url: landing, submittedUrl: url });
      expect(await readRedirect(store, SHORT, pageIdOf(url))).toMatchObject({ version: 1, url, to: { url: landing, site: LEARNED, pageId: pageIdOf(landing) } });
      // the shortener's site holds no page of it
      expect(await store.list(keys.pagePrefix(SHORT))).toEqual([]);
      expect({ link: server.hits.get('/s/learned')! - before.link, page: server.hits.get('/landing')! - before.page }).toEqual({ link: 1, page: 1 });
    });

    it('goes to render unchanged, nothing stored, when it leads to an unlearned site, is a page of its own, or its host does not answer; and is not asked when its site holds no redirect record', async () => {
      const { store, sent, ctx } = await setUp();
      const hits = (p: string) => server.hits.get(p) ?? 0;
      const before = { unlearned: hits('/s/unlearned'), own: hits('/s/own-page'), landing: hits('/landing-too') };
      const closed = await serveRoutes({});
      const downUrl = `http://${SHORT}:${new URL(closed.origin).port}/s/down`;
      await closed.close();
      const messages = [{ v: 1 as const, url: shortUrl('/s/unlearned'), submittedAt: '2026-11-28T00:00:00.000Z' }, { v: 1 as const, url: shortUrl('/s/own-page') }, { v: 1 as const, url: downUrl }];

      const outcomes = [];
      for (const message of messages) outcomes.push(await fetchStep(message, ctx));

      expect(outcomes.map((o) => [o.site, o.path])).toEqual([[SHORT, 'render'], [SHORT, 'render'], [SHORT, 'render']]);
      expect(outcomes[0].reason).toMatch(/leads to http:\/\/unlearned\.localhost:\d+\/landing-too, not fetched: the site has no rules/);
      expect(outcomes[1].reason).toMatch(/answered 200, no redirect/);
      expect(outcomes[2].reason).toMatch(/asking where it leads failed/);
      expect(sent).toEqual(messages.map((body) => ({ queue: 'render', body })));
      expect(await store.list(keys.pagePrefix(UNLEARNED))).toEqual([]);
      expect(await store.list(keys.pagePrefix(SHORT))).toEqual([]);
      expect((await store.list(keys.redirectPrefix(SHORT))).map((o) => o.key)).toEqual([keys.redirect(SHORT, pageIdOf(shortUrl('/s/earlier')))]);
      // asked once each, the landing page never requested
      expect({ unlearned: hits('/s/unlearned') - before.unlearned, own: hits('/s/own-page') - before.own, landing: hits('/landing-too') - before.landing }).toEqual({ unlearned: 1, own: 1, landing: 0 });

      // the same link under a site with no redirect record: rendered, not asked
      sent.length = 0;
      const other = `http://other-short.localhost:${port()}/s/learned`;
      const learnedBefore = hits('/s/learned');
      expect(await fetchStep({ v: 1, url: other }, ctx)).toMatchObject({ path: 'render', reason: 'the site has no rules' });
      expect(sent).toEqual([{ queue: 'render', body: { v: 1, url: other } }]);
      expect(hits('/s/learned')).toBe(learnedBefore);
    });
    it('waits when a host asks it to: a 429 from the shortener holds the shortener, one from the landing host holds that host alone; the message is retried, not rendered', async () => {
      const { store, sent, ctx } = await setUp();
      for (const [link, host] of [['/s/busy', SHORT], ['/s/to-busy', LEARNED]] as const) {
        // each with its own hosts' waits: the first holds the shortener
        const held: string[] = [];
        const politeness = new Politeness(ctx.config);
        const pause = politeness.retryLater.bind(politeness);
        politeness.retryLater = async (pageUrl, ms) => {
          held.push(new URL(pageUrl).hostname);
          return pause(pageUrl, ms);
        };
        const error = await fetchStep({ v: 1, url: shortUrl(link) }, { ...ctx, politeness }).catch((e: unknown) => e);
        expect(error, link).toBeInstanceOf(RetryLaterError);
        expect((error as RetryLaterError).retryAfterMs, link).toBe(60_000);
        expect(held, link).toEqual([host]);
      }
      expect(sent).toEqual([]);
      expect(await store.list(keys.pagePrefix(LEARNED))).toEqual([]);
    });

    it("waits for the landing host's turn only within the fetch's deadline, less the least time for the fetch: a turn further away defers the message (on AWS a longer wait ran past the invocation, and the batch came back)", async () => {
      const { store, sent, ctx } = await setUp();
      const landing = `http://${LEARNED}:${port()}/landing`;
      for (const [fetchTimeoutMs, waited] of [[20_000, false], [40_000, true]] as const) {
        // the landing host's next turn is 30 s away; the politeness would wait a minute for a turn
        let clock = Date.now();
        const slept: number[] = [];
        const politeness = new Politeness(ctx.config, { maxWaitMs: 60_000, now: () => clock, sleep: async (ms) => void (slept.push(ms), (clock += ms)) });
        await politeness.retryLater(landing, 30_000);
        const hits = server.hits.get('/landing') ?? 0;
        sent.length = 0;

        const outcome = await fetchStep({ v: 1, url: shortUrl('/s/learned') }, { ...ctx, politeness, fetchTimeoutMs }).catch((e: unknown) => e);

        if (waited) {
          expect(outcome).toMatchObject({ site: LEARNED, path: 'fetch' });
          expect(slept.reduce((a, b) => a + b, 0)).toBe(30_000);
          expect(server.hits.get('/landing')).toBe(hits + 1);
        } else {
          expect(deferralOf(outcome), String(outcome)).toBeGreaterThan(0);
          expect(slept).toEqual([]);
          expect(sent).toEqual([]);
          expect(server.hits.get('/landing') ?? 0).toBe(hits);
          expect(await store.list(keys.pagePrefix(LEARNED))).toEqual([]);
        }
      }
    });

    it('renders a link whose landing page redirects again: its page is the one the whole chain ends on, as render files it', async () => {
      const { store, sent, ctx } = await setUp();
      const url = shortUrl('/s/to-hop');
      const outcome = await fetchStep({ v: 1, url }, ctx);
      expect(outcome).toMatchObject({ site: SHORT, path: 'render' });
      expect(outcome.reason).toMatch(/its landing page redirects again/);
      expect(sent).toEqual([{ queue: 'render', body: { v: 1, url } }]);
      expect(await store.list(keys.pagePrefix(LEARNED))).toEqual([]);
      expect(await readRedirect(store, SHORT, pageIdOf(url))).toBeUndefined();
    });

    it('takes a site for a shortener only when it holds a redirect record and no page of its own (a stray redirect of a site with pages does not make it one)', async () => {
      const store = new MemoryStore();
      const ref = (site: string, p: string) => ({ url: `http://${site}/${p}`, site, pageId: pageIdOf(`http://${site}/${p}`) });
      await recordRedirect(store, ref('sho.localhost', 'a'), ref('news.localhost', 'story'));
      await recordRedirect(store, ref('blog.localhost', 'moved'), ref('news.localhost', 'story'));
      await store.put(keys.served('blog.localhost', pageIdOf('http://blog.localhost/post')), PAGE);
      expect(await siteRedirects(store, 'sho.localhost')).toBe(true);
      expect(await siteRedirects(store, 'blog.localhost')).toBe(false);
      expect(await siteRedirects(store, 'news.localhost')).toBe(false);
    });
  });
});
