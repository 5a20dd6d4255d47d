/**
 * A page fetched over HTTP without a browser (the fetch path, docs/fetch-path.md): safeFetch one hop
 * at a time (egress guard, pinned address, size and time caps per hop, from lib/net), each redirect's
 * target asked of robots.txt before it is requested, and the page's HTTP status read as render reads
 * it (lib/politeness/http-status.ts). The caller has admitted the first URL (robots.txt, host turn).
 */
import type { EgressPolicy } from '../net/egress-policy';
import { safeFetch, type SafeFetchResponse } from '../net/safe-fetch';
import { decodeBytes } from '../text/encoding';
import { NonRetryableError } from '../util/errors';
import { rejectAfter } from '../util/timeout';
import { httpStatusError } from './http-status';
import type { Politeness } from './politeness';

export interface PageFetchOptions {
  readonly policy: EgressPolicy;
  readonly politeness: Politeness;
  readonly userAgent: string;
  /** Largest HTML (bytes): a longer page is not taken on this path. */
  readonly maxBytes: number;
  /** Deadline of the whole fetch, every hop together (ms). */
  readonly timeoutMs: number;
  readonly maxRedirects?: number;
}

/** What a page is asked for as: HTML first, anything else last. */
export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export type PageFetch =
  | { readonly ok: true; readonly html: string; readonly finalUrl: string; readonly redirects: readonly string[] }
  /** Not a page this path takes (not HTML, over the cap): render it instead. */
  | { readonly ok: false; readonly reason: string };

/** Fetch a page; throws what render would (robots.txt refusing a redirect, egress refusal, HTTP status errors). */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<PageFetch> {
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = Date.now() + options.timeoutMs;
  const redirects: string[] = [];
  let current = url;
  let res: SafeFetchResponse;
  const exceeded = (): Error => new Error(`fetch of ${url} exceeded ${options.timeoutMs} ms`);
  for (let hop = 0; ; hop++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw exceeded();
    res = await safeFetch(current, {
      policy: options.policy,
      userAgent: options.userAgent,
      maxBytes: options.maxBytes + 1,
      timeoutMs: remaining,
      maxRedirects: 0,
      headers: { accept: HTML_ACCEPT },
    });
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location) break;
    if (hop >= maxRedirects) throw new NonRetryableError(`more than ${maxRedirects} redirects from ${url}`);
    const next = URL.parse(location, current);
    if (!next) throw new NonRetryableError(`invalid redirect location ${JSON.stringify(location)} from ${current}`);
    // The redirect's target is asked of robots.txt too, as render asks of every navigation, within
    // the fetch's deadline: a target host whose robots.txt is slow to answer does not stretch it.
    const verdict = await rejectAfter(options.politeness.checkRobots(next.toString()), deadline - Date.now(), exceeded);
    if (!verdict.allowed) {
      if (verdict.retryable) throw new Error(verdict.reason);
      throw new NonRetryableError(verdict.reason);
    }
    redirects.push(current);
    current = next.toString();
  }
  const statusError = httpStatusError(res.status, res.headers['retry-after'], current);
  if (statusError) throw statusError;
  if (res.truncated || res.body.length > options.maxBytes) return { ok: false, reason: `the HTML is larger than ${options.maxBytes} bytes` };
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  if (type && !/text\/html|application\/xhtml\+xml/.test(type)) return { ok: false, reason: `not HTML (${type})` };
  // read as a browser reads it: a BOM, the Content-Type's charset, a <meta> in its first 1024 bytes
  return { ok: true, html: decodeBytes(res.body, type), finalUrl: current, redirects };
}
