/**
 * The render step's part for article fields: fetch the feeds a page links to (`<link rel=alternate>`
 * of type RSS or Atom) and store them under `feeds/<site>/<feedId>.xml` for learn, at most once per
 * feed URL per interval. A feed that fails or does not parse is logged and skipped, never fatal.
 */
import type { Logger } from '../step/context';
import { feedIdOf, keys } from '../store/keys';
import type { Store } from '../store/store';
import type { PageMetadata } from '../types/feature-document';
import { describeError } from '../util/errors';
import { DEFAULT_FEED_MAX_BYTES, DEFAULT_FEED_TIMEOUT_MS, type FeedFetcher } from '../net/feed-fetch';
import { parseFeed } from './feeds';

export interface FeedRefreshOptions {
  /** Fetch feeds at all. Default true. */
  readonly enabled?: boolean;
  /** A feed URL is fetched at most once per this many minutes. Default 60. */
  readonly intervalMinutes?: number;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Feeds fetched per page (the first ones the page links to). Default 2. */
  readonly maxFeedsPerPage?: number;
  readonly userAgent?: string;
  /** The fetcher, required: the render step passes `guardedFeedFetch` (the egress guard); tests pass a stub. */
  readonly fetch: FeedFetcher;
  /** The clock (tests). */
  readonly now?: () => number;
}

export const DEFAULT_FEED_INTERVAL_MINUTES = 60;

/** Last attempt per feed key in this process: a failing feed is not retried on every page either. */
const attempts = new Map<string, number>();
const MAX_ATTEMPTS_REMEMBERED = 10_000;

/** Forget the attempts remembered in this process (tests). */
export function clearFeedAttempts(): void {
  attempts.clear();
}

export interface FeedRefreshOutcome {
  readonly stored: string[];
  readonly skipped: string[];
  readonly failed: Array<{ url: string; error: string }>;
}

/** Fetch and store the page's feeds that are due. */
export async function refreshFeeds(
  site: string,
  page: Pick<PageMetadata, 'feeds'>,
  store: Store,
  logger: Logger,
  options: FeedRefreshOptions,
): Promise<FeedRefreshOutcome> {
  const outcome: FeedRefreshOutcome = { stored: [], skipped: [], failed: [] };
  if (options.enabled === false) return outcome;
  const now = options.now ?? Date.now;
  const intervalMs = (options.intervalMinutes ?? DEFAULT_FEED_INTERVAL_MINUTES) * 60_000;
  const urls = [...new Set(page.feeds.map((f) => f.href).filter((h) => /^https?:\/\//i.test(h)))].slice(0, options.maxFeedsPerPage ?? 2);
  for (const url of urls) {
    const key = keys.feed(site, feedIdOf(url));
    const last = attempts.get(key);
    if (last !== undefined && now() - last < intervalMs) {
      outcome.skipped.push(url);
      continue;
    }
    const stored = (await store.list(key)).find((o) => o.key === key);
    if (stored && now() - stored.lastModified.getTime() < intervalMs) {
      attempts.set(key, stored.lastModified.getTime());
      outcome.skipped.push(url);
      continue;
    }
    if (attempts.size >= MAX_ATTEMPTS_REMEMBERED) attempts.clear();
    attempts.set(key, now());
    try {
      const fetched = await options.fetch(url, {
        timeoutMs: options.timeoutMs ?? DEFAULT_FEED_TIMEOUT_MS,
        maxBytes: options.maxBytes ?? DEFAULT_FEED_MAX_BYTES,
        userAgent: options.userAgent,
      });
      const feed = parseFeed(fetched.body);
      if (!feed) throw new Error(`not an RSS or Atom feed (${fetched.contentType || 'no content type'})`);
      await store.put(key, fetched.body, { contentType: 'application/xml; charset=utf-8' });
      outcome.stored.push(url);
      logger.info('stored feed', { site, url, entries: feed.entries.length, key });
    } catch (error) {
      outcome.failed.push({ url, error: describeError(error) });
      logger.warn('feed not fetched', { site, url, error: describeError(error) });
    }
  }
  return outcome;
}
