/**
 * Browser contexts reused across renders (lib/render/browser.ts).
 *
 * Opening a context and its first page starts a renderer process, and that start was most of
 * Chromium's CPU time for a page (0.57 CPU s of 0.9 on a 2-core machine, docs/fetch-path.md). A
 * context kept between renders keeps its renderer process alive through an idle `about:blank` page
 * (its anchor), so the next page opened in it (the browser runs with `--renderer-process-limit=1`)
 * joins that process instead of starting one.
 *
 * What a page leaves behind is removed before the context serves another render: every page but the
 * anchor is closed, the context's cookies are deleted, and the storage of every origin whose document
 * the render loaded (local and session storage, IndexedDB, Cache Storage, service workers, file
 * systems) is cleared. The HTTP cache is kept, as a browser keeps it. A context is closed instead
 * when its render failed, when its page opened a page of its own (a popup, whose documents the render
 * did not see), when cleaning failed, or once it has served `maxUses` renders, so anything not covered
 * above lasts at most that many renders; `maxUses: 1` is a fresh context per render.
 */
import type { BrowserContext, CDPSession, Page, Target } from 'puppeteer-core';
import { withTimeout } from '../util/timeout';

export interface ContextPoolOptions {
  /** Opens a context: with the offline proxy (archived replays) or the live one. */
  readonly open: (offline: boolean) => Promise<BrowserContext>;
  /** Renders a context serves before it is closed (1: a fresh context per render). */
  readonly maxUses: number;
  /** Idle contexts kept; more are closed when released. */
  readonly maxIdle: number;
  /** Closing a context that takes longer than this gives up on it (the caller then restarts the browser). */
  readonly closeTimeoutMs: number;
}

/** One context lent to one render. */
export interface Lease {
  readonly context: BrowserContext;
  /** Opens a page of the render (a page the render's page opens itself is a popup). */
  newPage(): Promise<Page>;
  /**
   * Gives the context back. `reusable: false` (the render failed) closes it; otherwise it is cleaned
   * (pages, cookies, the storage of `origins`) and kept for the next render. Resolves false when a
   * context could not be closed in time.
   */
  release(outcome: { readonly reusable: boolean; readonly origins: Iterable<string> }): Promise<boolean>;
}

interface Lane {
  readonly context: BrowserContext;
  readonly offline: boolean;
  /** The idle page that keeps the context's renderer process alive between renders. */
  readonly anchor?: Page;
  readonly session?: CDPSession;
  uses: number;
}

export class ContextPool {
  private readonly idle: Lane[] = [];
  private readonly anchors = new Set<Page>();
  /** Contexts opened so far (a fresh one per render when nothing is reused). */
  opened = 0;

  constructor(private readonly options: ContextPoolOptions) {}

  async take(offline: boolean): Promise<Lease> {
    const at = this.idle.findIndex((l) => l.offline === offline);
    const lane = at >= 0 ? this.idle.splice(at, 1)[0] : await this.openLane(offline);
    lane.uses++;
    // Pages the render opens, and pages opened otherwise (popups): those make the context not reusable.
    let asked = 0;
    let popups = 0;
    const onTarget = (target: Target) => {
      if (target.type() !== 'page') return;
      if (asked > 0) asked--;
      else popups++;
    };
    lane.context.on('targetcreated', onTarget);
    return {
      context: lane.context,
      newPage: () => {
        asked++;
        return lane.context.newPage();
      },
      release: (outcome) => {
        lane.context.off('targetcreated', onTarget);
        return this.release(lane, { ...outcome, reusable: outcome.reusable && popups === 0 });
      },
    };
  }

  /** Whether a page is one of the pool's idle anchors (not a page of a render). */
  isAnchor(page: Page): boolean {
    return this.anchors.has(page);
  }

  /** Closes the idle contexts (their renderer processes end). Resolves false if one would not close in time. */
  async trim(): Promise<boolean> {
    const lanes = this.idle.splice(0);
    const closed = await Promise.all(lanes.map((l) => this.close(l)));
    return closed.every(Boolean);
  }

  private async openLane(offline: boolean): Promise<Lane> {
    const context = await this.options.open(offline);
    this.opened++;
    if (this.options.maxUses <= 1) return { context, offline, uses: 0 };
    try {
      const anchor = await context.newPage();
      const session = await anchor.createCDPSession();
      this.anchors.add(anchor);
      return { context, offline, anchor, session, uses: 0 };
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  private async release(lane: Lane, outcome: { reusable: boolean; origins: Iterable<string> }): Promise<boolean> {
    const keep = outcome.reusable && lane.uses < this.options.maxUses && this.idle.length < this.options.maxIdle && (await this.clean(lane, outcome.origins));
    if (!keep) return this.close(lane);
    this.idle.push(lane);
    return true;
  }

  /** Leaves the context as a fresh one but for its HTTP cache; false when that could not be done. */
  private async clean(lane: Lane, origins: Iterable<string>): Promise<boolean> {
    const { anchor, session } = lane;
    if (!anchor || !session) return false;
    const work = (async () => {
      for (const page of await lane.context.pages()) if (page !== anchor) await page.close();
      // Through the anchor's session, these act on this context's storage partition.
      await session.send('Network.clearBrowserCookies');
      for (const origin of new Set(origins)) await session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      return true;
    })();
    return withTimeout(work.catch(() => false), this.options.closeTimeoutMs);
  }

  private async close(lane: Lane): Promise<boolean> {
    if (lane.anchor) this.anchors.delete(lane.anchor);
    return withTimeout(lane.context.close().then(() => true, () => true), this.options.closeTimeoutMs);
  }
}

/** The origin of a document URL whose storage a render may have written (http(s) only: others have none that lasts). */
export function storageOrigin(url: string): string | undefined {
  const u = URL.parse(url);
  return u && (u.protocol === 'http:' || u.protocol === 'https:') ? u.origin : undefined;
}
