/**
 * Node-side fetches (robots.txt, feeds) under the same egress policy as the browser: every hop of a
 * redirect chain is checked, the host is resolved once and the connection goes to the checked address
 * (pinned through the request's `lookup`), the body is capped, and the whole fetch has a deadline.
 * A body sent with a Content-Encoding (gzip, deflate, br: asked for, and some servers send it anyway)
 * is decoded, and the cap counts decoded bytes, so a small compressed body cannot grow past it.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { EgressBlockedError, NonRetryableError } from '../util/errors';
import type { EgressPolicy, ResolvedAddress } from './egress-policy';

export interface SafeFetchOptions {
  readonly policy: EgressPolicy;
  readonly userAgent: string;
  /** Largest body read (bytes); longer bodies are cut there and `truncated` is set. */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
  readonly headers?: Record<string, string>;
  readonly method?: 'GET' | 'HEAD';
}

export interface SafeFetchResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** The URL that answered, after redirects. */
  readonly url: string;
  readonly redirects: readonly string[];
  readonly truncated: boolean;
}

export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeFetchResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const redirects: string[] = [];
  let url = input;
  for (let hop = 0; ; hop++) {
    const parsed = URL.parse(url);
    if (!parsed) throw new NonRetryableError(`not a valid absolute URL: ${url}`);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EgressBlockedError(url, `the ${parsed.protocol} scheme is not allowed (http and https only)`);
    const early = options.policy.checkUrl(parsed);
    if (early) throw new EgressBlockedError(url, early);
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    const verdict = await options.policy.resolve(parsed.hostname, port);
    if (!verdict.allowed) {
      if (verdict.retryable) throw new Error(`${verdict.reason} (${url})`);
      throw new EgressBlockedError(url, verdict.reason);
    }
    const res = await request(parsed, verdict.addresses, options, deadline);
    const location = res.headers.location;
    // Past the redirect limit the last 3xx is returned as it is: the caller decides what it means.
    if (res.status >= 300 && res.status < 400 && location && options.method !== 'HEAD' && hop < maxRedirects) {
      const next = URL.parse(location, parsed);
      if (!next) throw new NonRetryableError(`invalid redirect location ${JSON.stringify(location)} from ${url}`);
      redirects.push(url);
      url = next.toString();
      continue;
    }
    return { ...res, url, redirects };
  }
}

function request(
  url: URL,
  addresses: readonly ResolvedAddress[],
  options: SafeFetchOptions,
  deadline: number,
): Promise<Omit<SafeFetchResponse, 'url' | 'redirects'>> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const mod = url.protocol === 'https:' ? https : http;
  // Pin the connection to the checked addresses: Node asks this lookup instead of DNS.
  const pinned = (_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    const list: LookupAddress[] = addresses.map((a) => ({ address: a.address, family: a.family }));
    if (opts?.all) cb(null, list);
    else cb(null, list[0].address, list[0].family);
  };
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new Error(`fetch of ${url} timed out`));
    const req = mod.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: { 'user-agent': options.userAgent, accept: '*/*', 'accept-encoding': 'gzip, deflate, br', ...options.headers },
        lookup: pinned as never,
        timeout: remaining,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const decoder = decoderFor(res.headers['content-encoding']);
        const body: Readable = decoder ? res.pipe(decoder) : res;
        body.on('data', (chunk: Buffer) => {
          if (truncated) return;
          size += chunk.length;
          if (size > maxBytes) {
            chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
            truncated = true;
            res.destroy();
            decoder?.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
        };
        body.on('end', finish);
        for (const stream of new Set([res, body])) {
          stream.on('error', (error) => {
            if (truncated || done) return;
            done = true;
            clearTimeout(timer);
            reject(stream === res ? error : new Error(`could not decode the ${res.headers['content-encoding']} body of ${url}: ${error.message}`));
          });
        }
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`fetch of ${url} timed out`)), remaining);
    req.on('timeout', () => req.destroy(new Error(`fetch of ${url} timed out`)));
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

/** A decoder for a response's Content-Encoding, or none for identity (and encodings we did not ask for). */
function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}
