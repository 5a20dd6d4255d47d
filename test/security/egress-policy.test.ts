/**
 * The egress guard without a browser: address classification (every spelling of the metadata IP),
 * the policy (schemes, ports, allowlist), the proxy (plain HTTP and CONNECT, pinning against DNS
 * rebinding) and safeFetch (every redirect hop checked). Nothing connects outside 127.0.0.0/8.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../lib/net/address';
import { EgressPolicy } from '../../lib/net/egress-policy';
import { BLOCKED_HEADER, EgressProxy, type EgressEvent } from '../../lib/net/egress-proxy';
import { safeFetch } from '../../lib/net/safe-fetch';
import { EgressBlockedError, isNonRetryable } from '../../lib/util/errors';
import { serveRoutes, type TestServer } from '../helpers/http-server';
import { hostileResolver, loopbackOnlyDialer } from './hostile';

describe('address classification', () => {
  it.each([
    ['169.254.169.254', 'linkLocal'],
    ['2852039166', 'linkLocal'], // decimal
    ['0xa9fea9fe', 'linkLocal'], // hex
    ['0xA9.0xFE.0xA9.0xFE', 'linkLocal'],
    ['0251.0376.0251.0376', 'linkLocal'], // octal
    ['169.254.43518', 'linkLocal'], // a.b.c with a 16-bit tail
    ['::ffff:169.254.169.254', 'linkLocal'], // IPv4-mapped
    ['[::ffff:a9fe:a9fe]', 'linkLocal'],
    ['::a9fe:a9fe', 'linkLocal'], // IPv4-compatible
    ['64:ff9b::a9fe:a9fe', 'linkLocal'], // NAT64
    ['2002:a9fe:a9fe::1', 'linkLocal'], // 6to4
    ['fd00:ec2::254', 'uniqueLocal'], // AWS IPv6 metadata
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['fe80::1', 'linkLocal'],
    ['168.63.129.16', 'cloud-metadata'],
  ])('%s is not public (%s)', (address, range) => {
    const c = classifyAddress(address);
    expect(c.public).toBe(false);
    expect(c.range).toBe(range);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(classifyAddress(address).public).toBe(true);
  });
});

describe('egress policy', () => {
  const policy = new EgressPolicy({ resolver: hostileResolver() });

  it('allows only http(s) on ports 80 and 443 by default, and no credentials', () => {
    expect(policy.checkUrl('file:///proc/self/environ')).toMatch(/file: scheme is not allowed/);
    expect(policy.checkUrl('chrome://version')).toMatch(/chrome: scheme/);
    expect(policy.checkUrl('javascript:alert(1)')).toMatch(/javascript: scheme/);
    expect(policy.checkUrl('data:text/html,hi')).toMatch(/data: scheme/);
    expect(policy.checkUrl('ftp://example.com/')).toMatch(/ftp: scheme/);
    expect(policy.checkUrl('http://example.com:22/')).toBe('port 22 of example.com is not allowed (80 and 443 only unless allowlisted: SPIDER_ALLOW_HOSTS=example.com:22)');
    expect(policy.checkUrl('http://user:pw@example.com/')).toMatch(/credentials/);
    expect(policy.checkUrl('https://example.com/')).toBeUndefined();
    expect(policy.checkUrl('http://2852039166/')).toMatch(/169\.254\.169\.254 is a link-local address/);
    expect(policy.checkUrl('http://[::ffff:7f00:1]/')).toMatch(/loopback/);
  });

  it('resolves names and refuses any private answer without naming the address (issue 18, item 4)', async () => {
    expect(await policy.resolve('evil.test', 80)).toMatchObject({ allowed: false, reason: 'evil.test was refused: it resolves to an address that is not public' });
    expect(await policy.resolve('metadata.test', 80)).toMatchObject({ allowed: false, reason: 'metadata.test was refused: it resolves to an address that is not public' });
    expect(await policy.resolve('metadata6.test', 443)).toMatchObject({ allowed: false, reason: 'metadata6.test was refused: it resolves to an address that is not public' });
    expect(await policy.resolve('mixed.test', 80)).toMatchObject({ allowed: false }); // one private answer is enough
    expect(await policy.resolve('mapped.test', 80)).toMatchObject({ allowed: false, reason: expect.not.stringMatching(/127\.0\.0\.1|::ffff/) });
    expect(await policy.resolve('no-such-host.test', 80)).toMatchObject({ allowed: false, retryable: false, noSuchHost: true, reason: 'cannot resolve no-such-host.test: no such host (ENOTFOUND)' });
  });

  it('lets the allowlist through: host patterns with or without a port, networks', async () => {
    const p = new EgressPolicy({ allowHosts: ['127.0.0.1:8080', '*.localhost', 'evil.test'], allowNetworks: ['10.0.0.0/8'], resolver: hostileResolver() });
    expect(p.checkUrl('http://127.0.0.1:8080/')).toBeUndefined();
    expect(p.checkUrl('http://127.0.0.1:9001/')).toMatch(/port 9001/);
    expect(p.checkUrl('http://news.localhost:1234/')).toBeUndefined();
    expect(await p.resolve('evil.test', 5555)).toMatchObject({ allowed: true, addresses: [{ address: '127.0.0.1' }] });
    expect(await p.resolve('intranet.test', 80)).toMatchObject({ allowed: true, addresses: [{ address: '10.0.0.5' }] });
    expect(await p.resolve('intranet.test', 8080)).toMatchObject({ allowed: false, reason: expect.stringMatching(/port 8080/) });
    expect(await p.resolve('metadata.test', 80)).toMatchObject({ allowed: false });
  });

  it('names the allowlist pattern it refuses', () => {
    expect(() => new EgressPolicy({ allowHosts: ['127.0.0.1:8080', 'http://intranet.test/'] })).toThrow(/^not a host pattern: no scheme or path, .* \(given: "http:\/\/intranet\.test\/"\)$/);
    expect(() => new EgressPolicy({ allowHosts: ['x.localhost:99999'] })).toThrow('invalid port in a host pattern: expected 1 to 65535 or * (given: "x.localhost:99999")');
  });
});

describe('egress proxy', () => {
  let site: TestServer;
  let proxy: EgressProxy;
  let resolver: ReturnType<typeof hostileResolver>;
  const dialer = loopbackOnlyDialer();
  const events: EgressEvent[] = [];

  beforeAll(async () => {
    site = await serveRoutes({ '/': { body: 'hello from the allowed site' }, '/secret': { body: 'internal secret' } });
    const port = Number(new URL(site.origin).port);
    resolver = hostileResolver();
    // rebind.test's first answer is allowed (127.0.0.1/32 on the site's port), its later answers are not.
    const policy = new EgressPolicy({ allowHosts: [`127.0.0.1:${port}`], allowNetworks: ['127.0.0.1/32'], allowPorts: [port], resolver });
    proxy = new EgressProxy(policy, { dial: dialer.dial, onEvent: (e) => events.push(e) });
    await proxy.listen();
  });
  afterAll(async () => {
    await proxy?.close();
    await site?.close();
  });

  const viaProxy = (target: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'GET', path: target, headers: { host: new URL(target).host } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  const connect = (target: string) =>
    new Promise<string>((resolve, reject) => {
      const s = net.connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
      let data = '';
      s.on('data', (c) => {
        data += c;
        if (data.includes('\r\n\r\n')) {
          s.destroy();
          resolve(data.split('\r\n')[0]);
        }
      });
      s.on('error', reject);
      s.on('close', () => resolve(data.split('\r\n')[0]));
    });

  it('forwards allowed plain HTTP and refuses the metadata endpoint with a reason header', async () => {
    const ok = await viaProxy(`${site.origin}/`);
    expect(ok.body).toBe('hello from the allowed site');
    const refused = await viaProxy('http://169.254.169.254/latest/meta-data/');
    expect(refused.status).toBe(403);
    expect(decodeURIComponent(String(refused.headers[BLOCKED_HEADER]))).toMatch(/link-local/);
    expect(dialer.outside).toEqual([]);
  });

  it('refuses CONNECT tunnels to private destinations (HTTPS, WebSockets)', async () => {
    expect(await connect('169.254.169.254:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(await connect('[fd00:ec2::254]:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(await connect('127.0.0.1:9001')).toMatch(/^HTTP\/1\.1 403/);
    expect(await connect('intranet.test:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(await connect('metadata.test:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(dialer.outside).toEqual([]);
  });

  it('pins each connection to the address it checked: a rebinding answer cannot slip in', async () => {
    const port = new URL(site.origin).port;
    const before = dialer.dialled.length;
    const first = await viaProxy(`http://rebind.test:${port}/secret`);
    expect(first.body).toBe('internal secret'); // the first answer (127.0.0.1) was checked and used
    expect(dialer.dialled.slice(before)).toEqual([`127.0.0.1:${port}`]);
    const second = await viaProxy(`http://rebind.test:${port}/secret`);
    expect(second.status).toBe(403); // the rebound answer (169.254.169.254) is checked, not dialled
    expect(resolver.calls.get('rebind.test')).toBe(2); // one resolution per request, never a second one to connect
    expect(dialer.outside).toEqual([]);
    expect(events.filter((e) => e.kind === 'refused').map((e) => e.host)).toContain('rebind.test');
  });
});

describe('safeFetch', () => {
  let site: TestServer;
  let policy: EgressPolicy;
  beforeAll(async () => {
    site = await serveRoutes({
      '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n', type: 'text/plain' },
      '/to-metadata': { status: 302, body: '', headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/to-evil': { status: 301, body: '', headers: { location: '/hop2' } },
      '/hop2': { status: 302, body: '', headers: { location: 'http://evil.test/' } },
      '/to-file': { status: 302, body: '', headers: { location: 'file:///proc/self/environ' } },
      '/big': { body: 'x'.repeat(100_000), type: 'text/plain' },
    });
    policy = new EgressPolicy({ allowHosts: [`127.0.0.1:${new URL(site.origin).port}`], resolver: hostileResolver() });
  });
  afterAll(() => site?.close());

  it('fetches an allowed URL', async () => {
    const res = await safeFetch(`${site.origin}/robots.txt`, { policy, userAgent: 'spider-test' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('Disallow: /private');
  });

  it('checks every redirect hop: metadata, a name resolving to loopback, file:', async () => {
    for (const [path, reason] of [['/to-metadata', /link-local/], ['/to-evil', /^(?!.*127\.0\.0\.1).*evil\.test was refused/], ['/to-file', /file: scheme/]] as const) {
      const error = await safeFetch(`${site.origin}${path}`, { policy, userAgent: 'spider-test' }).catch((e) => e);
      expect(error).toBeInstanceOf(EgressBlockedError);
      expect(isNonRetryable(error)).toBe(true);
      expect(error.message).toMatch(reason);
    }
  });

  it('caps the body', async () => {
    const res = await safeFetch(`${site.origin}/big`, { policy, userAgent: 'spider-test', maxBytes: 1000 });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(1000);
  });
});
