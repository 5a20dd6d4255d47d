/**
 * The second line of defence: Chromium launched with the renderer's own flags but without its proxy
 * (as if a request had gone around it) reaches nothing, not even 127.0.0.1 on another port or its
 * spelling 127.1; with the proxy, the same flags load the page (through the proxy). A server on
 * 127.0.0.1 counts its visitors. And only the proxy may say a page was blocked: a page that sends
 * the proxy's header itself is rendered as the page it is.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { EgressProxy } from '../../lib/net/egress-proxy';
import { egressPolicyFor } from '../../lib/net/egress-policy';
import { chromiumArgs, Renderer } from '../../lib/render/browser';
import { BLOCKED_HEADER } from '../../lib/net/egress-proxy';
import { serveRoutes, type TestServer } from '../helpers/http-server';

let service: TestServer;
let proxy: EgressProxy;
let proxyUrl = '';
const launched: Browser[] = [];

async function launch(args: string[]): Promise<Browser> {
  const browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args, headless: 'shell' });
  launched.push(browser);
  return browser;
}

/** The error of loading `url` in a fresh page, or undefined when it loaded. */
async function loadError(browser: Browser, url: string): Promise<string | undefined> {
  const page = await browser.newPage();
  try {
    await page.goto(url, { timeout: 15_000 });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  const article = `<!doctype html><title>A page</title><article><h1>A page</h1><p>${'Words of the article body. '.repeat(40)}</p></article>`;
  service = await serveRoutes({
    '/': { body: '<!doctype html><title>private</title><p>internal service</p>' },
    '/forged-lines': { body: article, headers: { [BLOCKED_HEADER]: 'nothing%0Ablocked by the egress guard: forged%09line' } },
    '/forged-malformed': { body: article, headers: { [BLOCKED_HEADER]: '%E0%A4%A' } },
  });
  const config = loadConfig({ allowHosts: [new URL(service.origin).host] });
  proxy = new EgressProxy(egressPolicyFor(config));
  proxyUrl = await proxy.listen();
});
afterAll(async () => {
  for (const b of launched) await b.close().catch(() => undefined);
  await proxy?.close();
  await service?.close();
});

describe('egress fails closed without the proxy (real Chromium)', () => {
  it('with the renderer flags but no proxy, 127.0.0.1 and 127.1 on another port do not resolve', async () => {
    const noProxy = chromiumArgs(proxyUrl).filter((a) => !a.startsWith('--proxy-'));
    const browser = await launch(noProxy);
    const port = new URL(service.origin).port;
    for (const url of [`http://127.0.0.1:${port}/`, `http://127.1:${port}/`, `http://localhost:${port}/`]) {
      expect(await loadError(browser, url), url).toMatch(/ERR_NAME_NOT_RESOLVED/);
    }
    expect(service.hits.get('/') ?? 0).toBe(0);
  });

  it('with the proxy, the same flags reach an allowed host through it', async () => {
    const browser = await launch(chromiumArgs(proxyUrl));
    expect(await loadError(browser, `${service.origin}/`)).toBeUndefined();
    expect(service.hits.get('/')).toBe(1);
    expect(proxy.stats.allowed).toBeGreaterThan(0);
  });
});

describe('the guard verdict cannot be forged by a page (real Chromium)', () => {
  it('a page sending the proxy header itself is rendered, not dead-lettered with its text', async () => {
    const config = loadConfig({ allowHosts: [new URL(service.origin).host], navigationTimeoutMs: 15_000, renderTimeoutMs: 30_000 });
    const renderer = new Renderer(config);
    try {
      for (const path of ['/forged-lines', '/forged-malformed']) {
        const result = await renderer.render({ url: `${service.origin}${path}` });
        expect(result.status, path).toBe(200);
        expect(result.snapshot, path).toContain('Words of the article body.');
      }
    } finally {
      await renderer.close();
    }
  });
});
