/**
 * Politeness in the embedded runner, with real Chromium: robots.txt disallow becomes a dead letter
 * with that reason (the page is never requested, nor one a redirect leads to), an unreachable robots.txt keeps the host's pages
 * back and retries, Crawl-delay spaces page requests, 429 + Retry-After holds the host, the user agent
 * is ours, and a message that waits for its host's turn is handed back without counting as a failure.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { MemoryHostLimiter } from '../../lib/politeness/host-limiter';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { Politeness } from '../../lib/politeness/politeness';
import { MemoryQueue } from '../../lib/queue/memory-queue';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { serveRoutes, type TestServer } from '../helpers/http-server';

const UA = 'spider-test/1.0 (+https://example.org/contact)';
const article = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${'A sentence of the article body. '.repeat(30)}</p></article></body></html>`;

let server: TestServer;
let pipeline: EmbeddedPipeline;
let port = 0;
const arrivals = new Map<string, number[]>(); // host → page request times
const pageAgents = new Set<string>();
const granted = new Map<string, number[]>(); // host → times the rate limiter granted a slot
let busyCalls = 0;

const url = (host: string, p: string) => `http://${host}:${port}${p}`;

beforeAll(async () => {
  server = await serveRoutes({
    '/robots.txt': (req) => {
      const host = String(req.headers.host).split(':')[0];
      if (host === 'down.localhost') return { status: 500, body: 'oops', type: 'text/plain' };
      if (host === 'moving.localhost') return { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' };
      if (host === 'polite.localhost') return { type: 'text/plain', body: 'User-agent: spider-test\nDisallow: /private/\nCrawl-delay: 1\n' };
      if (host === 'mess.localhost') return { type: 'text/plain', body: 'User-agent: *\nCrawl-delay: 2\n' };
      return { status: 404, body: 'none', type: 'text/plain' };
    },
    '/page': (req) => {
      const host = String(req.headers.host).split(':')[0];
      arrivals.set(host, [...(arrivals.get(host) ?? []), Date.now()]);
      pageAgents.add(String(req.headers['user-agent']));
      if (host === 'busy.localhost' && busyCalls++ === 0) return { status: 429, body: 'slow down', type: 'text/plain', headers: { 'retry-after': '1' } };
      return { body: article(`Page on ${host} ${req.url}`) };
    },
    // A page that keeps Chromium busy for over a second (a script spinning while the page parses).
    '/slow': (req) => {
      const host = String(req.headers.host).split(':')[0];
      arrivals.set(host, [...(arrivals.get(host) ?? []), Date.now()]);
      return { body: article(`Slow page on ${host} ${req.url}`).replace('</body>', '<script>const t = Date.now(); while (Date.now() - t < 1200) {}</script></body>') };
    },
    '/private/secret.html': { body: article('Secret') },
    '/moved': { status: 302, body: '', headers: { location: '/private/secret.html' } },
  });
  port = Number(new URL(server.origin).port);
  const config = loadConfig({
    dataDir: await mkdtemp(path.join(os.tmpdir(), 'spider-polite-')),
    userAgent: UA,
    allowHosts: ['*.localhost'],
    hostIntervalMs: 300,
    maxReceiveCount: 2,
    retryBaseMs: 50,
    robotsRetrySeconds: 0,
    navigationTimeoutMs: 10_000,
    renderTimeoutMs: 20_000,
  });
  // The rate limiter, watched: when it grants each host a slot, by the limiter's own clock reading
  // (a second Date.now() after the await could land a millisecond later than the grant).
  let lastReading = 0;
  const limiter = new MemoryHostLimiter(() => (lastReading = Date.now()));
  const watched = {
    acquire: async (host: string, interval: number) => {
      const pending = limiter.acquire(host, interval); // reads the clock before it returns
      const at = lastReading;
      const r = await pending;
      if (r.ok) granted.set(host, [...(granted.get(host) ?? []), at]);
      return r;
    },
    pause: limiter.pause.bind(limiter),
  };
  pipeline = await new EmbeddedPipeline(config, { ephemeralQueues: true, politeness: new Politeness(config, { limiter: watched, maxWaitMs: 0 }) }).open();
});
afterAll(async () => {
  await pipeline?.close();
  await server?.close();
});

describe('politeness in the embedded runner (real Chromium)', () => {
  it('robots.txt, Crawl-delay, Retry-After and the per-host limit, with nothing lost', async () => {
    // Warm the browser first, so that page request times reflect the limiter, not Chromium's start.
    await pipeline.submit([{ url: url('warm.localhost', '/page?warm') }]);
    await pipeline.run();

    const polite = [1, 2, 3].map((i) => url('polite.localhost', `/page?p=${i}`));
    const other = [1, 2, 3].map((i) => url('other.localhost', `/page?o=${i}`));
    const secret = url('polite.localhost', '/private/secret.html');
    const down = url('down.localhost', '/page?d=1');
    const busy = url('busy.localhost', '/page?b=1');
    const moved = url('moving.localhost', '/moved'); // allowed, but redirects into a disallowed path
    const report = await pipeline.submit([...polite, secret, down, busy, moved, ...other].map((u) => ({ url: u })));
    expect(report.rejected).toEqual([]);
    const events: string[] = [];
    await pipeline.run({ onEvent: (e) => events.push(`${e.outcome} ${(e.message as { url?: string }).url}`) });

    // Every URL ends as a rendered page or a dead letter with its reason.
    const dead = new Map(pipeline.deadLetters().map((d) => [(d.body as { url: string }).url, d.reason]));
    expect(dead.get(secret)).toMatch(/disallowed by robots\.txt for spider-test/);
    expect(dead.get(down)).toMatch(/^failed 2 times; last error: robots\.txt of http:\/\/down\.localhost:\d+ answered HTTP 500, which disallows every page of the host for now \(RFC 9309\)$/);
    expect(dead.get(moved)).toMatch(/disallowed by robots\.txt for spider-test \(http:\/\/moving\.localhost:\d+\/robots\.txt line 2\)/);
    expect(dead.size).toBe(3);
    for (const u of [...polite, ...other, busy]) {
      expect(await pipeline.store.get(keys.features(siteOf(u), pageIdOf(u))), u).toBeDefined();
    }
    expect(server.hits.get('/moved')).toBe(1);
    expect(server.hits.get('/private/secret.html')).toBeUndefined(); // never requested, not even by a redirect
    expect(arrivals.get('down.localhost')).toBeUndefined();

    // Crawl-delay: 1 (above the 300 ms default) between the polite host's page requests; the other
    // host went on meanwhile at its own 300 ms.
    const spaced = (times: number[] | undefined, ms: number) => {
      const t = [...(times ?? [])].sort((a, b) => a - b);
      for (let i = 1; i < t.length; i++) expect(t[i] - t[i - 1]).toBeGreaterThanOrEqual(ms);
    };
    spaced(granted.get('polite.localhost'), 1000);
    expect(granted.get('other.localhost')).toHaveLength(3);
    spaced(granted.get('other.localhost'), 300);
    // What the site saw: no page request before the slot it was granted (the browser's own latency
    // after the grant varies with the machine's load, so the arrivals' spacing is not asserted).
    const politeArrivals = [...(arrivals.get('polite.localhost') ?? [])].sort((a, b) => a - b);
    const politeGrants = [...(granted.get('polite.localhost') ?? [])].sort((a, b) => a - b);
    expect(politeArrivals).toHaveLength(politeGrants.length);
    politeArrivals.forEach((t, i) => expect(t).toBeGreaterThanOrEqual(politeGrants[i]));
    expect(granted.get('polite.localhost')).toHaveLength(3);

    // 429 with Retry-After: 1 → the page came back after at least a second, and then rendered.
    const busyTimes = arrivals.get('busy.localhost')!;
    expect(busyTimes).toHaveLength(2);
    expect(busyTimes[1] - busyTimes[0]).toBeGreaterThanOrEqual(1000);

    // Waiting for a host's turn is not a failure: no retries for the polite or other hosts, even
    // though the queue allows only 2 receives.
    expect(events.filter((e) => e.startsWith('retry') && /polite|other/.test(e))).toEqual([]);
    expect(pageAgents).toEqual(new Set([UA]));
  });
});

describe('the host\'s turn is taken when its page is requested (real Chromium)', () => {
  it('a Crawl-delay holds between the page requests the site receives, while the browser is busy with another host\'s slow pages', async () => {
    // The render consumer takes 1 + 8 messages at once and the browser renders one page at a time:
    // pages of mess.localhost waited for the browser behind slowpoke.localhost's pages, and a turn
    // taken before that wait let them all through back to back once the browser was free.
    const mess = [1, 2, 3, 4, 5].map((i) => url('mess.localhost', `/page?m=${i}`));
    const slow = [1, 2, 3, 4].map((i) => url('slowpoke.localhost', `/slow?s=${i}`));
    const report = await pipeline.submit(mess.flatMap((m, i) => [m, ...(slow[i] ? [slow[i]] : [])]).map((u) => ({ url: u })));
    expect(report.rejected).toEqual([]);
    await pipeline.run();

    for (const u of [...mess, ...slow]) expect(await pipeline.store.get(keys.features(siteOf(u), pageIdOf(u))), u).toBeDefined();
    const times = [...(arrivals.get('mess.localhost') ?? [])].sort((a, b) => a - b);
    expect(times).toHaveLength(mess.length);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // Crawl-delay: 2 between the requests the site received. The turn is taken just before the
    // browser navigates; what lies between the two (Chromium, the egress proxy, this process's event
    // loop) varies from page to page, on a loaded machine by more than a few ms: 500 are allowed. A
    // turn taken before the wait for the browser spaced them by the slow pages' renders (about 1.2 s).
    for (const gap of gaps) expect(gap, `gaps between mess.localhost's page requests: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1500);
  });
});

describe('deferral in the queue', () => {
  it('hands a message back without counting the receive', async () => {
    const q = new MemoryQueue<{ n: number }>({ name: 'q', maxReceiveCount: 1 });
    await q.send({ n: 1 });
    for (let i = 0; i < 5; i++) {
      const [m] = await q.receive(1);
      expect(m.receiveCount).toBe(1);
      await q.defer(m.id, 0);
    }
    const [m] = await q.receive(1);
    await q.fail(m.id, 'boom', true);
    expect(q.deadLettered).toHaveLength(1); // the one real failure, at the limit of 1
  });
});
