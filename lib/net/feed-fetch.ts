/**
 * Feeds fetched under the egress guard: the same contract as lib/fields/feeds.ts's `fetchFeed`
 * (http(s) only, a deadline, refused beyond maxBytes, throws on a non-2xx status), through safeFetch,
 * so a page cannot point the render step's feed refresh at the metadata endpoint or the intranet.
 */
import type { FetchedFeed, FetchFeedOptions } from '../fields/feeds';
import type { EgressPolicy } from './egress-policy';
import { safeFetch } from './safe-fetch';

const ACCEPT = 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

export function guardedFeedFetch(policy: EgressPolicy, defaultUserAgent = 'spider'): (url: string, options: FetchFeedOptions) => Promise<FetchedFeed> {
  return async (url, options) => {
    const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
    const res = await safeFetch(url, {
      policy,
      userAgent: options.userAgent ?? defaultUserAgent,
      maxBytes: maxBytes + 1,
      timeoutMs: options.timeoutMs ?? 5000,
      headers: { accept: ACCEPT },
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status} for feed ${url}`);
    if (res.truncated || res.body.length > maxBytes) throw new Error(`feed ${url} is larger than ${maxBytes} bytes`);
    const contentType = String(res.headers['content-type'] ?? '');
    return { url: res.url, status: res.status, contentType, body: decode(res.body, contentType) };
  };
}

function decode(bytes: Buffer, contentType: string): string {
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ??
    /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)["']/i.exec(bytes.subarray(0, 300).toString('latin1'))?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // unknown label: UTF-8
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}
