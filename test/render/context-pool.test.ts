/**
 * Contexts kept between renders (lib/render/context-pool.ts), with real Chromium: a context serves
 * several renders, and nothing a page stored reaches the next page rendered in it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { Renderer } from '../../lib/render/browser';
import { serveRoutes, type TestServer } from '../helpers/http-server';

/** Leaves a cookie (HTTP and script), local and session storage, an IndexedDB database and a Cache Storage entry. */
const setter = `<!doctype html><title>Set</title><p>Setting state.</p><script>
  document.cookie = 'script=2; max-age=3600';
  localStorage.setItem('k', 'left by the last page');
  sessionStorage.setItem('s', 'left by the last page');
  indexedDB.open('left-behind', 1).onsuccess = () => { document.body.dataset.idb = 'done'; };
  caches.open('left-behind').then((c) => c.put('/cached', new Response('x')));
</script>`;

/** Writes what it finds of that state into its text. */
const reader = (cookieHeader: string | undefined) => `<!doctype html><title>Read</title>
<p id="header">cookie header: ${cookieHeader ?? 'none'}</p><p id="state">state: pending</p><script>
  (async () => {
    const dbs = (await indexedDB.databases()).map((d) => d.name).join(',') || 'none';
    const cached = (await caches.keys()).join(',') || 'none';
    document.getElementById('state').textContent = 'state: cookie=' + (document.cookie || 'none') +
      ' local=' + localStorage.getItem('k') + ' session=' + sessionStorage.getItem('s') + ' idb=' + dbs + ' caches=' + cached;
  })();
</script>`;

describe('contexts kept between renders (real Chromium)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serveRoutes({
      '/set': { body: setter, headers: { 'set-cookie': 'http=1; Max-Age=3600; Path=/' } },
      '/read': (req) => ({ body: reader(req.headers.cookie) }),
      '/missing': { status: 404, body: 'gone' },
      '/popup': (req) => ({ body: `<!doctype html><title>Popup</title><p>Opening a window.</p><script>window.open('http://localhost:${req.socket.localPort}/set');</script>` }),
    });
  });
  afterAll(() => server?.close());

  const textOf = async (renderer: Renderer, path: string) => (await renderer.render({ url: `${server.origin}${path}` })).collected.blocks.map((b) => b.text);

  it('serves several renders from one context, and no cookie or storage of a page reaches the next', async () => {
    const renderer = new Renderer(loadConfig({ renderTimeoutMs: 20_000 }));
    try {
      await textOf(renderer, '/set');
      const read = await textOf(renderer, '/read');
      // The same context (and so the same cookie jar and storage partition) served both renders...
      expect(await renderer.contextsOpened()).toBe(1);
      // ...and the second found nothing the first left.
      expect(read).toEqual(['cookie header: none', 'state: cookie=none local=null session=null idb=none caches=none']);
    } finally {
      await renderer.close();
    }
  });

  it('renders at most renderConcurrency pages at once; the others wait for a render to end', async () => {
    // Each page's answer is held 300 ms: renders that ran together would have their requests open together.
    let open = 0;
    let most = 0;
    const held = createServer((req, res) => {
      most = Math.max(most, ++open);
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Held</title><p>Page ${req.url}, answered after a while.</p>`);
      }, 300);
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const renderer = new Renderer(loadConfig({ renderTimeoutMs: 20_000, renderConcurrency: 2 }));
    try {
      const origin = `http://127.0.0.1:${(held.address() as AddressInfo).port}`;
      const results = await Promise.all([1, 2, 3, 4, 5].map((i) => renderer.render({ url: `${origin}/p${i}` })));
      expect(results.map((r) => r.collected.blocks[0]?.text)).toEqual([1, 2, 3, 4, 5].map((i) => `Page /p${i}, answered after a while.`));
      expect(most).toBe(2);
    } finally {
      await renderer.close();
      held.close();
    }
  });

  it('closes a context in which the page opened a window of its own (its documents are not the render\'s to clean)', async () => {
    const renderer = new Renderer(loadConfig({ renderTimeoutMs: 20_000 }));
    try {
      await textOf(renderer, '/popup');
      await textOf(renderer, '/read');
      expect(await renderer.contextsOpened()).toBe(2);
    } finally {
      await renderer.close();
    }
  });

  it('closes the context of a failed render, and opens a fresh one per render with renderContextUses 1', async () => {
    const kept = new Renderer(loadConfig({ renderTimeoutMs: 20_000 }));
    const fresh = new Renderer(loadConfig({ renderTimeoutMs: 20_000, renderContextUses: 1 }));
    try {
      await textOf(kept, '/read');
      const pagesAfterOne = await kept.openPages(); // the browser's first blank tab
      await expect(kept.render({ url: `${server.origin}/missing` })).rejects.toThrow(/404/);
      await textOf(kept, '/read');
      expect(await kept.contextsOpened()).toBe(2);
      expect(await kept.openPages()).toBe(pagesAfterOne);

      for (let i = 0; i < 3; i++) await textOf(fresh, '/read');
      expect(await fresh.contextsOpened()).toBe(3);
    } finally {
      await kept.close();
      await fresh.close();
    }
  });
});
