/**
 * The render step: load one URL in Chromium (live, or its archived copy answered at its own URL),
 * write the feature document and the rendered DOM to the store, then hand the page on to apply
 * and signal learn for its site.
 */
import { refreshFeeds, type FeedRefreshOptions } from '../fields/feed-refresh';
import { guardedFeedFetch } from '../net/feed-fetch';
import { Politeness } from '../politeness/politeness';
import type { StepContext } from '../step/context';
import { getText } from '../store/store';
import { keys, normalizeUrl, pageIdOf, siteOf } from '../store/keys';
import { putJson } from '../store/store';
import { pageRefOf, recordRedirect, type PageRef } from '../store/redirects';
import { htmlToStore } from '../text/encoding';
import { FEATURE_DOCUMENT_VERSION, FeatureDocumentSchema, type FeatureDocument } from '../types/feature-document';
import { HttpUrlSchema, type RenderMessage } from '../types/messages';
import { EgressBlockedError, NonRetryableError } from '../util/errors';
import type { Renderer } from './browser';
import { fetchRouted, politenessFor, retryLaterOf, routeOf } from '../step/fetch-step';
import type { PagePath } from '../step/route';

export interface RenderContext extends StepContext {
  readonly renderer: Renderer;
  /** Fetching the feeds pages link to, for field learning (lib/fields/feed-refresh.ts); defaults apply when absent, the fetcher is the egress-guarded one unless given. */
  readonly feeds?: Partial<FeedRefreshOptions>;
  /**
   * robots.txt and the per-host rate limit (lib/politeness). The embedded runner passes its own; when
   * absent (Lambda), one per store is made whose rate limit is shared through the store, so that
   * concurrent containers keep to the same per-host limit.
   */
  readonly politeness?: Politeness;
}

export interface RenderOutcome {
  /** The page's site and id: the submitted URL's, or those of the page of another site its navigation ended on. */
  readonly site: string;
  readonly pageId: string;
  /** The page's URL: the one submitted, or the landing page's (then `submittedUrl` is the one submitted). */
  readonly url: string;
  /** The URL submitted, when its navigation (or its redirect, asked first: the fetch path) ended on another site's page (its redirect record names that page). */
  readonly submittedUrl?: string;
  readonly blocks: number;
  readonly elapsedMs: number;
  /** `fetch`: fetched over HTTP, no browser (docs/fetch-path.md); `render`: rendered in Chromium. */
  readonly path: PagePath;
}

export async function renderStep(message: RenderMessage, ctx: RenderContext): Promise<RenderOutcome> {
  // the submitted URL's place: the page's too, unless its navigation ends on another site (below)
  const url = normalizeUrl(message.url);
  const site = siteOf(url);
  const pageId = pageIdOf(url);

  let archivedHtml: string | undefined;
  if (message.archiveKey) {
    // A message names only its own URL's archived copy: never another stored object (rules, articles,
    // another page's snapshot) to be rendered as a page.
    if (message.archiveKey !== keys.archive(site, pageId)) {
      throw new NonRetryableError(`archiveKey ${JSON.stringify(message.archiveKey)} is not the archived copy of ${url} (${keys.archive(site, pageId)})`);
    }
    archivedHtml = await getText(ctx.store, message.archiveKey);
    if (archivedHtml === undefined) throw new NonRetryableError(`archived copy ${message.archiveKey} is not in the store`);
    if (Buffer.byteLength(archivedHtml) > ctx.config.maxHtmlBytes) {
      throw new NonRetryableError(`archived HTML is larger than the ${ctx.config.maxHtmlBytes}-byte cap`);
    }
  }

  // A live page is requested only when robots.txt allows it and it is the host's turn.
  const politeness = archivedHtml === undefined ? politenessFor(ctx, ctx.politeness) : undefined;
  // Which way the page goes (lib/step/route.ts), asked before the host's turn and before any browser.
  const route = politeness ? await routeOf(message, ctx) : undefined;
  // robots.txt and the egress guard now; the host's turn when the page is about to be requested: just
  // before the fetch, or in the renderer's slot just before it navigates (a turn taken before the
  // wait for the browser would be spent by the time the page is requested).
  const turn = await politeness?.check(url);
  let result;
  try {
    if (politeness && turn && route && route.path !== 'render') {
      await turn.take();
      // the page, or (a link shortener's URL) the page of another site its redirect leads to
      const fetched = await fetchRouted(url, route.path, ctx, { policy: ctx.renderer.policy, politeness });
      // (a page the fetch found on another site is not fetched: it is rendered, as that site's page)
      if (fetched.ok) {
        const { page, submittedUrl } = fetched;
        return { site: page.site, pageId: page.pageId, url: page.url, ...(submittedUrl ? { submittedUrl } : {}), blocks: 0, elapsedMs: fetched.elapsedMs, path: 'fetch' };
      }
      // Rendered in the turn its fetch took (take() answers as before): a second turn could only hand
      // the message back, to be fetched and declined again.
      ctx.logger.info('fetch path: rendering instead', { url, site, pageId, reason: fetched.reason });
    }
    result = await ctx.renderer.render({
      url,
      archivedHtml,
      takeTurn: turn?.take,
      // A redirect (or a script) taking the page elsewhere: that URL's robots.txt is asked too.
      // A host the egress guard refuses is refused by the proxy with its own reason.
      admitNavigation: politeness && (async (next) => {
        const verdict = await politeness.checkRobots(next).catch((error: unknown) => {
          if (error instanceof EgressBlockedError) return undefined;
          throw error;
        });
        return verdict === undefined || verdict.allowed ? undefined : verdict.reason;
      }),
    });
  } catch (error) {
    // 429 / 503 with Retry-After: the whole host waits, and so does this message.
    throw politeness ? await retryLaterOf(error, url, politeness, ctx) : error;
  }
  const landed = landingPage(url, result.pageUrl);
  const page = landed ?? { url, site, pageId };
  const snapshotKey = keys.snapshot(page.site, page.pageId);
  const servedKey = keys.served(page.site, page.pageId);
  const served = result.served === undefined ? undefined : htmlToStore(result.served);
  const doc: FeatureDocument = FeatureDocumentSchema.parse({
    version: FEATURE_DOCUMENT_VERSION,
    pageId: page.pageId,
    url: page.url,
    finalUrl: result.finalUrl,
    ...(landed ? { submittedUrl: url } : {}),
    site: page.site,
    renderedAt: new Date().toISOString(),
    viewport: { width: ctx.config.viewportWidth, height: ctx.config.viewportHeight },
    snapshotKey,
    source: archivedHtml === undefined ? 'live' : 'archive',
    ...result.collected,
    ...(result.readability ? { readability: result.readability } : {}),
    ...(served !== undefined ? { served: { key: servedKey, bytes: served.length, textLength: result.servedTextLength ?? 0 } } : {}),
    ...(result.renderMode ? { renderMode: result.renderMode } : {}),
  });

  // Snapshot (and the HTML as served) first: a feature document always has its snapshot.
  if (served !== undefined) await ctx.store.put(servedKey, served, { contentType: 'text/html; charset=utf-8' });
  await ctx.store.put(snapshotKey, htmlToStore(result.snapshot), { contentType: 'text/html; charset=utf-8' });
  await putJson(ctx.store, keys.features(page.site, page.pageId), doc);
  // A page another site served is that site's: the submitted URL's place says where it went (the
  // page stored first, so the record never points at nothing). Nothing there is deleted: what an
  // earlier version filed at that place is older than the record, and readers take the newer.
  if (landed) await recordRedirect(ctx.store, { url, site, pageId }, landed);
  // The feeds the page links to, for learning its site's field rules; before learn is signalled, so
  // the learn this page triggers sees them. An archived copy is a replay: no network, unless the
  // archive may fetch its subresources live. Never fails the render.
  if (doc.page.feeds.length && (doc.source === 'live' || ctx.config.archiveAllowSubresources)) {
    await refreshFeeds(page.site, doc.page, ctx.store, ctx.logger, {
      userAgent: ctx.config.userAgent,
      ...ctx.feeds,
      // Feeds are fetched under the same egress guard as the browser (a page names them).
      fetch: ctx.feeds?.fetch ?? guardedFeedFetch(ctx.renderer.policy, ctx.config.userAgent),
    }).catch((error: unknown) =>
      ctx.logger.warn('feed refresh failed', { site: page.site, error: String(error) }),
    );
  }

  await ctx.queues.apply.send({ v: 1, site: page.site, pageId: page.pageId, reason: 'rendered' });
  await ctx.queues.learn.send({ v: 1, site: page.site, force: false }, { groupId: page.site, deduplicationId: `${page.site}:${page.pageId}` });
  const redirect = landed ? { submittedUrl: url } : {};
  ctx.logger.info('rendered', { url: page.url, site: page.site, pageId: page.pageId, ...redirect, blocks: doc.blocks.length, ms: result.elapsedMs });
  return { site: page.site, pageId: page.pageId, url: page.url, ...redirect, blocks: doc.blocks.length, elapsedMs: result.elapsedMs, path: 'render' };
}

/**
 * The page of another site a submitted URL's navigation ended on (the renderer's `pageUrl`, from
 * lib/store/keys.ts pageUrlOf), or undefined when the page is the submitted URL's own. A landing URL
 * spider cannot file (its host no site name, its URL too long) ends the message with the reason.
 */
function landingPage(submitted: string, pageUrl: string): PageRef | undefined {
  if (pageUrl === submitted) return undefined;
  const parsed = HttpUrlSchema.safeParse(pageUrl);
  if (!parsed.success) {
    throw new NonRetryableError(`redirected to another site's page spider cannot store (${parsed.error.issues[0].message}): ${pageUrl.slice(0, 200)} from ${submitted}`);
  }
  return pageRefOf(pageUrl);
}
