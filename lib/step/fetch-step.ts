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
 * (lib/politeness/page-fetch.ts), a link shortener's redirect asked first (`fetchThroughRedirect`)
 * and what is stored and sent are the same.
 */
import type { EgressPolicy } from '../net/egress-policy';
import { egressPolicyFor } from '../net/egress-policy';
import { StoreHostLimiter } from '../politeness/host-limiter';
import { safeFetch } from '../net/safe-fetch';
import { httpStatusError } from '../politeness/http-status';
import { fetchPage, HTML_ACCEPT } from '../politeness/page-fetch';
import { Politeness } from '../politeness/politeness';
import { keys, normalizeUrl, pageIdOf, pageUrlOf, siteOf } from '../store/keys';
import { forgetRedirecting, pageRefOf, recordRedirect, siteRedirects, type PageRef } from '../store/redirects';
import { htmlToStore } from '../text/encoding';
import { withFetchRecord } from '../types/fetch-record';
import { HttpUrlSchema, type RenderMessage } from '../types/messages';
import { deferralOf, describeError, retryAfterOf, RetryLaterError } from '../util/errors';
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

/**
 * The page's way (./route.ts) from its message and its site's rules; for a site with no rules, whether
 * it redirects to other sites (a redirect record under it: one LIST of one key, lib/store/redirects.ts).
 */
export async function routeOf(message: RenderMessage, ctx: StepContext): Promise<Route> {
  const url = normalizeUrl(message.url);
  const site = siteOf(url);
  const enabled = ctx.config.fetchPath;
  const archived = message.archiveKey !== undefined;
  const renderAsked = message.path === 'render';
  const routed = enabled && !archived && !renderAsked;
  const rules = routed ? await loadRules(site, ctx) : undefined;
  // only a saving: a store that cannot say (throttled, unreadable) routes the page as before
  const redirects =
    routed && !rules
      ? await siteRedirects(ctx.store, site).catch((error: unknown) => {
          ctx.logger.warn('could not ask whether the site redirects; routed as before', { site, error: describeError(error) });
          return false;
        })
      : false;
  return routePage({ pageId: pageIdOf(url), enabled, sampleRate: ctx.config.renderSampleRate, archived, renderAsked, rules, redirects });
}

export interface FetchPathOptions {
  readonly policy: EgressPolicy;
  readonly politeness: Politeness;
  /** Deadline of the whole fetch (ms); default config.renderTimeoutMs. */
  readonly timeoutMs?: number;
  /**
   * The submitted URL, of another site, whose redirect led to this page (`fetchThroughRedirect`): its
   * redirect record is written once the page is stored, and apply gets it as `submittedUrl`.
   */
  readonly from?: PageRef;
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
  // A short link's page is the one its whole chain ends on (render files it so): a landing page that
  // redirects again (to https, to www., to a new address) is rendered, never filed under the first hop.
  if (options.from && fetched.redirects.length) return { ok: false, reason: `its landing page redirects again (to ${fetched.finalUrl.slice(0, 200)}): rendered, filed under the chain's end` };
  const from = options.from;
  const submitted = from ? { submittedUrl: from.url } : {};
  const served = withFetchRecord(fetched.html, { version: 1, url, ...submitted, fetchedAt: new Date().toISOString() });
  await ctx.store.put(keys.served(site, pageId), htmlToStore(served), { contentType: 'text/html; charset=utf-8' });
  // as render records a redirect: the page stored first, so the record never points at nothing
  if (from) await recordRedirect(ctx.store, from, { url, site, pageId });
  await ctx.queues.apply.send({ v: 1, site, pageId, reason: 'rendered', path: 'fetch', url, ...submitted });
  ctx.logger.info('fetched', { url, site, pageId, path: 'fetch', ...submitted, redirects: fetched.redirects.length });
  return { ok: true, elapsedMs: Math.round(performance.now() - started), redirects: fetched.redirects.length };
}

/** Largest answer the redirect's question reads: a redirect's body is a line or two, and any other answer is not used. */
const REDIRECT_PROBE_MAX_BYTES = 16 * 1024;
/**
 * The least time worth starting a page fetch with: the AWS fetch function retries a record with less
 * in a fresh invocation, and a short link's landing host's turn is waited for only while it leaves this.
 */
export const MIN_FETCH_MS = 5_000;

export type FetchedThroughRedirect =
  | { readonly ok: true; readonly page: PageRef; readonly elapsedMs: number }
  | { readonly ok: false; readonly reason: string };

/**
 * A submitted URL of a site with no rules whose URLs redirect to other sites (route `resolve`: a link
 * shortener's), its host admitted by the caller (robots.txt, its turn): one request that does not
 * follow redirects asks where it leads. A 3xx to a page of another site (lib/store/keys.ts pageUrlOf)
 * whose own route says fetch (its site's rules work on the HTML as served, not in its render sample)
 * is fetched as that site's page (its host admitted in its own turn), its redirect record written, and
 * handed to apply with the submitted URL (`fetchPathPage` with `from`). `ok: false` in every other
 * case, with the reason: no redirect (a 200, an error), a redirect within its own site, a landing
 * page this path does not take or could not fetch. The URL must then be rendered as before (render
 * follows the redirect, and fails, or retries, as it always did): nothing of it was stored. Thrown:
 * a deferral (the landing host's turn too far away: the message is handed back), and a 429 or a 503
 * with Retry-After from either host (that host held: the message is retried after it). The landing
 * host's turn counts against the deadline: a turn too far for it is a deferral too.
 */
export async function fetchThroughRedirect(url: string, ctx: StepContext, options: FetchPathOptions): Promise<FetchedThroughRedirect> {
  const started = performance.now();
  const deadline = Date.now() + (options.timeoutMs ?? ctx.config.renderTimeoutMs);
  const remaining = () => Math.max(1, deadline - Date.now());
  const from = pageRefOf(url);
  let landing: string | undefined;
  try {
    const answer = await safeFetch(url, {
      policy: options.policy,
      userAgent: ctx.config.userAgent,
      maxBytes: REDIRECT_PROBE_MAX_BYTES,
      timeoutMs: remaining(),
      maxRedirects: 0,
      headers: { accept: HTML_ACCEPT },
    });
    // a 429 (or 503 with Retry-After): its host waits, and the message with it, as for any request
    const wait = httpStatusError(answer.status, answer.headers['retry-after'], url);
    if (wait instanceof RetryLaterError) throw wait;
    const location = answer.status >= 300 && answer.status < 400 ? answer.headers.location : undefined;
    if (!location) {
      // it answers for itself now: no longer taken for a shortener by this process
      forgetRedirecting(ctx.store, from.site);
      return { ok: false, reason: `asked where it leads, it answered ${answer.status}, no redirect` };
    }
    const target = URL.parse(location, url);
    landing = target ? pageUrlOf(url, target.toString()) : url;
    if (landing === url) return { ok: false, reason: `it redirects within its own site (${location.slice(0, 200)})` };
    if (!HttpUrlSchema.safeParse(landing).success) return { ok: false, reason: `it redirects to a URL spider cannot store (${landing.slice(0, 200)})` };
    const route = await routeOf({ v: 1, url: landing }, ctx);
    if (route.path !== 'fetch') return { ok: false, reason: `it leads to ${landing.slice(0, 200)}, not fetched: ${route.reason}` };
    // The landing host's turn is waited for within this fetch's deadline (after its robots.txt, which
    // takes time too), leaving the fetch its least time: beyond, it is a deferral (the message comes
    // back). On AWS the deadline is what the invocation has left less a margin, and a wait past it
    // would end the invocation and redeliver the whole batch.
    const turn = await options.politeness.check(landing);
    await turn.take(remaining() - MIN_FETCH_MS);
    const fetched = await fetchPathPage(landing, ctx, { ...options, timeoutMs: remaining(), from });
    if (!fetched.ok) return { ok: false, reason: `it leads to ${landing.slice(0, 200)}, not fetched: ${fetched.reason}` };
    return { ok: true, page: pageRefOf(landing), elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    // the landing host's turn too far away: not a failure, the message comes back (and asks again)
    if (deferralOf(error) !== undefined) throw error;
    // a 429 (or 503 with Retry-After) from the landing host or the short link's: that host waits (not
    // the other), and the message is retried after it, as render would retry it
    if (retryAfterOf(error) !== undefined) throw await retryLaterOf(error, landing ?? url, options.politeness, ctx);
    // Anything else (the shortener down, a robots.txt refusal, the landing page's 404): render meets it
    // as it always did, and ends the message as it would have (retried, or a dead letter with its reason).
    return { ok: false, reason: `${landing ? `its redirect to ${landing.slice(0, 200)}` : 'asking where it leads'} failed: ${describeError(error)}` };
  }
}

export type FetchedRoute =
  | { readonly ok: true; readonly page: PageRef; readonly submittedUrl?: string; readonly elapsedMs: number }
  | { readonly ok: false; readonly reason: string };

/**
 * What a route that does not render fetches, its host admitted by the caller: the submitted URL's own
 * page (`fetch`: `fetchPathPage`), or the page of another site its redirect leads to (`resolve`:
 * `fetchThroughRedirect`; the submitted URL is then `submittedUrl`). `ok: false`: render it.
 */
export async function fetchRouted(url: string, path: 'fetch' | 'resolve', ctx: StepContext, options: FetchPathOptions): Promise<FetchedRoute> {
  if (path === 'resolve') {
    const resolved = await fetchThroughRedirect(url, ctx, options);
    return resolved.ok ? { ...resolved, submittedUrl: url } : resolved;
  }
  const fetched = await fetchPathPage(url, ctx, options);
  return fetched.ok ? { ok: true, page: pageRefOf(url), elapsedMs: fetched.elapsedMs } : fetched;
}

/**
 * A 429 / 503 with Retry-After: the whole host waits (the shared limiter), and the message is retried
 * after it, as a RetryLaterError. Any other error is returned as it is, and so is one whose host waits
 * already (a short link's landing host, held by fetchThroughRedirect: the shortener's is not).
 */
export async function retryLaterOf(error: unknown, url: string, politeness: Politeness, ctx: StepContext): Promise<unknown> {
  if (error instanceof RetryLaterError && error.hostPaused) return error;
  const retryAfter = retryAfterOf(error);
  if (retryAfter === undefined) return error;
  const capped = Math.min(retryAfter, ctx.config.maxRetryAfterSeconds * 1000);
  await politeness.retryLater(url, capped);
  return new RetryLaterError((error as Error).message, capped, true);
}

export interface FetchStepContext extends StepContext {
  /** The egress guard of the fetch; default from the config (the same policy render's browser gets). */
  readonly policy?: EgressPolicy;
  readonly politeness?: Politeness;
  /** Deadline of the fetch (ms); default config.renderTimeoutMs (the AWS handler gives less near its own timeout). */
  readonly fetchTimeoutMs?: number;
}

export interface FetchOutcome {
  /** The page's site and id: the submitted URL's, or those of the page its redirect led to (`submittedUrl` set). */
  readonly site: string;
  readonly pageId: string;
  /** The URL submitted, when its redirect was asked first and led to the page fetched. */
  readonly submittedUrl?: string;
  /** `fetch`: fetched and handed to apply; `render`: forwarded, unchanged, to the render queue. */
  readonly path: PagePath;
  /** Why the page went that way (the route's reason, or why the fetch could not take it). */
  readonly reason: string;
  readonly elapsedMs: number;
}

const policies = new WeakMap<object, EgressPolicy>();

/**
 * The intake on AWS (functions/fetch.ts): one submitted page (a render message). A learned site's page
 * is fetched and handed to apply, and so is the page a link shortener's URL leads to when that page's
 * site is on the fetch path (`fetchThroughRedirect`); any other page, and a page the fetch cannot
 * take, goes to the render queue unchanged. Failures are render's: an HTTP 4xx or a robots.txt refusal can never
 * succeed (NonRetryableError, a dead letter with the reason), a 5xx or a network error is retried.
 */
export async function fetchStep(message: RenderMessage, ctx: FetchStepContext): Promise<FetchOutcome> {
  const started = performance.now();
  const url = normalizeUrl(message.url);
  const site = siteOf(url);
  const pageId = pageIdOf(url);
  const elapsed = () => Math.round(performance.now() - started);
  const toRender = async (reason: string, note: string): Promise<FetchOutcome> => {
    await ctx.queues.render.send(message);
    ctx.logger.info(note, { url, site, pageId, reason });
    return { site, pageId, path: 'render', reason, elapsedMs: elapsed() };
  };
  const route = await routeOf(message, ctx);
  if (route.path === 'render') return toRender(route.reason, 'to render');
  const politeness = politenessFor(ctx, ctx.politeness);
  let policy = ctx.policy ?? policies.get(ctx.config);
  if (!policy) policies.set(ctx.config, (policy = egressPolicyFor(ctx.config)));
  try {
    await politeness.admit(url);
  } catch (error) {
    // A link shortener's URL is asked where it leads only to spare a render: a refusal of the question
    // (robots.txt unreachable or disallowing, the egress guard) is render's to meet, as before. A
    // deferral (its host's turn) is not a failure: the message comes back.
    if (route.path !== 'resolve' || deferralOf(error) !== undefined) throw error;
    return toRender(`asking where it leads failed: ${describeError(error)}`, 'redirect not asked: to render');
  }
  let fetched: FetchedRoute;
  try {
    fetched = await fetchRouted(url, route.path, ctx, { policy, politeness, timeoutMs: ctx.fetchTimeoutMs });
  } catch (error) {
    throw await retryLaterOf(error, url, politeness, ctx);
  }
  if (fetched.ok) {
    const { page, submittedUrl } = fetched;
    return { site: page.site, pageId: page.pageId, ...(submittedUrl ? { submittedUrl } : {}), path: 'fetch', reason: route.reason, elapsedMs: elapsed() };
  }
  return toRender(fetched.reason, 'fetch path: to render instead');
}
