/**
 * Politeness without a browser: robots.txt (RFC 9309) status handling and caching, the per-host rate
 * limit in one process and shared through a store (two "Lambda containers"), Crawl-delay, Retry-After.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { MemoryHostLimiter, StoreHostLimiter } from '../../lib/politeness/host-limiter';
import { Politeness } from '../../lib/politeness/politeness';
import { parseRetryAfter } from '../../lib/politeness/retry-after';
import { FsStore } from '../../lib/store/fs-store';
import { EgressBlockedError, failureKind, HostBusyError, isNonRetryable } from '../../lib/util/errors';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const UA = 'spider/0.1 (+https://example.org/spider-contact)';

/** A clock the test moves, and a sleep that moves it. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), advance: (ms: number) => void (t += ms) };
}

describe('robots.txt', () => {
  let site: TestServer;
  let robotsStatus = 200;
  let robotsBody: string | Buffer = '';
  let robotsHeaders: Record<string, string> = {};
  const userAgents: string[] = [];
  let origin = '';

  beforeAll(async () => {
    site = await serveRoutes({
      '/robots.txt': (req) => {
        userAgents.push(String(req.headers['user-agent']));
        return { status: robotsStatus, type: 'text/plain', body: robotsBody, headers: robotsHeaders };
      },
    });
    origin = site.origin;
  });
  afterAll(() => site?.close());

  const politeness = (clock = fakeClock(), extra: Partial<Parameters<typeof loadConfig>[0]> = {}) =>
    new Politeness(loadConfig({ userAgent: UA, allowHosts: [new URL(origin).host], hostIntervalMs: 0, ...extra }), { now: clock.now, sleep: clock.sleep });

  it('disallowed for our product token: a dead letter with the reason; other paths allowed; sent with our user agent', async () => {
    robotsStatus = 200;
    robotsBody = 'User-agent: *\nDisallow: /nothing-for-all\n\nUser-agent: spider\nDisallow: /private\nAllow: /private/public-part\n';
    const p = politeness();
    const error = await p.admit(`${origin}/private/page.html`).catch((e) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect(error.message).toMatch(/disallowed by robots\.txt for spider/);
    await expect(p.admit(`${origin}/private/public-part/a.html`)).resolves.toBeUndefined();
    await expect(p.admit(`${origin}/nothing-for-all/a.html`)).resolves.toBeUndefined(); // the spider group applies, not *
    expect(userAgents.at(-1)).toBe(UA);
  });

  it('compares paths percent-encoded alike (RFC 9309 2.2.2): an escaped unreserved character is the character', async () => {
    robotsStatus = 200;
    robotsHeaders = {};
    robotsBody = 'User-agent: *\nDisallow: /p/private\nDisallow: /q/%70rivate\nDisallow: /r/caf%c3%a9\n';
    const p = politeness();
    for (const asked of ['/p/%70rivate/a.html', '/p/%70%72ivate', '/q/private/b.html', '/r/café', '/r/caf%C3%A9']) {
      const error = await p.admit(`${origin}${asked}`).catch((e) => e);
      expect(isNonRetryable(error), asked).toBe(true);
      expect(error.message).toMatch(/disallowed by robots\.txt/);
    }
    // An escaped reserved character is not the character: /p%2Fprivate is one segment, not /p/private.
    await expect(p.admit(`${origin}/p%2Fprivate`)).resolves.toBeUndefined();
  });

  it('reads a gzip-compressed robots.txt, with a Content-Encoding or without one', async () => {
    robotsStatus = 200;
    const rules = gzipSync('User-agent: *\nDisallow: /private\n');
    for (const headers of [{ 'content-encoding': 'gzip' }, {}] as Record<string, string>[]) {
      robotsHeaders = headers;
      robotsBody = rules;
      const error = await politeness().admit(`${origin}/private/a.html`).catch((e) => e);
      expect(isNonRetryable(error), JSON.stringify(headers)).toBe(true);
      await expect(politeness().admit(`${origin}/public/a.html`)).resolves.toBeUndefined();
    }
    robotsHeaders = {};
  });

  it('is fetched once per origin and kept up to 24 hours', async () => {
    robotsStatus = 200;
    robotsBody = 'User-agent: *\nDisallow: /x\n';
    const clock = fakeClock();
    const p = politeness(clock);
    const before = site.hits.get('/robots.txt') ?? 0;
    for (let i = 0; i < 5; i++) await p.admit(`${origin}/page-${i}.html`);
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(1);
    clock.advance(23 * 3600_000);
    await p.admit(`${origin}/later.html`);
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(1);
    clock.advance(2 * 3600_000);
    await p.admit(`${origin}/next-day.html`);
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(2);
  });

  it('4xx means everything is allowed', async () => {
    for (const status of [404, 403, 410]) {
      robotsStatus = status;
      robotsBody = 'User-agent: *\nDisallow: /\n'; // the body of an error status is not rules
      await expect(politeness().admit(`${origin}/any.html`), `HTTP ${status}`).resolves.toBeUndefined();
    }
  });

  it('5xx, 429 or unreachable means disallowed for now (retryable), fetched again after the retry interval', async () => {
    robotsStatus = 503;
    const clock = fakeClock();
    const p = politeness(clock, { robotsRetrySeconds: 60 });
    const error = await p.admit(`${origin}/a.html`).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isNonRetryable(error)).toBe(false);
    expect(error.message).toBe(`robots.txt of ${origin} answered HTTP 503, which disallows every page of the host for now (RFC 9309)`);
    robotsStatus = 200;
    robotsBody = '';
    await expect(p.admit(`${origin}/a.html`)).rejects.toThrow(/answered HTTP 503/); // still within the retry interval
    clock.advance(61_000);
    await expect(p.admit(`${origin}/a.html`)).resolves.toBeUndefined();

    robotsStatus = 429;
    await expect(politeness().admit(`${origin}/a.html`)).rejects.toThrow(/HTTP 429/);

    const closed = await serveRoutes({});
    const deadOrigin = closed.origin;
    await closed.close();
    const unreachable = new Politeness(loadConfig({ userAgent: UA, allowHosts: [new URL(deadOrigin).host], hostIntervalMs: 0 }));
    const refused = await unreachable.admit(`${deadOrigin}/a.html`).catch((e) => e);
    expect(isNonRetryable(refused)).toBe(false);
    // the host, not its robots.txt, is what failed; the queue says whether it is tried again
    expect(refused.message).toBe(`cannot reach ${deadOrigin}: connection refused (ECONNREFUSED)`);
  });

  it('https to a port that speaks plain HTTP: the TLS failure in words with its code, without OpenSSL\'s internals', async () => {
    const plain = new URL(origin);
    const tlsOrigin = `https://${plain.host}`;
    const p = new Politeness(loadConfig({ userAgent: UA, allowHosts: [plain.host], hostIntervalMs: 0 }));
    const error = await p.admit(`${tlsOrigin}/a.html`).catch((e) => e);
    expect(isNonRetryable(error)).toBe(false);
    expect(error.message).toBe(`cannot reach ${tlsOrigin}: TLS handshake failed: wrong version number (EPROTO)`);
  });

  it('can be switched off', async () => {
    robotsStatus = 200;
    robotsBody = 'User-agent: *\nDisallow: /\n';
    await expect(politeness(fakeClock(), { respectRobotsTxt: false }).admit(`${origin}/a.html`)).resolves.toBeUndefined();
  });
});

describe('a host name that does not resolve', () => {
  const failing = (code: string) => async (hostname: string) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code });
  };

  it('that does not exist (ENOTFOUND, the resolver\'s NXDOMAIN) is a dead letter at once that says so, no egress block', async () => {
    const p = new Politeness(loadConfig({ userAgent: UA, hostIntervalMs: 0 }), { resolver: failing('ENOTFOUND') });
    const error = await p.admit('http://nosuchhost.example/story').catch((e) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect(error).not.toBeInstanceOf(EgressBlockedError);
    expect(error.message).toBe('cannot resolve nosuchhost.example: no such host (ENOTFOUND) (http://nosuchhost.example/story)');
    expect(failureKind(error)).toBe('other');
  });

  it('for now (EAI_AGAIN: no DNS server answered) is retried', async () => {
    const p = new Politeness(loadConfig({ userAgent: UA, hostIntervalMs: 0 }), { resolver: failing('EAI_AGAIN') });
    const error = await p.admit('http://news.example/story').catch((e) => e);
    expect(isNonRetryable(error)).toBe(false);
    expect(error.message).toBe('cannot resolve news.example (EAI_AGAIN) (http://news.example/story)');
  });
});

describe('per-host rate limit', () => {
  it('one process: one request per interval per host, early ones told when to come back, spread out', async () => {
    const clock = fakeClock();
    const limiter = new MemoryHostLimiter(clock.now);
    expect(await limiter.acquire('a.example', 1000)).toEqual({ ok: true });
    expect(await limiter.acquire('b.example', 1000)).toEqual({ ok: true }); // hosts are independent
    const waits = [];
    for (let i = 0; i < 3; i++) waits.push(await limiter.acquire('a.example', 1000));
    expect(waits).toEqual([{ ok: false, retryInMs: 1000 }, { ok: false, retryInMs: 2000 }, { ok: false, retryInMs: 3000 }]);
    clock.advance(1000);
    expect(await limiter.acquire('a.example', 1000)).toEqual({ ok: true });
    await limiter.pause('a.example', clock.now() + 30_000); // Retry-After: 30
    clock.advance(1000);
    expect(await limiter.acquire('a.example', 1000)).toMatchObject({ ok: false });
    clock.advance(29_000);
    expect(await limiter.acquire('a.example', 1000)).toEqual({ ok: true });
  });

  it('honours Crawl-delay up to the cap, and hands back what it cannot wait for', async () => {
    const site = await serveRoutes({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 5\n' } });
    try {
      const clock = fakeClock();
      const config = loadConfig({ userAgent: UA, allowHosts: [new URL(site.origin).host], hostIntervalMs: 1000, maxCrawlDelaySeconds: 3, politenessMaxWaitMs: 0 });
      const p = new Politeness(config, { now: clock.now, sleep: clock.sleep });
      await p.admit(`${site.origin}/1.html`);
      const busy = await p.admit(`${site.origin}/2.html`).catch((e) => e);
      expect(busy).toBeInstanceOf(HostBusyError);
      expect(busy.retryInMs).toBe(3000); // Crawl-delay 5 s capped at 3 s, above the 1 s default
      clock.advance(3000);
      await expect(p.admit(`${site.origin}/2.html`)).resolves.toBeUndefined();
    } finally {
      await site.close();
    }
  });

  it('check() asks robots.txt and takes no turn; the turn is claimed when take() is called, once a page', async () => {
    const site = await serveRoutes({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 2\nDisallow: /private\n' } });
    try {
      const clock = fakeClock();
      const config = loadConfig({ userAgent: UA, allowHosts: [new URL(site.origin).host], hostIntervalMs: 1000, politenessMaxWaitMs: 0 });
      const p = new Politeness(config, { now: clock.now, sleep: clock.sleep });
      expect(isNonRetryable(await p.check(`${site.origin}/private/x.html`).catch((e) => e))).toBe(true);
      // Two pages checked at once, then requested after a wait (for the browser, say): the second
      // page's turn counts from the first page's request, not from its check.
      const first = await p.check(`${site.origin}/1.html`);
      const second = await p.check(`${site.origin}/2.html`);
      expect(second.intervalMs).toBe(2000);
      clock.advance(5000);
      await first.take();
      await expect(first.take()).resolves.toBeUndefined(); // the same turn, not another
      const busy = await second.take().catch((e) => e);
      expect(busy).toBeInstanceOf(HostBusyError);
      expect(busy.retryInMs).toBe(2000);
      clock.advance(2000);
      await expect((await p.check(`${site.origin}/2.html`)).take()).resolves.toBeUndefined();
    } finally {
      await site.close();
    }
  });

  it('shared through the store: two containers never take the same slot of a host', async () => {
    const store = new FsStore(await mkdtemp(path.join(os.tmpdir(), 'spider-limiter-')));
    const clock = fakeClock();
    const config = loadConfig({ userAgent: UA, respectRobotsTxt: false, hostIntervalMs: 1000, politenessMaxWaitMs: 60_000, allowHosts: ['news.example'] });
    const granted: number[] = [];
    // news.example is allowlisted and "resolves" to loopback: nothing is fetched here anyway.
    const loopback = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const container = () => {
      const limiter = new StoreHostLimiter(store, clock.now);
      const spy = { acquire: async (h: string, i: number) => { const r = await limiter.acquire(h, i); if (r.ok) granted.push(clock.now()); return r; }, pause: limiter.pause.bind(limiter) };
      return new Politeness(config, { limiter: spy, now: clock.now, sleep: clock.sleep, resolver: loopback });
    };
    const a = container();
    const b = container();
    // Both containers ask for the host at once, several times each.
    await Promise.all([0, 1, 2].flatMap((i) => [a.admit(`http://news.example/a${i}.html`), b.admit(`http://news.example/b${i}.html`)]));
    expect(granted).toHaveLength(6);
    const sorted = [...granted].sort((x, y) => x - y);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(1000);
    // A Retry-After from one container holds the other back too.
    await a.retryLater('http://news.example/x.html', 120_000);
    const other = new Politeness({ ...config, politenessMaxWaitMs: 0 }, { limiter: new StoreHostLimiter(store, clock.now), now: clock.now, resolver: loopback });
    const busy = await other.admit('http://news.example/y.html').catch((e) => e);
    expect(busy).toBeInstanceOf(HostBusyError);
    expect(busy.retryInMs).toBeGreaterThan(100_000);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, capped', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', { now })).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', { now })).toBe(60_000);
    expect(parseRetryAfter('999999', { now, maxMs: 3600_000 })).toBe(3600_000);
    expect(parseRetryAfter('soon', { now })).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
