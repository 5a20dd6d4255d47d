/**
 * Fetching a feed: http(s) only, a deadline, refused beyond maxBytes, throws on a non-2xx status,
 * the body read as a browser reads XML (lib/text/encoding.ts: a BOM, the Content-Type's charset,
 * the XML declaration, else UTF-8). `guardedFeedFetch` does it through safeFetch, under the
 * egress guard, so a page cannot point the render step's feed refresh at the metadata endpoint or
 * the intranet; `fetchFeed` is Node's fetch without the guard.
 */
import type { EgressPolicy } from './egress-policy';
import { decodeBytes } from '../text/encoding';
import { safeFetch } from './safe-fetch';

const ACCEPT = 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

export interface FetchFeedOptions {
  /** Whole request limit, headers and body. Default 5,000 ms. */
  readonly timeoutMs?: number;
  /** Largest body read; a longer feed is refused. Default 2 MiB. */
  readonly maxBytes?: number;
  readonly userAgent?: string;
  readonly signal?: AbortSignal;
}

export interface FetchedFeed {
  /** The URL after redirects. */
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export const DEFAULT_FEED_TIMEOUT_MS = 5000;
export const DEFAULT_FEED_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Fetch a feed with Node's fetch: http(s) only, a timeout over the whole exchange, the body read up
 * to `maxBytes` and refused beyond. Throws on a non-2xx status, a body that is too large, or a
 * timeout. Unguarded: it reaches any address, so production fetches feeds through
 * `guardedFeedFetch` below (the render step); this one serves tests and trusted URLs.
 */
export async function fetchFeed(url: string, options: FetchFeedOptions = {}): Promise<FetchedFeed> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_FEED_MAX_BYTES;
  const parsed = URL.parse(url);
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new Error(`not an http(s) feed URL: ${url}`);
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  const response = await fetch(parsed, {
    signal,
    redirect: 'follow',
    headers: {
      accept: ACCEPT,
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    },
  });
  try {
    if (!response.ok) throw new Error(`HTTP ${response.status} for feed ${url}`);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) throw new Error(`feed ${url} is larger than ${maxBytes} bytes (${declared})`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw new Error(`feed ${url} is larger than ${maxBytes} bytes`);
        }
        chunks.push(value);
      }
    }
    const bytes = Buffer.concat(chunks);
    const contentType = response.headers.get('content-type') ?? '';
    return { url: response.url || url, status: response.status, contentType, body: decodeBytes(bytes, contentType, { xml: true }) };
  } finally {
    if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
  }
}

/** A feed fetcher: `guardedFeedFetch(policy)` in production, a stub or `fetchFeed` in tests. */
export type FeedFetcher = (url: string, options: FetchFeedOptions) => Promise<FetchedFeed>;

export function guardedFeedFetch(policy: EgressPolicy, defaultUserAgent = 'spider'): FeedFetcher {
  return async (url, options) => {
    const maxBytes = options.maxBytes ?? DEFAULT_FEED_MAX_BYTES;
    const res = await safeFetch(url, {
      policy,
      userAgent: options.userAgent ?? defaultUserAgent,
      maxBytes: maxBytes + 1,
      timeoutMs: options.timeoutMs ?? DEFAULT_FEED_TIMEOUT_MS,
      headers: { accept: ACCEPT },
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status} for feed ${url}`);
    if (res.truncated || res.body.length > maxBytes) throw new Error(`feed ${url} is larger than ${maxBytes} bytes`);
    const contentType = String(res.headers['content-type'] ?? '');
    return { url: res.url, status: res.status, contentType, body: decodeBytes(res.body, contentType, { xml: true }) };
  };
}
