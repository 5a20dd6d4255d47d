/**
 * A stored page drawn in Chromium for the report, offline: its snapshot is answered at the page's URL
 * (request interception), every other request is refused, and its scripts do not run (a
 * `script-src 'none'` policy: the snapshot is the DOM after they ran). So the picture shows the page
 * as its stored DOM and inline styles lay it out; stylesheets and images it loaded from elsewhere
 * are missing. The boxes are measured in the same layout the screenshot shows.
 *
 * The browser is launched with the renderer's flags (lib/render/browser.ts) and a proxy that does not
 * exist: should a request ever get past the interception, it reaches nothing.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { chromiumArgs, puppeteerSignals } from '../render/browser';
import type { Mark } from './marks';

/** A port nothing listens on: the renderer's flags send every request to this "proxy", which refuses it. */
const NO_PROXY = 'http://127.0.0.1:9';

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Box extends Mark, Rect {}

export interface Picture {
  readonly png: Buffer;
  /** The picture's size in CSS pixels (the page's width, its height up to maxHeight). */
  readonly width: number;
  readonly height: number;
  /** The page's full height, in CSS pixels. */
  readonly pageHeight: number;
  /** The marked elements with their rectangles in page coordinates; those drawn nowhere (hidden, or below the picture) left out. */
  readonly boxes: readonly Box[];
  /** Marks whose element (or run of bare prose) has no box in the picture (not found, not displayed, or below maxHeight). */
  readonly unseen: readonly Mark[];
}

export interface PictureRequest {
  readonly url: string;
  readonly snapshot: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly marks: readonly Mark[];
  /** The picture stops this far down the page (CSS pixels; default 6,000). */
  readonly maxHeight?: number;
}

export interface ReportBrowserOptions {
  /**
   * Whether puppeteer handles SIGINT, SIGTERM and SIGHUP (default true: it closes Chromium, and on
   * SIGINT exits the process). False in a process that stops on them itself (the CLI: it closes the
   * browser and exits 128 + the signal), as the renderer's option of the same name.
   */
  readonly handleSignals?: boolean;
}

export function launchReportBrowser(options: ReportBrowserOptions = {}): Promise<Browser> {
  return chromium.executablePath().then((executablePath) =>
    puppeteer.launch({ executablePath, args: chromiumArgs(NO_PROXY), headless: 'shell', ...puppeteerSignals(options.handleSignals) }),
  );
}

export async function drawPage(browser: Browser, request: PictureRequest): Promise<Picture> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: request.viewport.width, height: request.viewport.height });
    await page.setRequestInterception(true);
    let answered = false;
    page.on('request', (req: HTTPRequest) => {
      if (req.isInterceptResolutionHandled()) return;
      if (!answered && req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        answered = true;
        void req.respond({
          status: 200,
          contentType: 'text/html; charset=utf-8',
          headers: { 'content-security-policy': "script-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'" },
          body: request.snapshot,
        });
        return;
      }
      void req.abort('blockedbyclient');
    });
    await page.goto(request.url, { waitUntil: 'load', timeout: 30_000 });
    // no named function inside: the bundler's name helper does not exist in the page
    const measured = await page.evaluate((targets: Array<[string, string | null]>) => {
      const rects = targets.map(([path, until]) => {
        let el: Element | null;
        let end: Element | null = null;
        try {
          el = document.querySelector(path);
          if (until !== null) end = document.querySelector(until);
        } catch {
          return null;
        }
        if (!el) return null;
        let r: DOMRect;
        if (until === null) r = el.getBoundingClientRect();
        else {
          // bare prose: what lies between the element and its sibling `until`
          if (!end || end.parentNode !== el.parentNode) return null;
          const range = document.createRange();
          range.setStartAfter(el);
          range.setEndBefore(end);
          r = range.getBoundingClientRect();
          // in the flow between the two (an inline child positioned elsewhere stretches the range's box)
          const top = Math.max(r.top, el.getBoundingClientRect().bottom);
          const bottom = Math.min(r.bottom, end.getBoundingClientRect().top);
          if (bottom > top) r = new DOMRect(r.left, top, r.width, bottom - top);
        }
        return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
      });
      const root = document.documentElement;
      return { rects, width: root.scrollWidth, height: Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0) };
    }, request.marks.map((m): [string, string | null] => [m.path, m.until ?? null]));
    const width = request.viewport.width;
    const height = Math.min(Math.ceil(measured.height), request.maxHeight ?? 6000);
    const png = Buffer.from(await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width, height }, captureBeyondViewport: true }));
    const boxes: Box[] = [];
    const unseen: Mark[] = [];
    request.marks.forEach((m, i) => {
      const r = measured.rects[i];
      if (r && r.width > 0 && r.height > 0 && r.y < height) boxes.push({ ...m, ...r });
      else unseen.push(m);
    });
    return { png, width, height, pageHeight: measured.height, boxes, unseen };
  } finally {
    await context.close().catch(() => undefined);
  }
}
