/**
 * Serves a generated demo site over real HTTP on 127.0.0.1 (an ephemeral port by default).
 *
 * Each call starts its own server, so several sites can be served at once. The server ignores the Host
 * header for routing, so a site can be reached under any name that resolves to loopback: pass
 * `hostname: 'news-a.localhost'` to get `origin = http://news-a.localhost:PORT` (Chromium resolves
 * `*.localhost` to loopback by itself; Node's fetch may not, so use `ipOrigin` there). Absolute links in
 * pages and the feed use the Host the request came with, so they match the name the client used.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeneratedSite } from './site-generator';
import { pathOf, resolveOrigin } from './truth';

export interface ServeOptions {
  /** Name for `origin` (e.g. `news-a.localhost`); the server still listens on 127.0.0.1. Default 127.0.0.1. */
  hostname?: string;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Delay before every response, in milliseconds (for load tests). Default 0. */
  delayMs?: number;
}

export interface ServedSite {
  /** `http://<hostname>:<port>`: the site's base URL. */
  origin: string;
  /** `http://127.0.0.1:<port>`: the same server by address, for clients that cannot resolve `hostname`. */
  ipOrigin: string;
  port: number;
  /** Absolute URL of a path under `origin`. */
  url(path: string): string;
  /** Requests answered so far. */
  readonly requests: number;
  /** Requests answered so far, by path. */
  readonly requestsByPath: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

const NOT_FOUND_HTML =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head><body><h1>Not Found</h1><p>There is nothing at this address.</p></body></html>\n';

export async function serveSite(site: GeneratedSite, options: ServeOptions = {}): Promise<ServedSite> {
  const hostname = options.hostname ?? '127.0.0.1';
  const delayMs = options.delayMs ?? 0;
  const byPath = new Map<string, number>();
  let requests = 0;
  let port = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    let path: string;
    try {
      path = pathOf(req.url ?? '/');
    } catch {
      path = '/';
    }
    byPath.set(path, (byPath.get(path) ?? 0) + 1);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, req, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { allow: 'GET, HEAD' });
      return;
    }
    const file = site.files.get(path);
    if (!file) {
      send(res, req, 404, 'text/html; charset=utf-8', NOT_FOUND_HTML);
      return;
    }
    send(res, req, file.status, file.contentType, resolveOrigin(file, originFor(req)));
  };

  const originFor = (req: IncomingMessage) => {
    const host = req.headers.host;
    return host && /^[a-z0-9.-]+(:\d+)?$/i.test(host) ? `http://${host}` : `http://${hostname}:${port}`;
  };

  const server = createServer((req, res) => {
    if (delayMs > 0) setTimeout(() => handle(req, res), delayMs);
    else handle(req, res);
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${hostname}:${port}`;

  return {
    origin,
    ipOrigin: `http://127.0.0.1:${port}`,
    port,
    url: (path: string) => new URL(path, origin).toString(),
    get requests() {
      return requests;
    },
    requestsByPath: byPath,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  contentType: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(bytes.byteLength),
    'cache-control': 'no-cache',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
