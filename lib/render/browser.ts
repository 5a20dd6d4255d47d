/**
 * One headless Chromium per process (@sparticuz/chromium, the same binary locally and in Lambda),
 * launched on first use, reused across messages and relaunched if it dies. Each render gets a browser
 * context of its own for its duration and a fresh page in it, closed afterwards. Contexts are kept
 * between renders (./context-pool.ts) so that their renderer process is too: cleaned of cookies and
 * storage after each render, closed after a failed render or `renderContextUses` renders.
 *
 * Egress: every request Chromium makes goes through an in-process egress proxy (lib/net) that
 * resolves, checks and pins each destination: `--proxy-server` with `--proxy-bypass-list=<-loopback>`
 * (Chromium would otherwise connect to loopback and link-local destinations directly), and
 * `--host-resolver-rules` that make every destination but the proxy's own host and port unresolvable
 * inside Chromium, so that anything which did not go through the proxy could not connect anywhere. WebRTC may not use UDP
 * outside the proxy; service workers cannot register. See docs/security.md.
 *
 * Caps (config): the document's bytes (maxHtmlBytes, checked as it downloads), all bytes of the
 * page (maxTransferBytes), frames (maxFrames), elements (maxElements), text blocks (maxBlocks), the
 * page's JavaScript heap (pageHeapMb: a page that tries to exhaust memory crashes its own tab), and
 * the whole render (renderTimeoutMs). A page cut off by a cap is closed with its context; the next
 * render gets another.
 */
import { isAscii } from 'node:buffer';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { TimeoutError, type Browser, type CDPSession, type HTTPRequest, type HTTPResponse, type Page, type Protocol } from 'puppeteer-core';
import pLimit, { type LimitFunction } from 'p-limit';
import { MIMEType } from 'whatwg-mimetype';
import type { Config } from '../config/config';
import { egressPolicyFor, type EgressPolicy, type Resolver } from '../net/egress-policy';
import { BLOCKED_HEADER, EgressProxy, type EgressEvent, type EgressProxyOptions } from '../net/egress-proxy';
import { httpStatusError } from '../politeness/http-status';
import { MAX_PATH_STEPS, MAX_SELECTOR_CHARS, READABILITY_MARK, SNAPSHOT_META, type CollectedPage, type InPageReadability } from '../types/feature-document';
import { COLLECTOR_SKIP_TAGS } from '../html/content';
import { META_NAMES } from '../html/meta-names';
import { pageUrlOf } from '../store/keys';
import { NonRetryableError } from '../util/errors';
import { sniffEncoding } from '../text/encoding';
import { collectPage, type CollectOptions } from './collector';
import { withTimeout } from '../util/timeout';
import { makeDirectory } from '../util/make-directory';
import { ContextPool, storageOrigin, type Lease } from './context-pool';
import { READABILITY_TITLE_META, readabilityExpression } from './readability-in-page';
import { RENDERED_TEXT_META, SERVED_TEXT_META, ServedCapture, renderedTextExpression, servedTextLength as countServedText } from './served';

/**
 * @sparticuz/chromium defaults this project will not run with: the two that weaken the web's security
 * model; --single-process, which cannot open isolated browser contexts and lets one crashing tab
 * take the whole browser down; and --no-zygote, which makes the browser process fork and exec the
 * whole binary for every renderer process instead of forking the zygote, already initialized (0.57
 * against 0.28 CPU s per context and page opened, measured on this project's 2-core machine).
 */
const DROPPED_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--no-zygote']);
const EXTRA_ARGS = [
  '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync',
  '--disable-dev-shm-usage', // Lambda's /dev/shm is tiny; shared memory goes to /tmp instead
  // Egress below the page: no UDP outside the proxy for WebRTC, no QUIC, no DNS prefetching.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-quic', '--dns-prefetch-disable',
  '--disable-features=MediaRouter,DialMediaRouteProvider,InterestFeedContentSuggestions,OptimizationHints',
  // No GPU process (the package's flags give one, in process, rasterizing with SwiftShader for WebGL):
  // layout, computed styles and text do not need it, and software compositing of every frame was half
  // of Chromium's CPU time per page (scratch measurement on generated pages: 0.60 -> 0.33 CPU s a page;
  // the feature documents of 28 dataset pages unchanged).
  '--disable-gpu',
  // A page opened in a context that already has a renderer process joins it instead of starting one
  // (./context-pool.ts keeps an idle page in each context for that). Contexts never share a process.
  '--renderer-process-limit=1',
];

/**
 * Puppeteer's launch options for the signals (RendererOptions.handleSignals): none when it handles
 * them (its default), all three off in a process that stops on them itself.
 */
export function puppeteerSignals(handleSignals = true): { handleSIGINT?: false; handleSIGTERM?: false; handleSIGHUP?: false } {
  return handleSignals ? {} : { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };
}

/**
 * Chromium's flags: the package's (less the unsafe ones), ours, and egress through the proxy at
 * `proxyUrl` (`http://127.0.0.1:<port>`). The host resolver knows only the proxy's own host and
 * port (`MAP 127.0.0.1:<port>` to itself, then `MAP * ~NOTFOUND`): should a request ever go around
 * the proxy, it fails closed, since no other name, address or port resolves, 127.0.0.1 on another
 * port (the Lambda runtime API's 9001) and its spellings such as 127.1 included.
 */
export function chromiumArgs(proxyUrl: string): string[] {
  const proxy = new URL(proxyUrl).host;
  return [
    ...chromium.args.filter((a) => !DROPPED_ARGS.has(a)),
    ...EXTRA_ARGS,
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    `--host-resolver-rules=MAP ${proxy} ${proxy} , MAP * ~NOTFOUND`,
  ];
}

/** Runs in every frame before the page's own scripts: service workers cannot register. */
/** Navigation errors that a retry would meet again, with the reason a dead letter gives. */
const NAVIGATION_FAILURES: Record<string, string> = {
  ERR_TOO_MANY_REDIRECTS: 'a redirect loop (too many redirects)',
  ERR_UNSAFE_REDIRECT: 'a redirect to a non-http(s) URL (file:, data:, about: ...) is not followed',
  ERR_UNKNOWN_URL_SCHEME: 'a redirect to a URL scheme that is not http(s) (ftp: ...) is not followed',
  ERR_INVALID_REDIRECT: 'an invalid redirect target',
};

/** Archived replays: no WebSocket constructor in any frame (sockets are not intercepted). */
const NO_WEBSOCKETS = `(() => { const refuse = function WebSocket() { throw new DOMException('WebSockets are off in an archived replay', 'SecurityError'); }; Object.defineProperty(globalThis, 'WebSocket', { value: refuse, configurable: false, writable: false }); })();`;

const NO_SERVICE_WORKERS = `(() => {
  try {
    const deny = function register() { return Promise.reject(new DOMException('service workers are disabled by spider', 'SecurityError')); };
    if (typeof ServiceWorkerContainer !== 'undefined') Object.defineProperty(ServiceWorkerContainer.prototype, 'register', { value: deny, writable: false, configurable: false });
  } catch (e) {}
})();`;

export type RendererConfig = Pick<
  Config,
  | 'viewportWidth' | 'viewportHeight' | 'navigationTimeoutMs' | 'renderTimeoutMs' | 'archiveAllowSubresources' | 'maxHtmlBytes' | 'maxBlocks' | 'userAgent'
  | 'maxElements' | 'maxFrames' | 'maxTransferBytes' | 'pageHeapMb' | 'allowHosts' | 'allowNetworks' | 'allowPorts' | 'renderContextUses'
  | 'renderConcurrency'
>;

export interface RendererOptions {
  /** Resolver of the egress policy (tests: `evil.test` → 127.0.0.1). Default: the system's DNS. */
  readonly resolver?: Resolver;
  /** How the egress proxy opens upstream connections (tests assert nothing outside loopback is dialled). */
  readonly dial?: EgressProxyOptions['dial'];
  /** Every egress decision (logs, tests). */
  readonly onEgress?: (event: EgressEvent) => void;
  /** Folder the browser profile is created in (default: the OS temporary folder). */
  readonly profileRoot?: string;
  /**
   * Render without the page-level evidence: Mozilla Readability in the page (no marks, no
   * `readability`) and the rendered and served text counts. Only to measure what they cost a
   * render (bench/render-cost.ts); the pipeline always renders with them.
   */
  readonly withoutPageEvidence?: boolean;
  /**
   * Whether puppeteer handles SIGINT, SIGTERM and SIGHUP (default true: it closes Chromium, and on
   * SIGINT exits the process at once, 130). False in a process that stops on them itself (the CLI's
   * pipeline commands: the messages in flight go back to their queue, then it closes the renderer),
   * where puppeteer's exit on Ctrl-C left the message in flight with its receive spent.
   */
  readonly handleSignals?: boolean;
}

export interface RenderRequest {
  readonly url: string;
  /** Archived HTML answered for the document request at `url`, instead of fetching it live. */
  readonly archivedHtml?: string;
  /**
   * Asked before each further document the main frame navigates to (a redirect hop, a refresh, a
   * script's navigation): a reason to refuse it (robots.txt disallows it), or undefined to go on.
   */
  readonly admitNavigation?: (url: string) => Promise<string | undefined>;
  /**
   * Called in the render's slot just before the page's document is requested (live pages), to take
   * its host's turn (lib/politeness): a turn taken while the render still waited for a slot would be
   * spent before the page is requested. Its wait does not count against the render deadline; what it
   * throws ends the render (HostBusyError: the turn is too far away, the message is handed back),
   * nothing requested and the browser context kept for the next render.
   */
  readonly takeTurn?: () => Promise<void>;
}

export interface RenderResult {
  readonly finalUrl: string;
  /**
   * The page's URL, as the snapshot names it (`spider:url`): the URL requested, or where the
   * navigation ended when that is another site (lib/store/keys.ts pageUrlOf; a live page only: an
   * archived copy is the page of its own URL).
   */
  readonly pageUrl: string;
  readonly status: number;
  readonly collected: CollectedPage;
  /** The rendered DOM, serialized with its doctype. */
  readonly snapshot: string;
  /** The HTML as served (the main document's response body, or the archived copy), when it could be read. */
  readonly served?: string;
  /** Text length of the served HTML's body, counted as the rendered one's (lib/render/served.ts). */
  readonly servedTextLength?: number;
  /** Mozilla Readability's result in the page (its marks are in the snapshot); absent when it could not run. */
  readonly readability?: InPageReadability;
  /**
   * `no-script`: the page's scripts took the main frame off its document (an error page), or did not
   * yield (its navigation or an evaluation timed out with the page's main thread busy in them), so the
   * served HTML was rendered again with JavaScript off.
   */
  readonly renderMode?: 'no-script';
  readonly elapsedMs: number;
}

interface RenderInOptions {
  /** Run the page's scripts (default true). */
  readonly javaScript?: boolean;
  /** Awaited just before the page is navigated to (request.takeTurn, its wait off the deadline). */
  readonly beforeNavigation?: () => Promise<void>;
}

/** The page's own scripts spoiled the render: its HTML as served is rendered again with JavaScript off. */
class RenderWithoutScriptsError extends Error {
  constructor(message: string, readonly served: string | undefined) {
    super(message);
  }
}

/** The main frame ended somewhere other than an http(s) document (a script navigated it to an error page). */
class EndedOffDocumentError extends RenderWithoutScriptsError {}

/** The page's own script did not yield: its navigation or an evaluation timed out with the main thread busy. */
class ScriptHungError extends RenderWithoutScriptsError {
  declare readonly served: string;
}

/** An evaluation (or another call into the page) that got no answer in time: the page's main thread is busy. */
class NoAnswerError extends Error {}

/** A running browser and the contexts kept for its renders. */
interface Launched {
  readonly browser: Browser;
  readonly contexts: ContextPool;
}

/** Idle contexts kept per browser: one per concurrent render is enough; more only hold memory. */
const MAX_IDLE_CONTEXTS = 4;
/** Closing a page or context that takes longer than this gives up on it. */
const CLOSE_TIMEOUT_MS = 5000;

export class Renderer {
  private browser?: Promise<Launched>;
  private userDataDir?: string;
  private proxy?: EgressProxy;
  readonly policy: EgressPolicy;

  /** Renders run at most config.renderConcurrency at a time; the others wait here, before their deadline starts. */
  private readonly slots: LimitFunction;

  constructor(private readonly config: RendererConfig, private readonly options: RendererOptions = {}) {
    this.policy = egressPolicyFor(config, options.resolver);
    this.slots = pLimit(config.renderConcurrency);
  }

  /** Renders one page; beyond config.renderConcurrency renders at once, it waits for one to end. */
  render(request: RenderRequest): Promise<RenderResult> {
    return this.slots(() => this.renderNow(request));
  }

  private async renderNow(request: RenderRequest): Promise<RenderResult> {
    const started = Date.now();
    const problem = request.archivedHtml === undefined ? this.policy.checkUrl(request.url) : schemeProblem(request.url);
    if (problem) throw new NonRetryableError(`blocked by the egress guard: ${problem} (${request.url})`);
    const { browser, contexts } = await this.launch();
    let lease: Lease;
    try {
      lease = await contexts.take(request.archivedHtml !== undefined);
    } catch (error) {
      throw new Error(`the browser could not open a context: ${describe(error)}`);
    }
    // Origins of the documents the render loads: their storage is cleared before the context serves another.
    const origins = new Set<string>();
    const noteOrigin = (req: HTTPRequest) => {
      const origin = req.isNavigationRequest() ? storageOrigin(req.url()) : undefined;
      if (origin) origins.add(origin);
    };
    const guard = new RenderGuard();
    const onExit = () => guard.abort(new Error(`the browser exited during the render of ${request.url}`));
    // on, not once: puppeteer's once() registers a wrapper that off(onExit) does not find, so every
    // render left a listener on the browser holding its guard and, through it, its result (the
    // snapshot and the served HTML): the runner's memory grew with every page rendered.
    browser.on('disconnected', onExit);
    guard.onDispose(() => browser.off('disconnected', onExit));
    const deadline = new Deadline(this.config.renderTimeoutMs, () => new Error(`render of ${request.url} exceeded ${this.config.renderTimeoutMs} ms`));
    // The host's turn, taken just before the page is requested; the time waiting for it is not the render's.
    let turnRefused = false;
    const takeTurn = request.takeTurn && request.archivedHtml === undefined ? request.takeTurn : undefined;
    const beforeNavigation = takeTurn && (async () => {
      deadline.pause();
      try {
        await takeTurn();
      } catch (error) {
        turnRefused = true;
        throw error;
      } finally {
        deadline.resume();
      }
    });
    const work = (async (): Promise<Omit<RenderResult, 'elapsedMs'>> => {
      const page = await lease.newPage();
      page.on('request', noteOrigin);
      try {
        return await this.renderIn(page, request, guard, { beforeNavigation });
      } catch (error) {
        // The page's own scripts took it off its document, or never yielded: the page as served,
        // rendered again without them, is the page as sent (answered from the served HTML when it
        // could be read; else, for a page its scripts navigated away at once, requested again).
        if (!(error instanceof RenderWithoutScriptsError)) throw error;
        guard.throwIfAborted();
        // Bounded: a page whose script runs again may not close; Chromium then ends its renderer.
        await withTimeout(page.close().then(() => true, () => true), CLOSE_TIMEOUT_MS);
        const again = await lease.newPage();
        again.on('request', noteOrigin);
        // (Requested again, it goes in the page's one turn: two requests of the page back to back, as
        // a person reloading it; only when its scripts left it before its body could be read.)
        const retry: RenderRequest = error.served === undefined ? request : { url: request.url, archivedHtml: error.served };
        const result = await this.renderIn(again, retry, guard, { javaScript: false });
        return { ...result, renderMode: 'no-script' };
      }
    })();
    work.catch(() => undefined); // when the deadline or a cap wins, the abandoned work may still reject
    let succeeded = false;
    try {
      const result = await Promise.race([work, deadline.expired, guard.aborted]);
      succeeded = true;
      return { ...result, elapsedMs: Date.now() - started };
    } finally {
      deadline.clear();
      guard.dispose();
      // A failed render's context is closed, not cleaned: whatever state the failure left goes with it.
      // A render that ended at its host's turn requested nothing: its context is as clean as any.
      const closed = await lease.release({ reusable: succeeded || turnRefused, origins });
      // A context that will not close (a renderer stuck in a script) takes the browser with it.
      if (!closed) await this.close();
    }
  }

  /** The running browser's profile folder (removed on close). */
  get profileDir(): string | undefined {
    return this.userDataDir;
  }

  /** The egress proxy's counters (allowed, refused, failed, open connections). */
  get egressStats(): EgressProxy['stats'] | undefined {
    return this.proxy?.stats;
  }

  /** Pages open in the running browser, across its contexts, but the idle pages kept contexts alive with (0 when none runs). */
  async openPages(): Promise<number> {
    const launched = await this.browser?.catch(() => undefined);
    if (!launched) return 0;
    let n = 0;
    for (const context of launched.browser.browserContexts()) n += (await context.pages()).filter((p) => !launched.contexts.isAnchor(p)).length;
    return n;
  }

  /** Browser contexts the running browser has opened for renders (renders that did not reuse one). */
  async contextsOpened(): Promise<number> {
    const launched = await this.browser?.catch(() => undefined);
    return launched?.contexts.opened ?? 0;
  }

  /** Closes the contexts kept for later renders, and with them their renderer processes (an idle runner, a leak count). */
  async closeIdleContexts(): Promise<void> {
    const launched = await this.browser?.catch(() => undefined);
    if (launched && !(await launched.contexts.trim())) await this.close();
  }

  /** The browser's process id, while one runs. */
  async browserPid(): Promise<number | undefined> {
    const launched = await this.browser?.catch(() => undefined);
    return launched?.browser.process()?.pid;
  }

  async close(): Promise<void> {
    const pending = this.browser;
    this.browser = undefined;
    if (pending) {
      const launched = await pending.catch(() => undefined);
      if (launched) await closeBounded(launched.browser, CLOSE_TIMEOUT_MS);
    }
    if (this.userDataDir) await rm(this.userDataDir, { recursive: true, force: true }).catch(() => undefined);
    this.userDataDir = undefined;
    await this.proxy?.close();
    this.proxy = undefined;
  }

  /** The shared browser, launched (again) when there is none or it has died. */
  private launch(): Promise<Launched> {
    if (!this.browser) {
      const launching = (async () => {
        this.proxy ??= new EgressProxy(this.policy, { dial: this.options.dial, onEvent: this.options.onEgress });
        const proxyUrl = await this.proxy.listen();
        if (this.userDataDir) await rm(this.userDataDir, { recursive: true, force: true }).catch(() => undefined);
        const root = this.options.profileRoot ?? os.tmpdir();
        try {
          await makeDirectory(root);
          this.userDataDir = await mkdtemp(path.join(root, 'spider-chromium-'));
        } catch (error) {
          this.userDataDir = undefined;
          throw new Error(`cannot create the browser profile folder in ${root} (${(error as NodeJS.ErrnoException).code ?? describe(error)}): is the disk full?`);
        }
        const browser = await puppeteer.launch({
          executablePath: await chromium.executablePath(),
          args: [...chromiumArgs(proxyUrl), `--js-flags=--max-old-space-size=${this.config.pageHeapMb}`],
          headless: 'shell',
          userDataDir: this.userDataDir,
          defaultViewport: { width: this.config.viewportWidth, height: this.config.viewportHeight },
          protocolTimeout: this.config.renderTimeoutMs + 10_000,
          ...puppeteerSignals(this.options.handleSignals),
        });
        browser.once('disconnected', () => {
          if (this.browser === launching) this.browser = undefined;
        });
        const contexts = new ContextPool({
          // An archived replay has no network at all: its context's proxy refuses everything (its
          // document is answered and its subresources aborted by interception; a worker's WebSocket is not
          // intercepted). Loopback goes through it too (Chromium's default bypass list would send it direct).
          open: async (offline) => {
            const proxyServer = offline ? await this.proxy?.listenOffline() : undefined;
            return browser.createBrowserContext(proxyServer ? { proxyServer, proxyBypassList: ['<-loopback>'] } : {});
          },
          maxUses: this.config.renderContextUses,
          maxIdle: MAX_IDLE_CONTEXTS,
          closeTimeoutMs: CLOSE_TIMEOUT_MS,
        });
        return { browser, contexts };
      })();
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = undefined;
      });
    }
    return this.browser;
  }

  private async renderIn(page: Page, request: RenderRequest, guard: RenderGuard, options: RenderInOptions = {}): Promise<Omit<RenderResult, 'elapsedMs'>> {
    const { config } = this;
    const cdp = await page.createCDPSession();
    guard.onDispose(() => void cdp.detach().catch(() => undefined));
    if (options.javaScript === false) await page.setJavaScriptEnabled(false);
    await page.setUserAgent({ userAgent: config.userAgent });
    await page.setViewport({ width: config.viewportWidth, height: config.viewportHeight });
    await page.evaluateOnNewDocument(NO_SERVICE_WORKERS);
    page.setDefaultNavigationTimeout(config.navigationTimeoutMs);

    // alert(), confirm(), prompt() and beforeunload would block the page's scripts, and with them
    // the collector, until the render deadline: dismiss every dialog at once.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));

    // Caps, watched while the page loads.
    page.on('error', (error) => guard.abort(new Error(`the page crashed (${error.message}): ${request.url}`)));
    let frames = 1;
    page.on('frameattached', () => {
      if (++frames > config.maxFrames) guard.abort(new NonRetryableError(`page opened more than ${config.maxFrames} frames: ${request.url}`));
    });
    await this.watchBytes(cdp, request, guard);
    if (request.archivedHtml === undefined) await this.readUndeclaredUtf8(cdp, request, guard);
    // An archived replay is offline: WebSockets bypass request interception, so the constructor is
    // taken away in every frame before the page's scripts run (a live socket would reach the site).
    if (request.archivedHtml !== undefined) await page.evaluateOnNewDocument(NO_WEBSOCKETS);

    await page.setRequestInterception(true);
    let documentAnswered = false;
    let blockedNavigation: string | undefined;
    let firstDocumentAsked = false;
    page.on('request', (req: HTTPRequest) => {
      if (req.isInterceptResolutionHandled()) return;
      const isNavigation = req.isNavigationRequest();
      const isMainDocument = isNavigation && req.frame() === page.mainFrame();
      const scheme = req.url().slice(0, req.url().indexOf(':') + 1).toLowerCase();
      // Documents only from http(s) (frames may also be about:blank/srcdoc or blob:): no file:, data:,
      // chrome:, javascript: or other documents.
      const allowedScheme = scheme === 'http:' || scheme === 'https:' || (!isMainDocument && (scheme === 'about:' || scheme === 'blob:'));
      if (isNavigation && !allowedScheme && req.url() !== 'about:blank') {
        if (isMainDocument) blockedNavigation = `navigation to a ${scheme} URL is not allowed`;
        void req.abort('blockedbyclient');
        return;
      }
      // The first document was admitted before the render; every later one the main frame asks for
      // (a redirect hop included) is admitted here, before it is requested.
      if (isMainDocument && firstDocumentAsked && request.admitNavigation && request.archivedHtml === undefined) {
        void request.admitNavigation(req.url()).then(
          (refused) => {
            if (refused === undefined) return req.continue();
            blockedNavigation ??= refused;
            return req.abort('blockedbyclient');
          },
          (error: unknown) => {
            blockedNavigation ??= `could not check ${req.url()}: ${error instanceof Error ? error.message : String(error)}`;
            return req.abort('blockedbyclient');
          },
        ).catch(() => undefined);
        return;
      }
      if (isMainDocument) firstDocumentAsked = true;
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

    // Main-document responses: Chromium aborts navigations to downloads (PDF, archives), and then
    // only this response tells why. Kept for every navigation of the main frame (redirects by script too).
    let documentResponse: HTTPResponse | undefined;
    let failedNavigation: { url: string; error: string } | undefined;
    // Chromium drops a main-document redirect to a scheme it does not fetch (ftp:) as a bare
    // ERR_ABORTED; only the 3xx's own Location tells why.
    const mainDocuments = new Set<string>();
    let offSchemeRedirect: string | undefined;
    const mainFrameId = (await cdp.send('Page.getFrameTree')).frameTree.frame.id;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.type === 'Document' && e.frameId === mainFrameId) mainDocuments.add(e.requestId);
    });
    cdp.on('Network.responseReceivedExtraInfo', (e) => {
      if (e.statusCode < 300 || e.statusCode >= 400 || !mainDocuments.has(e.requestId)) return;
      const location = headerValue(e.headers, 'location');
      const scheme = location === undefined ? undefined : /^([a-z][a-z0-9+.-]*):/i.exec(location)?.[1].toLowerCase();
      if (scheme && scheme !== 'http' && scheme !== 'https') offSchemeRedirect = `${scheme}:`;
    });
    const served = new ServedCapture();
    page.on('response', (res) => {
      if (res.request().isNavigationRequest() && res.frame() === page.mainFrame()) {
        documentResponse = res;
        if (request.archivedHtml === undefined) served.onDocumentResponse(res);
      }
    });
    page.on('requestfailed', (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) failedNavigation = { url: req.url(), error: req.failure()?.errorText ?? 'failed' };
    });
    const refusal = (url: string): string | undefined => {
      const u = URL.parse(url);
      if (!u) return undefined;
      const port = Number(u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80));
      return this.proxy?.lastRefusal(u.hostname, port) ?? this.policy.checkUrl(u);
    };
    const checkDocument = (res: HTTPResponse | undefined) => {
      // Only the proxy may say a document was blocked: its header counts when the proxy itself
      // refused that host and port, and the reason is the proxy's record, never the header's text
      // (a page can send the same header, with forged lines or malformed escapes in it).
      if (res?.headers()[BLOCKED_HEADER] !== undefined) {
        const u = URL.parse(res.url());
        const why = u && this.proxy?.lastRefusal(u.hostname, Number(u.port || (u.protocol === 'https:' ? 443 : 80)));
        if (why) throw new NonRetryableError(`blocked by the egress guard: ${why} (${res.url()})`);
      }
      const status = res?.status() ?? 200;
      const statusError = httpStatusError(status, res?.headers()['retry-after'], request.url);
      if (statusError) throw statusError;
      const contentType = res?.headers()['content-type'] ?? 'text/html';
      if (!/html|xml/i.test(contentType)) throw new NonRetryableError(`not an HTML page (${contentType}): ${request.url}`);
      return status;
    };
    const navigationError = (): Error | undefined => {
      if (blockedNavigation) return new NonRetryableError(`blocked: ${blockedNavigation} (${request.url})`);
      if (!failedNavigation) return undefined;
      const why = refusal(failedNavigation.url);
      if (why) return new NonRetryableError(`blocked by the egress guard: ${why} (${failedNavigation.url})`);
      if (offSchemeRedirect) return new NonRetryableError(`a redirect to a non-http(s) URL (${offSchemeRedirect}) is not followed: ${request.url}`);
      // Failures that the same request will meet again: each non-retryable, with its own reason.
      const fixed = NAVIGATION_FAILURES[failedNavigation.error.replace(/^net::/, '')];
      if (fixed) return new NonRetryableError(`${fixed}: ${request.url}`);
      return undefined;
    };

    // How long the page's main thread has to answer a call of ours (the collector's world, an
    // evaluation beyond its own time limit): as long as a navigation gets, at most MAX_ANSWER_MS.
    const answerMs = Math.min(MAX_ANSWER_MS, config.navigationTimeoutMs);
    // A navigation or an evaluation that timed out because the page's own script does not yield,
    // told from one that timed out otherwise (the server never answered, the document drips in, a
    // script file never arrives): the document's response arrived and its body can be read, but the
    // page's main thread, where its scripts run, answers nothing. A page waiting on the network
    // answers at once; a script spinning in `while (true) {}` never does. The script is stopped
    // first (Runtime.terminateExecution interrupts it from outside the main thread; a body the
    // parser was still reading when the script took the thread reaches DevTools only once it has the
    // thread back), then the HTML as served is rendered again with JavaScript off (renderMode
    // 'no-script'), in the same render and deadline. Without the body, or with JavaScript off
    // already, the timeout stands.
    const hungScript = async (cause: Error): Promise<Error> => {
      if (options.javaScript === false || (documentResponse === undefined && request.archivedHtml === undefined)) return cause;
      if (!(cause instanceof NoAnswerError) && (await answers(cdp, PROBE_MS))) return cause;
      await ask(cdp.send('Runtime.terminateExecution'), PROBE_MS, 'to stop its script').catch(() => undefined);
      const html = await served.html(request.archivedHtml);
      if (html === undefined) return cause;
      return new ScriptHungError(`the page's script did not yield (${cause.message}): ${request.url}`, html);
    };
    /** An optional call's failure, but for a page that does not answer. */
    const orUndefined = (error: unknown): undefined => {
      if (error instanceof NoAnswerError) throw error;
      return undefined;
    };

    await options.beforeNavigation?.();
    guard.throwIfAborted();
    const loaded = new Promise<void>((resolve) => page.once('load', () => resolve()));
    const navStart = Date.now();
    let response: HTTPResponse | null;
    try {
      response = await page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: config.navigationTimeoutMs });
    } catch (error) {
      guard.throwIfAborted();
      const nav = navigationError();
      if (nav) throw nav;
      if (documentResponse) checkDocument(documentResponse);
      throw error instanceof TimeoutError ? await hungScript(error) : error;
    }
    try {
      let status = checkDocument(response ?? documentResponse);
      // The rest of the navigation budget for the load event (images, stylesheets); a page that never
      // finishes loading is stopped and rendered as it stands.
      const left = Math.max(0, config.navigationTimeoutMs - (Date.now() - navStart));
      if (!(await withTimeout(loaded.then(() => true), left))) await ask(cdp.send('Page.stopLoading'), answerMs, 'to stop loading').catch(orUndefined);
      if (request.archivedHtml === undefined) {
        // Live pages may still be filling in content after load: give them a short quiet period, bounded.
        await page.waitForNetworkIdle({ idleTime: 250, concurrency: 2, timeout: 3000 }).catch(() => undefined);
      }
      guard.throwIfAborted();

      // Where the main frame ended up: a script may have navigated it after load.
      const nav = navigationError();
      if (nav) throw nav;
      if (documentResponse && documentResponse !== response) status = checkDocument(documentResponse);

      // Collected in an isolated world: the page's scripts cannot tamper with the collector's built-ins.
      const world = await isolatedWorld(cdp, answerMs);
      const where = (await evaluateIn(cdp, world, 'location.href', 5000, answerMs)) as string;
      const servedHtml = await served.html(request.archivedHtml);
      if (!/^https?:/i.test(where) && !(request.archivedHtml !== undefined && where === request.url)) {
        // about:blank, blob:, data: ...: the same page would end there again. With its scripts on,
        // the HTML as served may still hold the article: render it again without them.
        const message = `the page ended on ${where.slice(0, 200)} instead of an http(s) document: ${request.url}`;
        if (options.javaScript === false) throw new NonRetryableError(message);
        throw new EndedOffDocumentError(message, servedHtml);
      }
      // the page's own attributes of Readability's mark would pass for its choice (in the collector's
      // counts, the snapshot, apply's guard): they go first, whether Readability runs or not
      const elements = (await evaluateIn(
        cdp,
        world,
        `(() => { for (const el of document.querySelectorAll('[${READABILITY_MARK}]')) el.removeAttribute('${READABILITY_MARK}'); return document.getElementsByTagName('*').length; })()`,
        10_000,
        answerMs,
      )) as number;
      if (elements > config.maxElements) throw new NonRetryableError(`rendered page has ${elements} elements, more than the ${config.maxElements} cap: ${request.url}`);

      // Mozilla Readability on a clone of the document; it marks the elements whose text it keeps, so
      // it runs before the collector (which counts the marks) and the snapshot (which carries them).
      // A page it fails on is still rendered.
      const evidence = this.options.withoutPageEvidence !== true;
      const readabilityRun = evidence ? evaluateIn(cdp, world, readabilityExpression(), READABILITY_TIMEOUT_MS, answerMs).catch(orUndefined) : undefined;
      // the served HTML's text is counted here while the page runs Readability
      const servedTextLength = servedHtml === undefined || !evidence ? undefined : countServedText(servedHtml);
      const readability = (await readabilityRun) as InPageReadability | undefined;
      const renderedTextLength = evidence ? ((await evaluateIn(cdp, world, renderedTextExpression(), 10_000, answerMs).catch(orUndefined)) as number | undefined) : undefined;

      const collectOptions: CollectOptions = {
        maxBlocks: config.maxBlocks,
        maxPathSteps: MAX_PATH_STEPS,
        maxSelectorChars: MAX_SELECTOR_CHARS,
        readabilityMark: READABILITY_MARK,
        metaNames: META_NAMES,
      };
      // Bundlers may wrap named functions in a `__name(...)` helper; give the page a no-op one.
      const collected = (await evaluateIn(
        cdp,
        world,
        `(() => { const __name = (f) => f; return (${collectPage.toString()})(document, null, ${JSON.stringify(collectOptions)}); })()`,
        config.renderTimeoutMs,
        answerMs,
      )) as CollectedPage;
      // The snapshot carries the page's URL so apply needs no second read to know it: a page that
      // landed on another site is that site's (and the URL submitted is said beside it).
      const pageUrl = request.archivedHtml === undefined ? pageUrlOf(request.url, where) : request.url;
      const snapshot = (await evaluateIn(
        cdp,
        world,
        `(() => {
          const head = document.head || document.documentElement;
          const metas = ${JSON.stringify([
            [SNAPSHOT_META.url, pageUrl],
            ...(pageUrl !== request.url ? [[SNAPSHOT_META.submittedUrl, request.url]] : []),
            ...(servedTextLength !== undefined ? [[SERVED_TEXT_META, String(servedTextLength)]] : []),
            ...(renderedTextLength !== undefined ? [[RENDERED_TEXT_META, String(renderedTextLength)]] : []),
            ...(readability?.title ? [[READABILITY_TITLE_META, readability.title]] : []),
          ].reverse())};
          // apply trusts spider's <meta>s of a snapshot (its URL, Readability's title, the text lengths):
          // a page's own of those names would pass for them where render writes none, so they go
          for (const meta of document.querySelectorAll('meta[name]')) {
            if (meta.getAttribute('name').trim().toLowerCase().startsWith('spider:')) meta.remove();
          }
          for (const [name, content] of metas) {
            const meta = document.createElement('meta');
            meta.setAttribute('name', name);
            meta.setAttribute('content', content);
            head.insertBefore(meta, head.firstChild);
          }
          // What nothing reads leaves the snapshot: script code (JSON-LD data stays: apply reads it) and
          // comments. The elements stay, so a rule's element positions hold; style sheets stay too (the
          // report draws the snapshot with them).
          for (const el of document.querySelectorAll('script')) {
            if ((el.getAttribute('type') || '').trim().toLowerCase() === 'application/ld+json') continue;
            if (el.firstChild) el.textContent = '';
          }
          // What the page does not show is marked so apply, which reads no layout, leaves it out as the
          // collector did: each outermost element of the body laid out as display:none (a stylesheet's
          // mobile copy, a closed menu, a modal) gets the hidden attribute. All are found first, then
          // marked: an attribute set during the walk would make every later style read lay out again.
          // An <object> that shows its resource (an image, an HTML document) lays out none of its
          // fallback content: its elements are marked too, and its bare text, which no attribute can
          // mark, is removed. One the browser cannot play (Flash, ActiveX; a PDF in this headless
          // shell, which has no viewer; an image that fails to load) shows its fallback, which is
          // read as any text of the page. Shown or not is asked of all its contents at once (a
          // display: contents wrapper has no box of its own).
          const skipped = new Set(${JSON.stringify(COLLECTOR_SKIP_TAGS)});
          const fallbackShown = (el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return range.getClientRects().length > 0;
          };
          const unshownText = [];
          const undisplayed = [];
          if (document.body) {
            const walker = document.createTreeWalker(document.body, 1 /* NodeFilter.SHOW_ELEMENT */, {
              acceptNode: (el) => {
                // (an <object>'s <param>s are never laid out: not marked)
                if (skipped.has(el.localName) || el.localName === 'param' || el.hasAttribute('hidden')) return 2; // FILTER_REJECT: not its subtree
                if (getComputedStyle(el).display === 'none') { undisplayed.push(el); return 2; }
                if (el.localName === 'object' && !fallbackShown(el)) {
                  for (const c of el.childNodes) {
                    if (c.nodeType === 3) { if (c.data.trim()) unshownText.push(c); } // white space still parts the words around
                    else if (c.nodeType === 1 && c.localName !== 'param' && !skipped.has(c.localName) && !c.hasAttribute('hidden')) undisplayed.push(c);
                  }
                  return 2;
                }
                return 1;
              },
            });
            while (walker.nextNode());
          }
          for (const el of undisplayed) el.setAttribute('hidden', '');
          for (const text of unshownText) text.remove();
          const comments = document.createTreeWalker(document, 128 /* NodeFilter.SHOW_COMMENT */);
          const drop = [];
          for (let c = comments.nextNode(); c; c = comments.nextNode()) drop.push(c);
          for (const c of drop) c.remove();
          const dt = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
          const html = document.documentElement.outerHTML;
          return html.length > ${config.maxHtmlBytes} ? null : dt + html;
        })()`,
        config.renderTimeoutMs,
        answerMs,
      )) as string | null;
      if (snapshot === null || Buffer.byteLength(snapshot) > config.maxHtmlBytes) {
        throw new NonRetryableError(`rendered page is larger than ${config.maxHtmlBytes} bytes: ${request.url}`);
      }
      return {
        finalUrl: page.url(), pageUrl, status, collected, snapshot,
        ...(servedHtml !== undefined ? { served: servedHtml } : {}),
        ...(servedTextLength !== undefined ? { servedTextLength } : {}),
        ...(readability ? { readability } : {}),
      };
    } catch (error) {
      throw error instanceof NoAnswerError ? await hungScript(error) : error;
    }
  }

  /** Counts bytes as they arrive: the document against maxHtmlBytes, everything against maxTransferBytes. */
  private async watchBytes(cdp: CDPSession, request: RenderRequest, guard: RenderGuard): Promise<void> {
    const { maxHtmlBytes, maxTransferBytes } = this.config;
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const mainId = frameTree.frame.id;
    const documents = new Set<string>();
    const docBytes = new Map<string, number>();
    let total = 0;
    const tooLarge = (what: string, cap: number) => {
      void cdp.send('Page.stopLoading').catch(() => undefined);
      guard.abort(tooLargeError(what, cap, request.url));
    };
    cdp.on('Network.responseReceived', (e) => {
      if (e.type !== 'Document' || e.frameId !== mainId) return;
      documents.add(e.requestId);
      const length = Number(headerValue(e.response.headers, 'content-length'));
      if (Number.isFinite(length) && length > maxHtmlBytes) tooLarge('the page', maxHtmlBytes);
    });
    cdp.on('Network.dataReceived', (e) => {
      total += Math.max(e.encodedDataLength, 0) || e.dataLength;
      if (total > maxTransferBytes) return tooLarge('everything the page downloads', maxTransferBytes);
      if (documents.has(e.requestId)) {
        const n = (docBytes.get(e.requestId) ?? 0) + e.dataLength;
        docBytes.set(e.requestId, n);
        if (n > maxHtmlBytes) tooLarge('the page', maxHtmlBytes);
      }
    });
    await cdp.send('Network.enable');
  }

  /**
   * A main-frame document in UTF-8 that names no encoding (no charset in its Content-Type, no byte
   * order mark, no `<meta>` in its first 1024 bytes) is read by Chromium as windows-1252, the HTML
   * standard's default (its detector guesses legacy encodings, Shift_JIS or windows-1251, but never
   * UTF-8), where spider reads the same bytes as UTF-8 (lib/text/encoding.ts: the fetch path, the
   * HTML as served): its rendered text was mojibake, and differed from the served. Chromium has no
   * setting for its default encoding in the headless shell. So the main frame's documents are paused
   * when their response headers arrive (CDP Fetch at the response stage, in the render's own session,
   * beside puppeteer's interception of requests): a `text/html` one, 2xx, whose Content-Type names no
   * charset is read whole (at most maxHtmlBytes, decoded of its Content-Encoding by then) and answered
   * with it, `charset=utf-8` added to its Content-Type when sniffEncoding reads the bytes as UTF-8 and
   * they are not ASCII (ASCII reads alike in every default, and an undeclared ISO-2022-JP page is
   * ASCII); every other response goes on untouched, unread. Such a document reaches the parser only
   * once all of it has arrived, its subresources requested that much later.
   */
  private async readUndeclaredUtf8(cdp: CDPSession, request: RenderRequest, guard: RenderGuard): Promise<void> {
    const { maxHtmlBytes } = this.config;
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const mainId = frameTree.frame.id;
    const answer = async (e: Protocol.Fetch.RequestPausedEvent): Promise<void> => {
      const { requestId } = e;
      const status = e.responseStatusCode ?? 0;
      const headers = e.responseHeaders ?? [];
      const contentType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      const mime = contentType === undefined ? null : MIMEType.parse(contentType);
      const length = Number(headerValue(Object.fromEntries(headers.map((h) => [h.name, h.value])), 'content-length'));
      if (e.frameId !== mainId || e.responseErrorReason !== undefined || status < 200 || status >= 300
        || mime?.essence !== 'text/html' || mime.parameters.has('charset') || length > maxHtmlBytes) {
        await cdp.send('Fetch.continueRequest', { requestId });
        return;
      }
      const { stream } = await cdp.send('Fetch.takeResponseBodyAsStream', { requestId });
      const chunks: Buffer[] = [];
      let total = 0;
      for (let eof = false; !eof;) {
        const read = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
        const chunk = Buffer.from(read.data, read.base64Encoded ? 'base64' : 'utf8');
        chunks.push(chunk);
        total += chunk.length;
        eof = read.eof;
        if (total > maxHtmlBytes) {
          void cdp.send('IO.close', { handle: stream }).catch(() => undefined);
          void cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
          guard.abort(tooLargeError('the page', maxHtmlBytes, request.url));
          return;
        }
      }
      void cdp.send('IO.close', { handle: stream }).catch(() => undefined);
      const body = Buffer.concat(chunks);
      if (sniffEncoding(body, contentType) === 'UTF-8' && !isAscii(body)) mime.parameters.set('charset', 'utf-8');
      // the body is the decoded one: its Content-Encoding and Content-Length no longer apply
      const drop = new Set(['content-type', 'content-encoding', 'content-length']);
      const responseHeaders = [...headers.filter((h) => !drop.has(h.name.toLowerCase())), { name: 'Content-Type', value: mime.toString() }];
      await cdp.send('Fetch.fulfillRequest', {
        requestId, responseCode: status, responseHeaders, body: body.toString('base64'),
        ...(e.responseStatusText ? { responsePhrase: e.responseStatusText } : {}),
      });
    };
    // A body that broke off fails the document as the network would have; a request the page no
    // longer wants (navigated away, stopped) is gone already.
    cdp.on('Fetch.requestPaused', (e) => void answer(e).catch(() => cdp.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'Failed' }).catch(() => undefined)));
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Response' }] });
  }
}

/** Mozilla Readability in the page: a few hundred ms on a large page; past this it is left out. */
const READABILITY_TIMEOUT_MS = 5000;
/** Longest the page's main thread has to answer a call of the render's, on top of the call's own time. */
const MAX_ANSWER_MS = 5000;
/** How long a page whose navigation timed out has to answer a trivial evaluation, to show its main thread is free. */
const PROBE_MS = 1000;

/** `call`'s answer, or a NoAnswerError once `ms` have passed without one (the call is left to settle on its own). */
async function ask<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  call.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new NoAnswerError(`the page did not answer ${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the page's main thread answers a trivial evaluation within `ms` (an error is an answer too). */
function answers(cdp: CDPSession, ms: number): Promise<boolean> {
  return withTimeout(cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true, () => true), ms);
}

/** A render's deadline: `expired` rejects once it has run for `ms`; it does not run while paused. */
class Deadline {
  readonly expired: Promise<never>;
  private reject!: (error: Error) => void;
  private timer?: NodeJS.Timeout;
  private leftMs: number;
  private since = 0;
  private done = false;

  constructor(ms: number, private readonly error: () => Error) {
    this.leftMs = ms;
    this.expired = new Promise<never>((_, reject) => (this.reject = reject));
    this.expired.catch(() => undefined);
    this.resume();
  }

  pause(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.leftMs -= Date.now() - this.since;
  }

  resume(): void {
    if (this.timer !== undefined || this.done) return;
    this.since = Date.now();
    this.timer = setTimeout(() => this.reject(this.error()), Math.max(0, this.leftMs));
  }

  /** The render is over: the deadline stops for good. */
  clear(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Aborts a render from event handlers (crash, caps, browser exit), once. */
class RenderGuard {
  private reject!: (error: Error) => void;
  private error?: Error;
  private readonly disposers: (() => void)[] = [];
  readonly aborted = new Promise<never>((_, reject) => {
    this.reject = reject;
  });

  constructor() {
    this.aborted.catch(() => undefined);
  }

  abort(error: Error): void {
    if (this.error) return;
    this.error = error;
    this.reject(error);
  }

  throwIfAborted(): void {
    if (this.error) throw this.error;
  }

  onDispose(fn: () => void): void {
    this.disposers.push(fn);
  }

  dispose(): void {
    for (const fn of this.disposers.splice(0)) fn();
  }
}

function tooLargeError(what: string, cap: number, url: string): NonRetryableError {
  return new NonRetryableError(`${what} is larger than the ${cap}-byte cap: ${url}`);
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return String(v);
  return undefined;
}

async function isolatedWorld(cdp: CDPSession, answerMs: number): Promise<number> {
  const { frameTree } = await ask(cdp.send('Page.getFrameTree'), answerMs, 'for its frames');
  const world = cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'spider-collector', grantUniveralAccess: false });
  return (await ask(world, answerMs, 'with a world for the collector')).executionContextId;
}

/**
 * Evaluates in the page; Chromium stops the expression after `timeoutMs` once it runs, and it runs
 * only when the page's main thread is free: no answer within `answerMs` more is a NoAnswerError.
 */
async function evaluateIn(cdp: CDPSession, contextId: number, expression: string, timeoutMs: number, answerMs: number): Promise<unknown> {
  const evaluation = cdp.send('Runtime.evaluate', { expression, contextId, returnByValue: true, awaitPromise: true, timeout: timeoutMs });
  const out = await ask(evaluation, timeoutMs + answerMs, 'an evaluation');
  if (out.exceptionDetails) {
    const text = out.exceptionDetails.exception?.description ?? out.exceptionDetails.text;
    throw new Error(`evaluation in the page failed: ${text}`);
  }
  return out.result.value;
}

function schemeProblem(url: string): string | undefined {
  const u = URL.parse(url);
  if (!u) return 'not a valid absolute URL';
  return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : `the ${u.protocol} scheme is not allowed (http and https only)`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function closeBounded(browser: Browser, ms: number): Promise<void> {
  const proc = browser.process();
  const closed = browser.close().then(() => true, () => false);
  const inTime = await withTimeout(closed, ms);
  if (!inTime && proc && proc.exitCode === null) proc.kill('SIGKILL');
}
