/**
 * Render faults with real Chromium in one long-lived Renderer: a server that never answers, a
 * document that never finishes, a subresource that never finishes, a script that never yields
 * (rendered again without scripts), a page that exhausts memory (its tab crashes), thousands of frames, hundreds of thousands of elements, a 50 MB
 * page (with and without Content-Length), non-HTML responses, a full /tmp. Each is cut off with a
 * clear error of the right retry meaning, and the next render of a normal page works.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { Renderer } from '../../lib/render/browser';
import { HostBusyError, isNonRetryable } from '../../lib/util/errors';

const FIFTY_MB = 50 * 1024 * 1024;
const BUSY_PARAGRAPHS = ['The council met on Tuesday to vote on the new bridge.', 'Work is to start in the spring and last two years.'];
const BUSY_ARTICLE = `<article><h1>A bridge for the town</h1>${BUSY_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</article>`;
const normal = '<!doctype html><html><head><title>Normal</title></head><body><h1>Normal page</h1><p>All is well.</p></body></html>';

let server: http.Server;
let origin = '';
let renderer: Renderer;
const held = new Set<http.ServerResponse>();
/** Every request the server received, path and query. */
const asked: string[] = [];

beforeAll(async () => {
  const chunk = Buffer.from('<p>Some words of a paragraph in a very long page, repeated over and over.</p>\n'.repeat(13_000)); // ~1 MB
  server = http.createServer((req, res) => {
    asked.push(req.url!);
    const p = new URL(req.url!, 'http://x').pathname;
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    switch (p) {
      case '/normal':
        return html(normal);
      case '/hang': // headers never come
      case '/slow.png':
        held.add(res);
        return;
      case '/endless-doc': // the document never ends
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><html><head><title>Endless</title></head><body><h1>Starts</h1>');
        held.add(res);
        return;
      case '/never-loads':
        return html('<!doctype html><html><head><title>Never loads</title></head><body><h1>Content is here</h1><p>But an image never arrives.</p><img src="/slow.png"></body></html>');
      case '/busy-inline': // the article, then a script that never stops (the parser never gets the thread back)
        return html(`<!doctype html><html><head><title>Busy</title></head><body>${BUSY_ARTICLE}<script>while (true) {}</script></body></html>`);
      case '/busy-after-load': // a loop started 100 ms after load
        return html(`<!doctype html><html><head><title>Busy later</title></head><body>${BUSY_ARTICLE}<script>onload = () => setTimeout(() => { while (true) {} }, 100);</script></body></html>`);
      case '/memory-hog':
        return html('<!doctype html><html><head><title>Hog</title></head><body><h1>Hog</h1><script>const a = []; for (;;) a.push(new Array(1e6).fill(Math.random()));</script></body></html>');
      case '/frames':
        return html('<!doctype html><html><head><title>Frames</title></head><body><h1>Frames</h1><script>for (let i = 0; i < 3000; i++) document.body.appendChild(document.createElement("iframe"));</script></body></html>');
      case '/elements':
        return html('<!doctype html><html><head><title>Elements</title></head><body><h1>Elements</h1><script>const f = document.createDocumentFragment(); for (let i = 0; i < 60000; i++) f.appendChild(document.createElement("span")); document.body.appendChild(f);</script></body></html>');
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(FIFTY_MB) });
        res.write('<!doctype html><html><body>');
        let sent = 0;
        const pump = () => {
          while (sent < FIFTY_MB - 2 * chunk.length) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => res.removeAllListeners('drain'));
        return pump();
      }
      case '/huge-chunked': {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<!doctype html><html><body>');
        let sent = 0;
        const pump = () => {
          while (sent < FIFTY_MB) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end('</body></html>');
        };
        res.on('close', () => res.removeAllListeners('drain'));
        return pump();
      }
      case '/doc.pdf':
        return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n%%EOF\n');
      case '/image.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a', 'hex'));
      case '/gone':
        return res.writeHead(410, { 'content-type': 'text/html' }).end('<h1>Gone</h1>');
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  renderer = new Renderer(
    loadConfig({ allowHosts: [new URL(origin).host], navigationTimeoutMs: 3000, renderTimeoutMs: 6000, maxElements: 50_000, maxFrames: 100, pageHeapMb: 128, maxHtmlBytes: 2 * 1024 * 1024 }),
  );
});

afterAll(async () => {
  await renderer?.close();
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function expectNormalNext(r: Renderer = renderer): Promise<void> {
  const next = await r.render({ url: `${origin}/normal` });
  expect(next.collected.blocks.map((b) => b.text)).toEqual(['Normal page', 'All is well.']);
}

describe('render faults (real Chromium)', () => {
  it("the host's turn is taken just before navigation: a turn refused requests nothing and keeps the browser context", async () => {
    await expectNormalNext();
    const opened = await renderer.contextsOpened();
    const turns: string[] = [];
    const error = await renderer
      .render({ url: `${origin}/normal?turn=refused`, takeTurn: async () => { turns.push('refused'); throw new HostBusyError('127.0.0.1', 5000); } })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(HostBusyError);
    expect(turns).toEqual(['refused']);
    expect(asked.filter((u) => u.includes('turn='))).toEqual([]);
    // A turn granted: the page is requested after it, once.
    const result = await renderer.render({ url: `${origin}/normal?turn=granted`, takeTurn: async () => void turns.push(`granted; requested before: ${asked.includes('/normal?turn=granted')}`) });
    expect(result.collected.blocks).toHaveLength(2);
    expect(turns).toEqual(['refused', 'granted; requested before: false']);
    expect(asked.filter((u) => u.includes('turn='))).toEqual(['/normal?turn=granted']);
    expect(await renderer.contextsOpened()).toBe(opened);
  });

  it('a server that never answers: a retryable timeout', async () => {
    const error = await renderer.render({ url: `${origin}/hang` }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isNonRetryable(error)).toBe(false);
    expect((error as Error).message).toMatch(/timeout|exceeded/i);
    await expectNormalNext();
  });

  it('a document that never finishes: a retryable timeout', async () => {
    const error = await renderer.render({ url: `${origin}/endless-doc` }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isNonRetryable(error)).toBe(false);
    expect((error as Error).message).toMatch(/Navigation timeout of 3000 ms exceeded/);
    await expectNormalNext();
  });

  it('a page whose subresource never finishes loading is stopped and rendered as it stands', async () => {
    const result = await renderer.render({ url: `${origin}/never-loads` });
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['Content is here', 'But an image never arrives.']);
  });

  it("a page whose own script never yields, while it loads or after: its article from the HTML as served with JavaScript off, in one render; the browser goes on", async () => {
    // Its own renderer: the navigation's 3 s (or the page's 3 s to answer after load), the probe, the
    // script stopped, the page closed, then the render without scripts take some 4-4.5 s, all within
    // one render deadline, which the shared renderer's 6 s would leave too little room on a loaded machine.
    const patient = new Renderer(loadConfig({ allowHosts: [new URL(origin).host], navigationTimeoutMs: 3000, renderTimeoutMs: 12_000, maxHtmlBytes: 2 * 1024 * 1024 }));
    try {
      await expectNormalNext(patient);
      const browser = await patient.browserPid();
      const pages = await patient.openPages(); // the browser's first blank tab
      for (const p of ['/busy-inline', '/busy-after-load']) {
        const result = await patient.render({ url: `${origin}${p}` });
        expect(result.renderMode, p).toBe('no-script');
        expect(result.collected.blocks.map((b) => b.text), p).toEqual(['A bridge for the town', ...BUSY_PARAGRAPHS]);
        expect(result.served, p).toContain('while (true) {}');
        // The page whose renderer spun is closed, and the next render, in the same browser, is normal.
        expect(await patient.openPages(), p).toBe(pages);
        await expectNormalNext(patient);
        expect(await patient.browserPid(), p).toBe(browser);
      }
    } finally {
      await patient.close();
    }
  });

  it('a page that tries to exhaust memory crashes its own tab, not the renderer', async () => {
    const error = await renderer.render({ url: `${origin}/memory-hog` }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    // the tab's crash, as the page reports it or as the navigation sees its target go
    expect((error as Error).message).toMatch(/crash|Target closed/i);
    await expectNormalNext();
  });

  it('thousands of frames and tens of thousands of elements hit their caps', async () => {
    const frames = await renderer.render({ url: `${origin}/frames` }).catch((e: Error) => e);
    expect(isNonRetryable(frames)).toBe(true);
    expect((frames as Error).message).toMatch(/more than 100 frames/);
    await expectNormalNext();
    const elements = await renderer.render({ url: `${origin}/elements` }).catch((e: Error) => e);
    expect(isNonRetryable(elements)).toBe(true);
    expect((elements as Error).message).toMatch(/elements, more than the 50000 cap/);
    await expectNormalNext();
  });

  it('a 50 MB page is refused as it downloads, with or without Content-Length', async () => {
    for (const p of ['/huge', '/huge-chunked']) {
      const error = await renderer.render({ url: `${origin}${p}` }).catch((e: Error) => e);
      expect(isNonRetryable(error), p).toBe(true);
      expect((error as Error).message).toMatch(/larger than the 2097152-byte cap/);
    }
    await expectNormalNext();
  });

  it('PDF, images and 4xx: clear non-retryable errors', async () => {
    for (const [p, reason] of [['/doc.pdf', /not an HTML page \(application\/pdf\)/], ['/image.png', /not an HTML page \(image\/png\)/], ['/gone', /HTTP 410/]] as const) {
      const error = await renderer.render({ url: `${origin}${p}` }).catch((e: Error) => e);
      expect(isNonRetryable(error), p).toBe(true);
      expect((error as Error).message).toMatch(reason);
    }
    await expectNormalNext();
  });

  it('a full /tmp (the profile folder cannot be made): a clear retryable error, and renders resume once there is room', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-full-'));
    const root = path.join(dir, 'profiles');
    await writeFile(root, 'a file where the folder should be'); // mkdir/mkdtemp fail like a full disk would
    const r = new Renderer(loadConfig({ allowHosts: [new URL(origin).host] }), { profileRoot: root });
    try {
      const error = await r.render({ url: `${origin}/normal` }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(isNonRetryable(error)).toBe(false);
      expect((error as Error).message).toMatch(/cannot create the browser profile folder .*(ENOTDIR|EEXIST)/);
      await rm(root);
      const result = await r.render({ url: `${origin}/normal` });
      expect(result.collected.blocks).toHaveLength(2);
    } finally {
      await r.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
