/** A tiny HTTP server on 127.0.0.1 serving fixed routes, for tests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  readonly status?: number;
  readonly type?: string;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
}

export interface TestServer {
  readonly origin: string;
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function serveRoutes(routes: Record<string, Route | ((req: http.IncomingMessage) => Route)>): Promise<TestServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const entry = routes[path];
    const route = typeof entry === 'function' ? entry(req) : entry;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
