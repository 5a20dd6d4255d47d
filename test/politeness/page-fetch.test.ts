/** The fetch path's HTTP fetch, against a real server on 127.0.0.1. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { egressPolicyFor } from '../../lib/net/egress-policy';
import { fetchPage } from '../../lib/politeness/page-fetch';
import { Politeness } from '../../lib/politeness/politeness';
import { EgressBlockedError, NonRetryableError, RetryLaterError } from '../../lib/util/errors';
import { serveRoutes, type TestServer } from '../helpers/http-server';

let server: TestServer;
let options: Parameters<typeof fetchPage>[1];

beforeAll(async () => {
  server = await serveRoutes({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
    '/story': { body: '<html><body><article><p>Hello from the server.</p></article></body></html>' },
    '/moved': { status: 301, body: '', headers: { location: '/story' } },
    '/to-private': { status: 302, body: '', headers: { location: '/private/page' } },
    '/to-metadata': { status: 302, body: '', headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
    '/loop': { status: 302, body: '', headers: { location: '/loop' } },
    '/busy': { status: 429, body: 'slow down', type: 'text/plain', headers: { 'retry-after': '30' } },
    '/feed.xml': { type: 'application/rss+xml', body: '<rss/>' },
    '/big': { body: '<p>' + 'x'.repeat(5000) + '</p>' },
    '/latin1': { type: 'text/html; charset=iso-8859-1', body: Buffer.from('<p>caf\xe9</p>', 'latin1') },
  });
  const config = loadConfig({ allowHosts: [new URL(server.origin).host], hostIntervalMs: 0 });
  options = { policy: egressPolicyFor(config), politeness: new Politeness(config), userAgent: config.userAgent, maxBytes: 4096, timeoutMs: 10_000 };
});
afterAll(() => server?.close());

describe('fetchPage', () => {
  it('fetches a page and follows a redirect, each hop checked', async () => {
    const got = await fetchPage(`${server.origin}/moved`, options);
    expect(got).toMatchObject({ ok: true, finalUrl: `${server.origin}/story`, redirects: [`${server.origin}/moved`] });
    expect(got.ok && got.html).toContain('Hello from the server.');
  });
  it('refuses a redirect to a path robots.txt disallows, and one to an address the egress guard refuses, before requesting it', async () => {
    await expect(fetchPage(`${server.origin}/to-private`, options)).rejects.toThrow(NonRetryableError);
    expect(server.hits.get('/private/page')).toBeUndefined();
    await expect(fetchPage(`${server.origin}/to-metadata`, options)).rejects.toThrow(EgressBlockedError);
  });
  it('stops a redirect loop, reads 404 and 429 as render does', async () => {
    await expect(fetchPage(`${server.origin}/loop`, options)).rejects.toThrow(/redirects/);
    await expect(fetchPage(`${server.origin}/nowhere`, options)).rejects.toThrow(NonRetryableError);
    const busy = await fetchPage(`${server.origin}/busy`, options).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(RetryLaterError);
    expect((busy as RetryLaterError).retryAfterMs).toBe(30_000);
  });
  it('hands a body that is not HTML or over the size cap to render, and decodes the charset the server names', async () => {
    expect(await fetchPage(`${server.origin}/feed.xml`, options)).toMatchObject({ ok: false, reason: expect.stringContaining('not HTML') });
    expect(await fetchPage(`${server.origin}/big`, options)).toMatchObject({ ok: false, reason: expect.stringContaining('larger') });
    const latin = await fetchPage(`${server.origin}/latin1`, options);
    expect(latin.ok && latin.html).toBe('<p>café</p>');
  });
  it("keeps to its deadline while a redirect target's robots.txt never answers", async () => {
    // a second host that accepts the request for its robots.txt and never answers it
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentOrigin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const hop = await serveRoutes({ '/away': { status: 302, body: '', headers: { location: `${silentOrigin}/story` } } });
    try {
      const config = loadConfig({ allowHosts: [new URL(hop.origin).host, new URL(silentOrigin).host], hostIntervalMs: 0 });
      const tight = { ...options, policy: egressPolicyFor(config), politeness: new Politeness(config), timeoutMs: 500 };
      // the robots.txt request's own timeout is 15 s, past this test's 5 s: only the fetch's deadline ends it
      await expect(fetchPage(`${hop.origin}/away`, tight)).rejects.toThrow(/exceeded 500 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await hop.close();
    }
  });
});
