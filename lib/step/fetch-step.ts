/**
 * The fetch path's step code (docs/fetch-path.md), shared by the two consumers that run it:
 *
 * - the embedded runner's render consumer (lib/render/render-step.ts) routes a page before it starts a
 *   browser and, on the fetch path, fetches it here; a page this path does not take is rendered in
 *   the same process;
 * - the AWS fetch function (functions/fetch.ts), the stack's intake: `fetchStep` routes each submitted
 *   page, fetches the learned sites' pages here and forwards every other page, unchanged, to the render
 *   queue, so a learned site's page never starts the Chromium function (docs/aws.md).
 *
 * Only the adapters differ (store, queues, host limiter): the routing (./route.ts), the fetch
 * (lib/politeness/page-fetch.ts) and what is stored and sent are the same.
 */
import type { EgressPolicy } from '../net/egress-policy';
import { egressPolicyFor } from '../net/egress-policy';
import { StoreHostLimiter } from '../politeness/host-limiter';
import { fetchPage } from '../politeness/page-fetch';
import { Politeness } from '../politeness/politeness';
import { keys, normalizeUrl, pageIdOf, pageUrlOf, siteOf } from '../store/keys';
import { htmlToStore } from '../text/encoding';
import { withFetchRecord } from '../types/fetch-record';
import type { RenderMessage } from '../types/messages';
import { retryAfterOf, RetryLaterError } from '../util/errors';
import type { StepContext } from './context';
import { routePage, type PagePath, type Route } from './route';
import { loadRules } from './rules';

const sharedPoliteness = new WeakMap<object, Politeness>();

/**
 * robots.txt and the per-host rate limit: the given one (the embedded runner's), or one per store whose
 * rate limit is shared through the store, so that concurrent Lambda containers (render's and fetch's
 * alike) keep to the same per-host limit.
 */
export function politenessFor(ctx: StepContext, given?: Politeness): Politeness {
  if (given) return given;
  let p = sharedPoliteness.get(ctx.store);
  if (!p) {
    p = new Politeness(ctx.config, { limiter: new StoreHostLimiter(ctx.store) });
    sharedPoliteness.set(ctx.store, p);
  }
  return p;
}

/** The page's way (./route.ts) from its message and its site's rules. */
export async function routeOf(message: RenderMessage, ctx: StepContext): Promise<Route> {
  const url = normalizeUrl(message.url);
  const enabled = ctx.config.fetchPath;
  const archived = message.archiveKey !== undefined;
  const renderAsked = message.path === 'render';
  const rules = enabled && !archived && !renderAsked ? await loadRules(siteOf(url), ctx) : undefined;
  return routePage({ pageId: pageIdOf(url), enabled, sampleRate: ctx.config.renderSampleRate, archived, renderAsked, rules });
}

export interface FetchPathOptions {
  readonly policy: EgressPolicy;
  readonly politeness: Politeness;
  /** Deadline of the whole fetch (ms); default config.renderTimeoutMs. */
  readonly timeoutMs?: number;
}

export type FetchedPage = { readonly ok: true; readonly elapsedMs: number; readonly redirects: number } | { readonly ok: false; readonly reason: string };

/**
 * Fetches an admitted page over HTTP and hands it to apply (`path: 'fetch'`), its HTML as served
 * stored as `served.html`, led by its fetch record (its URL: lib/types/fetch-record.ts): a relearn
 * that lists the page's `served.html` finds its URL there, whether or not its apply, which may have
 * read the older rules, has written an article yet. `ok: false` when the page is not one this path takes
 * (not HTML, over the cap, or a redirect took it to another site: lib/store/keys.ts pageUrlOf): it must
 * be rendered. Throws what render would (HTTP status, robots.txt refusing a redirect,
 * egress refusal); see `retryLaterOf` for 429/503 with Retry-After.
 */
export async function fetchPathPage(url: string, ctx: StepContext, options: FetchPathOptions): Promise<FetchedPage> {
  const site = siteOf(url);
  const pageId = pageIdOf(url);
  const started = performance.now();
  const fetched = await fetchPage(url, {
    policy: options.policy,
    politeness: options.politeness,
    userAgent: ctx.config.userAgent,
    maxBytes: ctx.config.maxHtmlBytes,
    timeoutMs: options.timeoutMs ?? ctx.config.renderTimeoutMs,
  });
  if (!fetched.ok) return { ok: false, reason: fetched.reason };
  // A page another site served is that site's, to be learned and extracted with its rules, which this
  // site's route did not ask about: rendered, as any submitted URL that lands on another site is.
  if (pageUrlOf(url, fetched.finalUrl) !== url) return { ok: false, reason: `redirected to another site (${fetched.finalUrl.slice(0, 200)}): rendered as that site's page` };
  const served = withFetchRecord(fetched.html, { version: 1, url, fetchedAt: new Date().toISOString() });
  await ctx.store.put(keys.served(site, pageId), htmlToStore(served), { contentType: 'text/html; charset=utf-8' });
  await ctx.queues.apply.send({ v: 1, site, pageId, reason: 'rendered', path: 'fetch', url });
  ctx.logger.info('fetched', { url, site, pageId, path: 'fetch', redirects: fetched.redirects.length });
  return { ok: true, elapsedMs: Math.round(performance.now() - started), redirects: fetched.redirects.length };
}

/**
 * A 429 / 503 with Retry-After: the whole host waits (the shared limiter), and the message is retried
 * after it, as a RetryLaterError. Any other error is returned as it is.
 */
export async function retryLaterOf(error: unknown, url: string, politeness: Politeness, ctx: StepContext): Promise<unknown> {
  const retryAfter = retryAfterOf(error);
  if (retryAfter === undefined) return error;
  const capped = Math.min(retryAfter, ctx.config.maxRetryAfterSeconds * 1000);
  await politeness.retryLater(url, capped);
  return new RetryLaterError((error as Error).message, capped);
}

export interface FetchStepContext extends StepContext {
  /** The egress guard of the fetch; default from the config (the same policy render's browser gets). */
  readonly policy?: EgressPolicy;
  readonly politeness?: Politeness;
  /** Deadline of the fetch (ms); default config.renderTimeoutMs (the AWS handler gives less near its own timeout). */
  readonly fetchTimeoutMs?: number;
}

export interface FetchOutcome {
  readonly site: string;
  readonly pageId: string;
  /** `fetch`: fetched and handed to apply; `render`: forwarded, unchanged, to the render queue. */
  readonly path: PagePath;
  /** Why the page went that way (the route's reason, or why the fetch could not take it). */
  readonly reason: string;
  readonly elapsedMs: number;
}

const policies = new WeakMap<object, EgressPolicy>();

/**
 * The intake on AWS (functions/fetch.ts): one submitted page (a render message). A learned site's page
 * is fetched and handed to apply; any other page, and a page the fetch cannot take, goes to the
 * render queue unchanged. Failures are render's: an HTTP 4xx or a robots.txt refusal can never
 * succeed (NonRetryableError, a dead letter with the reason), a 5xx or a network error is retried.
 */
export async function fetchStep(message: RenderMessage, ctx: FetchStepContext): Promise<FetchOutcome> {
  const started = performance.now();
  const url = normalizeUrl(message.url);
  const site = siteOf(url);
  const pageId = pageIdOf(url);
  const elapsed = () => Math.round(performance.now() - started);
  const route = await routeOf(message, ctx);
  if (route.path === 'render') {
    await ctx.queues.render.send(message);
    ctx.logger.info('to render', { url, site, pageId, reason: route.reason });
    return { site, pageId, path: 'render', reason: route.reason, elapsedMs: elapsed() };
  }
  const politeness = politenessFor(ctx, ctx.politeness);
  let policy = ctx.policy ?? policies.get(ctx.config);
  if (!policy) policies.set(ctx.config, (policy = egressPolicyFor(ctx.config)));
  await politeness.admit(url);
  let fetched: FetchedPage;
  try {
    fetched = await fetchPathPage(url, ctx, { policy, politeness, timeoutMs: ctx.fetchTimeoutMs });
  } catch (error) {
    throw await retryLaterOf(error, url, politeness, ctx);
  }
  if (fetched.ok) return { site, pageId, path: 'fetch', reason: route.reason, elapsedMs: elapsed() };
  await ctx.queues.render.send(message);
  ctx.logger.info('fetch path: to render instead', { url, site, pageId, reason: fetched.reason });
  return { site, pageId, path: 'render', reason: fetched.reason, elapsedMs: elapsed() };
}
