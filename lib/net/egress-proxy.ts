/**
 * A local egress proxy: Chromium sends every request through it (`--proxy-server`, with
 * `--proxy-bypass-list=<-loopback>` so that even loopback and link-local destinations, which
 * Chromium would otherwise connect to directly, come here). For each request (plain HTTP in
 * absolute form) and each tunnel (CONNECT: HTTPS, WebSockets), the proxy resolves the host itself,
 * checks every address with the egress policy, and connects to the checked address, never to the
 * name again. So documents, redirects (each hop is a new request), subresources, iframes, workers,
 * service workers, fetch/XHR and WebSockets are all checked below the page, where a page cannot
 * go around it.
 *
 * A refused plain-HTTP request is answered `403` with `x-spider-egress-blocked: <reason>`; a refused
 * tunnel gets a `403` to the CONNECT (Chromium reports ERR_TUNNEL_CONNECTION_FAILED). The renderer
 * turns a refused main document into a dead letter with the reason (`lastRefusal`).
 *
 * The proxy listens on 127.0.0.1 with an ephemeral port, in the renderer's own process.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressPolicy, EgressVerdict, ResolvedAddress } from './egress-policy';

export const BLOCKED_HEADER = 'x-spider-egress-blocked';

export interface EgressEvent {
  readonly kind: 'allowed' | 'refused' | 'failed';
  readonly via: 'http' | 'connect';
  readonly host: string;
  readonly port: number;
  /** The address connected to (allowed) or none. */
  readonly address?: string;
  readonly reason?: string;
  readonly at: number;
}

export interface EgressProxyOptions {
  /** Opens the upstream connection; tests wrap it to prove nothing outside loopback is dialled. */
  readonly dial?: (address: ResolvedAddress, port: number) => net.Socket;
  /** Idle time after which a connection is closed (ms). */
  readonly idleTimeoutMs?: number;
  /** Called for every decision (logging, tests). */
  readonly onEvent?: (event: EgressEvent) => void;
}

const HOP_BY_HOP = new Set([
  'connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade',
]);

const defaultDial = (a: ResolvedAddress, port: number) => net.connect({ host: a.address, port, family: a.family });

/** Why the offline listener (an archived replay's proxy) refuses everything. */
const OFFLINE_REASON = 'an archived replay is offline';

export class EgressProxy {
  private server?: http.Server;
  private offline?: http.Server;
  private readonly sockets = new Set<Duplex>();
  private readonly refusals = new Map<string, { reason: string; at: number }>();
  private readonly dial: (address: ResolvedAddress, port: number) => net.Socket;
  private readonly idleMs: number;
  private counts = { allowed: 0, refused: 0, failed: 0 };

  constructor(private readonly policy: EgressPolicy, private readonly options: EgressProxyOptions = {}) {
    this.dial = options.dial ?? defaultDial;
    this.idleMs = options.idleTimeoutMs ?? 60_000;
  }

  /** Starts listening on 127.0.0.1; returns the proxy URL for `--proxy-server`. */
  async listen(): Promise<string> {
    this.server ??= await this.serve(false);
    return this.url;
  }

  /**
   * A second listener that refuses every request and tunnel: the proxy of an archived replay's
   * browser context, which must reach nothing (request interception answers its document and aborts
   * its subresources, but a worker's WebSocket is not intercepted). Returns its URL.
   */
  async listenOffline(): Promise<string> {
    this.offline ??= await this.serve(true);
    return `http://127.0.0.1:${(this.offline.address() as AddressInfo).port}`;
  }

  private async serve(offline: boolean): Promise<http.Server> {
    const server = http.createServer((req, res) => void this.onRequest(req, res, offline));
    server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head, offline));
    // Upgrades in absolute form (Chromium tunnels ws:// with CONNECT instead): refused.
    server.on('upgrade', (_req, socket: Duplex) => socket.end('HTTP/1.1 501 Not Implemented\r\nconnection: close\r\n\r\n'));
    server.on('connection', (socket: net.Socket) => this.track(socket));
    server.on('clientError', (_err, socket: Duplex) => socket.destroy());
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get stats(): { allowed: number; refused: number; failed: number; open: number } {
    return { ...this.counts, open: this.sockets.size };
  }

  /** Why the proxy last refused host:port, if it did within the last `withinMs`. */
  lastRefusal(host: string, port: number, withinMs = 120_000): string | undefined {
    const r = this.refusals.get(`${host.toLowerCase()}:${port}`);
    return r && Date.now() - r.at <= withinMs ? r.reason : undefined;
  }

  async close(): Promise<void> {
    const servers = [this.server, this.offline].filter((x): x is http.Server => x !== undefined);
    this.server = undefined;
    this.offline = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }


  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    if (socket instanceof net.Socket) {
      socket.setTimeout(this.idleMs, () => socket.destroy());
      socket.on('error', () => undefined);
    }
  }

  private record(event: Omit<EgressEvent, 'at'>): void {
    const e = { ...event, at: Date.now() };
    this.counts[e.kind]++;
    if (e.kind === 'refused') {
      this.refusals.set(`${e.host}:${e.port}`, { reason: e.reason ?? 'refused', at: e.at });
      if (this.refusals.size > 1000) this.refusals.delete(this.refusals.keys().next().value!);
    }
    this.options.onEvent?.(e);
  }

  /** Plain HTTP through the proxy: `GET http://host:port/path HTTP/1.1`. */
  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse, offline: boolean): Promise<void> {
    const url = URL.parse(req.url ?? '');
    if (!url || !/^https?:$/.test(url.protocol) || !req.url!.includes('://')) {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('this is a forward proxy: absolute http URLs only\n');
      return;
    }
    if (url.protocol !== 'http:') return this.refuseHttp(res, url.hostname, Number(url.port || 443), 'https in absolute form is not proxied (use CONNECT)', 'http');
    const port = Number(url.port || 80);
    if (offline) return this.refuseHttp(res, url.hostname, port, OFFLINE_REASON, 'http');
    const schemeProblem = this.policy.checkUrl(url);
    if (schemeProblem) return this.refuseHttp(res, url.hostname, port, schemeProblem, 'http');
    const verdict = await this.policy.resolve(url.hostname, port);
    if (!verdict.allowed) return this.refuseHttp(res, verdict.host, port, verdict.reason, 'http', verdict.retryable);

    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
    headers.host = url.host;
    headers.connection = 'close';
    const address = verdict.addresses[0];
    const upstream = http.request({
      createConnection: () => this.dial(address, port),
      method: req.method,
      path: url.pathname + url.search,
      headers,
      setHost: false,
    });
    this.record({ kind: 'allowed', via: 'http', host: verdict.host, port, address: address.address });
    upstream.on('response', (up) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      this.record({ kind: 'failed', via: 'http', host: verdict.host, port, address: address.address, reason: error.message });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream error: ${error.message}\n`);
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  private refuseHttp(res: http.ServerResponse, host: string, port: number, reason: string, via: 'http', retryable = false): void {
    // A refusal that may pass later (DNS trouble) is a gateway error, retried like any 5xx.
    if (retryable) {
      this.record({ kind: 'failed', via, host, port, reason });
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`egress proxy: ${reason}\n`);
      return;
    }
    this.record({ kind: 'refused', via, host, port, reason });
    res.writeHead(403, {
      'content-type': 'text/plain; charset=utf-8',
      [BLOCKED_HEADER]: encodeURIComponent(reason),
      'cache-control': 'no-store',
    });
    res.end(`blocked by spider's egress guard: ${reason}\n`);
  }

  /** CONNECT host:port: HTTPS, and WebSockets of either scheme. */
  private async onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer, offline: boolean): Promise<void> {
    this.track(client);
    client.on('error', () => undefined);
    const target = URL.parse(`http://${req.url ?? ''}`);
    // CONNECT names its port (RFC 9110 9.3.6); read it from the request, not from the parsed URL:
    // `http://host:80` normalises port 80 away, and a ws:// socket to port 80 must be checked and
    // connected as port 80, not 443.
    const named = /:(\d{1,5})$/.exec(req.url ?? '');
    const port = named ? Number(named[1]) : 443;
    if (!target || !req.url || target.pathname !== '/' || target.username) {
      this.record({ kind: 'refused', via: 'connect', host: String(req.url), port, reason: 'malformed CONNECT target' });
      client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    const verdict: EgressVerdict = offline ? { allowed: false, host: target.hostname, port, reason: OFFLINE_REASON, retryable: false } : await this.policy.resolve(target.hostname, port);
    if (!verdict.allowed) {
      if (verdict.retryable) {
        this.record({ kind: 'failed', via: 'connect', host: verdict.host, port, reason: verdict.reason });
        client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      this.record({ kind: 'refused', via: 'connect', host: verdict.host, port, reason: verdict.reason });
      client.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${encodeURIComponent(verdict.reason)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const address = verdict.addresses[0];
    const upstream = this.dial(address, port);
    this.track(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      this.record({ kind: 'allowed', via: 'connect', host: verdict.host, port, address: address.address });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (error) => {
      this.record({ kind: 'failed', via: 'connect', host: verdict.host, port, address: address.address, reason: error.message });
      if (!connected && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      else client.destroy();
    });
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  }
}
