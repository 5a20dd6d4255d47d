/**
 * robots.txt (RFC 9309), parsed by robots-parser, fetched with the egress guard (safeFetch), cached per
 * origin (scheme, host and port, as the RFC scopes it):
 *
 *   2xx            the rules, for the user agent's product token (`spider` of `spider/0.1 (+…)`),
 *                  kept up to robotsCacheSeconds (at most 24 h)
 *   3xx            followed, up to 5 hops, each checked by the egress policy
 *   4xx (not 429)  "unavailable": everything allowed, kept like rules
 *   429, 5xx, network error, timeout
 *                  "unreachable": everything disallowed for now (retryable), fetched again after
 *                  robotsRetrySeconds. The reason says what happened, and nothing of a retry (the
 *                  queue says that, and a dead letter's reason is final): `robots.txt of <origin>
 *                  answered HTTP 503, …`, or, when the host could not be reached at all, `cannot
 *                  reach <origin>: connection refused (ECONNREFUSED)` (the error's code kept, no
 *                  address nor OpenSSL's internals: `TLS handshake failed: wrong version number (EPROTO)`)
 *
 * The RFC asks crawlers to parse at least 500 KiB; longer files are cut there.
 *
 * Paths are compared as RFC 9309 §2.2.2 asks, percent-encoded alike on both sides: an encoded
 * unreserved character means the character itself (`/p/%70rivate` is `/p/private`), and the hex of
 * the other escapes is upper case, in the rules and in the URL asked about (robots-parser encodes
 * the rules' other characters, `new URL` the URL's). A file that is gzip data (a server that
 * compresses it without saying so) is unpacked; a Content-Encoding is decoded by the fetch.
 */
import { constants, gunzipSync } from 'node:zlib';
import robotsParser from 'robots-parser';
import type { SafeFetchResponse } from '../net/safe-fetch';
import { EgressBlockedError } from '../util/errors';

export const ROBOTS_MAX_BYTES = 500 * 1024;

export type RobotsVerdict =
  | { readonly allowed: true; readonly crawlDelaySeconds?: number; readonly source: 'rules' | 'unavailable' | 'disabled' }
  | { readonly allowed: false; readonly retryable: boolean; readonly reason: string };

interface Entry {
  readonly expiresAt: number;
  readonly kind: 'rules' | 'unavailable' | 'unreachable';
  readonly robot?: ReturnType<typeof robotsParser>;
  /** The HTTP status (`HTTP 503`), or what kept the host from answering. */
  readonly detail: string;
  /** The host answered (with a status): else it could not be reached. */
  readonly answered: boolean;
}

export interface RobotsOptions {
  /** Fetches a robots.txt URL (safeFetch with the egress policy, the user agent and ROBOTS_MAX_BYTES). */
  readonly fetch: (url: string) => Promise<SafeFetchResponse>;
  readonly userAgent: string;
  readonly cacheMs: number;
  readonly retryMs: number;
  readonly now?: () => number;
}

export class RobotsTxt {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();
  private readonly now: () => number;
  /** robots.txt fetches made (tests, logs). */
  fetches = 0;

  constructor(private readonly options: RobotsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The user agent's product token, which robots.txt groups are matched against. */
  get token(): string {
    return this.options.userAgent.split(/[/\s]/)[0].toLowerCase();
  }

  async check(pageUrl: string): Promise<RobotsVerdict> {
    const url = new URL(pageUrl);
    const entry = await this.entryFor(url.origin);
    if (entry.kind === 'unreachable') {
      const reason = entry.answered
        ? `robots.txt of ${url.origin} answered ${entry.detail}, which disallows every page of the host for now (RFC 9309)`
        : `cannot reach ${url.origin}: ${entry.detail}`;
      return { allowed: false, retryable: true, reason };
    }
    if (entry.kind === 'unavailable') return { allowed: true, source: 'unavailable' };
    const robot = entry.robot!;
    const asked = normalisePercentEncoding(url.toString());
    const allowed = robot.isAllowed(asked, this.options.userAgent) !== false;
    if (!allowed) {
      const line = robot.getMatchingLineNumber(asked, this.options.userAgent);
      return { allowed: false, retryable: false, reason: `disallowed by robots.txt for ${this.token} (${url.origin}/robots.txt line ${line}): ${url}` };
    }
    return { allowed: true, crawlDelaySeconds: robot.getCrawlDelay(this.options.userAgent), source: 'rules' };
  }

  /** Forgets every cached robots.txt. */
  clear(): void {
    this.cache.clear();
  }

  private async entryFor(origin: string): Promise<Entry> {
    const cached = this.cache.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached;
    let pending = this.inFlight.get(origin);
    if (!pending) {
      pending = this.fetchEntry(origin).finally(() => this.inFlight.delete(origin));
      this.inFlight.set(origin, pending);
    }
    const entry = await pending;
    this.cache.set(origin, entry);
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    return entry;
  }

  private async fetchEntry(origin: string): Promise<Entry> {
    const robotsUrl = `${origin}/robots.txt`;
    const keep = this.now() + this.options.cacheMs;
    const retry = this.now() + this.options.retryMs;
    this.fetches++;
    let res: SafeFetchResponse;
    try {
      res = await this.options.fetch(robotsUrl);
    } catch (error) {
      // A robots.txt the egress guard refuses belongs to a host we may not reach at all: say so.
      if (error instanceof EgressBlockedError) throw error;
      return { kind: 'unreachable', expiresAt: retry, detail: networkProblem(error), answered: false };
    }
    if (res.status >= 200 && res.status < 300) {
      const text = normaliseRules(unpacked(res.body).subarray(0, ROBOTS_MAX_BYTES).toString('utf8'));
      // Rules are matched against the URL's own origin, whatever host a redirect ended on.
      return { kind: 'rules', expiresAt: keep, robot: robotsParser(robotsUrl, text), detail: `HTTP ${res.status}`, answered: true };
    }
    if (res.status === 429 || res.status >= 500) return { kind: 'unreachable', expiresAt: retry, detail: `HTTP ${res.status}`, answered: true };
    if (res.status >= 400) return { kind: 'unavailable', expiresAt: keep, detail: `HTTP ${res.status}`, answered: true };
    // Redirects past the limit, or other oddities: unavailable, per RFC 9309 §2.3.1.2 after 5 hops.
    return { kind: 'unavailable', expiresAt: keep, detail: `HTTP ${res.status}`, answered: true };
  }
}

/** Socket errors said in words; the code is kept beside them. */
const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  EPROTO: 'TLS handshake failed',
};

/**
 * Why a request got no answer, for a reason people read: the socket error in words with its code
 * (`connection refused (ECONNREFUSED)`), without the address it was connecting to (a reason must not
 * tell what a name resolves to) nor OpenSSL's internals (`write EPROTO C00C…:error:0A00010B:SSL
 * routines:…:wrong version number:../deps/openssl/…` is `TLS handshake failed: wrong version number (EPROTO)`).
 */
function networkProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // OpenSSL's `<hex>:error:<hex>:SSL routines:<function>:<reason>:<file>:<line>:`: its reason alone
  const ssl = /:error:[0-9A-F]+:SSL routines:[^:]*:([^:]+)/i.exec(message)?.[1]?.trim();
  const known = code ? NETWORK_ERRORS[code] : undefined;
  if (known) return `${known}${ssl ? `: ${ssl}` : ''} (${code})`;
  if (ssl || code?.startsWith('ERR_SSL_')) return `TLS handshake failed${ssl ? `: ${ssl}` : ''}${code ? ` (${code})` : ''}`;
  const plain = message.replace(/\s+/g, ' ').trim();
  return code && !plain.includes(code) ? `${plain} (${code})` : plain;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `%XX` escapes made comparable: an unreserved character's escape becomes the character, other hex goes upper case. */
export function normalisePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The Allow and Disallow paths of a robots.txt with their escapes made comparable (comments and other lines as they are). */
function normaliseRules(text: string): string {
  return text.replace(/^(\s*(?:allow|disallow)\s*:)([^#\r\n]*)/gim, (_, key: string, value: string) => key + normalisePercentEncoding(value));
}

/** A body that is gzip data (magic bytes 1f 8b) unpacked, up to the size the RFC asks to parse; anything else as it is. */
function unpacked(body: Buffer): Buffer {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: ROBOTS_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof RangeError)) return body;
  }
  // Longer than the RFC's limit once unpacked: parse what fits, as for a long plain file. Growing
  // prefixes of the compressed bytes bound the work (a byte of deflate unpacks to at most ~1 KiB).
  let text = Buffer.alloc(0);
  for (let take = 1024; text.length < ROBOTS_MAX_BYTES && take < body.length * 2; take *= 2) {
    text = gunzipSync(body.subarray(0, take), { finishFlush: constants.Z_SYNC_FLUSH });
  }
  return text.subarray(0, ROBOTS_MAX_BYTES);
}
