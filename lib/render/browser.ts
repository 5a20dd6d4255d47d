/**
 * One headless Chromium per process (@sparticuz/chromium, the same binary locally and in Lambda),
 * launched on first use, reused across messages and relaunched if it dies. Each render gets its own
 * browser context (no cookies, cache or service workers shared between pages) and one page, closed afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type HTTPRequest, type HTTPResponse, type Page } from 'puppeteer-core';
import type { Config } from '../config/config';
import type { CollectedPage } from '../types/feature-document';
import { NonRetryableError } from '../util/errors';
import { collectPage, type CollectOptions } from './collector';

/**
 * @sparticuz/chromium defaults this project will not run with: the two that weaken the web's security
 * model, and --single-process, which cannot open isolated browser contexts and lets one crashing tab
 * take the whole browser down (multi-process with --no-zygote runs in Lambda too).
 */
const DROPPED_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);
const EXTRA_ARGS = [
  '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync',
  '--disable-dev-shm-usage', // Lambda's /dev/shm is tiny; shared memory goes to /tmp instead
];

export type RendererConfig = Pick<
  Config,
  'viewportWidth' | 'viewportHeight' | 'navigationTimeoutMs' | 'renderTimeoutMs' | 'archiveAllowSubresources' | 'maxHtmlBytes' | 'maxBlocks' | 'userAgent'
>;

export interface RenderRequest {
  readonly url: string;
  /** Archived HTML answered for the document request at `url`, instead of fetching it live. */
  readonly archivedHtml?: string;
}

export interface RenderResult {
  readonly finalUrl: string;
  readonly status: number;
  readonly collected: CollectedPage;
  /** The rendered DOM, serialized with its doctype. */
  readonly snapshot: string;
  readonly elapsedMs: number;
}

export class Renderer {
  private browser?: Promise<Browser>;
  private userDataDir?: string;

  constructor(private readonly config: RendererConfig) {}

  async render(request: RenderRequest): Promise<RenderResult> {
    const started = Date.now();
    const browser = await this.launch();
    const context = await browser.createBrowserContext();
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`render of ${request.url} exceeded ${this.config.renderTimeoutMs} ms`)),
          this.config.renderTimeoutMs,
        );
      });
      const page = await context.newPage();
      const result = await Promise.race([this.renderIn(page, request), deadline]);
      return { ...result, elapsedMs: Date.now() - started };
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => undefined);
    }
  }

  /** The running browser's profile folder (removed on close). */
  get profileDir(): string | undefined {
    return this.userDataDir;
  }

  /** Pages open in the running browser, across its contexts (0 when none runs). */
  async openPages(): Promise<number> {
    const browser = await this.browser?.catch(() => undefined);
    if (!browser) return 0;
    let n = 0;
    for (const context of browser.browserContexts()) n += (await context.pages()).length;
    return n;
  }

  async close(): Promise<void> {
    const pending = this.browser;
    this.browser = undefined;
    if (pending) {
      const browser = await pending.catch(() => undefined);
      if (browser) await closeBounded(browser, 5000);
    }
    if (this.userDataDir) await rm(this.userDataDir, { recursive: true, force: true });
    this.userDataDir = undefined;
  }

  /** The shared browser, launched (again) when there is none or it has died. */
  private launch(): Promise<Browser> {
    if (!this.browser) {
      const launching = (async () => {
        this.userDataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-chromium-'));
        const args = chromium.args.filter((a) => !DROPPED_ARGS.has(a));
        const browser = await puppeteer.launch({
          executablePath: await chromium.executablePath(),
          args: [...args, ...EXTRA_ARGS],
          headless: 'shell',
          userDataDir: this.userDataDir,
          defaultViewport: { width: this.config.viewportWidth, height: this.config.viewportHeight },
          protocolTimeout: this.config.renderTimeoutMs + 10_000,
        });
        browser.once('disconnected', () => {
          if (this.browser === launching) this.browser = undefined;
        });
        return browser;
      })();
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = undefined;
      });
    }
    return this.browser;
  }

  private async renderIn(page: Page, request: RenderRequest): Promise<Omit<RenderResult, 'elapsedMs'>> {
    const { config } = this;
    await page.setUserAgent({ userAgent: config.userAgent });
    await page.setViewport({ width: config.viewportWidth, height: config.viewportHeight });
    page.setDefaultNavigationTimeout(config.navigationTimeoutMs);
    await page.setRequestInterception(true);
    let documentAnswered = false;
    page.on('request', (req: HTTPRequest) => {
      if (req.isInterceptResolutionHandled()) return;
      const isMainDocument = req.isNavigationRequest() && req.frame() === page.mainFrame();
      if (request.archivedHtml !== undefined) {
        if (isMainDocument && !documentAnswered) {
          documentAnswered = true;
          void req.respond({ status: 200, contentType: 'text/html; charset=utf-8', body: request.archivedHtml });
        } else if (config.archiveAllowSubresources && !isMainDocument) {
          void req.continue();
        } else {
          void req.abort('blockedbyclient');
        }
        return;
      }
      void req.continue();
    });

    // The last main-document response: Chromium aborts navigations to downloads (PDF, archives),
    // and then only this response tells why.
    let documentResponse: HTTPResponse | undefined;
    page.on('response', (res) => {
      if (res.request().isNavigationRequest() && res.frame() === page.mainFrame()) documentResponse = res;
    });
    const checkDocument = (res: HTTPResponse | undefined) => {
      const status = res?.status() ?? 200;
      if (status >= 400 && status < 500) throw new NonRetryableError(`HTTP ${status} for ${request.url}`);
      if (status >= 500) throw new Error(`HTTP ${status} for ${request.url}`);
      const contentType = res?.headers()['content-type'] ?? 'text/html';
      if (!/html|xml/i.test(contentType)) throw new NonRetryableError(`not an HTML page (${contentType}): ${request.url}`);
      return status;
    };
    let response: HTTPResponse | null;
    try {
      response = await page.goto(request.url, { waitUntil: 'load', timeout: config.navigationTimeoutMs });
    } catch (error) {
      if (documentResponse) checkDocument(documentResponse);
      throw error;
    }
    const status = checkDocument(response ?? documentResponse);
    if (request.archivedHtml === undefined) {
      // Live pages may still be filling in content after load: give them a short quiet period, bounded.
      await page.waitForNetworkIdle({ idleTime: 250, concurrency: 2, timeout: 3000 }).catch(() => undefined);
    }

    const options: CollectOptions = { maxBlocks: config.maxBlocks };
    // Bundlers may wrap named functions in a `__name(...)` helper; give the page a no-op one.
    const collected = (await page.evaluate(
      `(() => { const __name = (f) => f; return (${collectPage.toString()})(document, null, ${JSON.stringify(options)}); })()`,
    )) as CollectedPage;
    // The snapshot carries the page's URL so apply needs no second read to know it.
    const snapshot = (await page.evaluate(`(() => {
      const head = document.head || document.documentElement;
      const meta = document.createElement('meta');
      meta.setAttribute('name', 'spider:url');
      meta.setAttribute('content', ${JSON.stringify(request.url)});
      head.insertBefore(meta, head.firstChild);
      const dt = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
      return dt + document.documentElement.outerHTML;
    })()`)) as string;
    if (Buffer.byteLength(snapshot) > config.maxHtmlBytes) {
      throw new NonRetryableError(`rendered page is larger than ${config.maxHtmlBytes} bytes: ${request.url}`);
    }
    return { finalUrl: page.url(), status, collected, snapshot };
  }
}

async function closeBounded(browser: Browser, ms: number): Promise<void> {
  const proc = browser.process();
  const closed = browser.close().then(() => true, () => false);
  const inTime = await Promise.race([closed, new Promise<false>((r) => setTimeout(() => r(false), ms).unref())]);
  if (!inTime && proc && proc.exitCode === null) proc.kill('SIGKILL');
}
