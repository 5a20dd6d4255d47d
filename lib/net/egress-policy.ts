/**
 * The egress policy: which destinations a render or a Node-side fetch may reach. Shared by the
 * egress proxy Chromium sends all its traffic through and by safeFetch (robots.txt, feeds).
 *
 * Default: only http/https URLs, only ports 80 and 443, only hosts whose every resolved address is
 * public unicast (lib/net/address.ts). Resolution happens here, once per connection, and the caller
 * connects to the address that was checked (pinning: a DNS answer that changes between the check and
 * the connection, as in DNS rebinding, cannot slip a private address in).
 *
 * Explicit allowlist (config, docs/security.md):
 *   allowHosts     host patterns whose requests may go anywhere, e.g. `127.0.0.1:8080`, `*.localhost`,
 *                  `intranet.example` (no port: any port; `:*` the same; `:8080` only that port)
 *   allowNetworks  CIDRs that resolved addresses may fall in, e.g. `10.1.0.0/16` (ports as usual)
 *   allowPorts     ports allowed besides 80 and 443, for every public host
 *
 * A name that does not exist (the resolver's ENOTFOUND: DNS answered NXDOMAIN, an answer, not an
 * outage) is refused for good, but it is no policy block: `refusalError` says so without "blocked by
 * the egress guard". A lookup that failed for now (EAI_AGAIN: no DNS server answered) is retryable.
 */
import { lookup } from 'node:dns/promises';
import { canonicalHost, parseHostPattern, type HostPattern } from '../config/host-pattern';
import { EgressBlockedError, NonRetryableError } from '../util/errors';
import { classifyAddress, describeRange, parseCidr, type Cidr } from './address';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a hostname to its addresses (tests inject one that answers `evil.test` with 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Names that resolve to loopback by definition (RFC 6761): answered here, never asked of DNS. */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

export const systemResolver: Resolver = async (hostname) => {
  if (isLocalhostName(hostname)) return [{ address: '127.0.0.1', family: 4 }];
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface EgressPolicyOptions {
  readonly allowHosts?: readonly string[];
  readonly allowNetworks?: readonly string[];
  readonly allowPorts?: readonly number[];
  readonly resolver?: Resolver;
}

export type EgressVerdict =
  | { readonly allowed: true; readonly host: string; readonly port: number; readonly addresses: readonly ResolvedAddress[]; readonly allowlisted: boolean }
  | EgressRefusal;

export interface EgressRefusal {
  readonly allowed: false;
  readonly host: string;
  readonly port: number;
  readonly reason: string;
  /** Trying later may help (DNS failed for now). */
  readonly retryable: boolean;
  /** The name does not exist (ENOTFOUND): refused for good, but by no rule of the policy. */
  readonly noSuchHost?: true;
}

/**
 * The error a refusal of `url` is thrown as: a plain Error when trying later may help (the queue
 * retries it), a NonRetryableError naming the name that does not exist, an EgressBlockedError
 * (`blocked by the egress guard: …`) for what the policy refuses.
 */
export function refusalError(url: string, refusal: EgressRefusal): Error {
  if (refusal.retryable) return new Error(`${refusal.reason} (${url})`);
  if (refusal.noSuchHost) return new NonRetryableError(`${refusal.reason} (${url})`);
  return new EgressBlockedError(url, refusal.reason);
}

const DEFAULT_PORTS = new Set([80, 443]);

/**
 * One pattern of the allowlist, or an error that names it: parseHostPattern's messages do not (loadConfig
 * adds the value given to them), and a policy built without the config would throw them bare.
 */
function allowedHost(text: string): HostPattern {
  try {
    return parseHostPattern(text);
  } catch (error) {
    throw new Error(`${(error as Error).message} (given: ${JSON.stringify(text)})`, { cause: error });
  }
}

export class EgressPolicy {
  private readonly hosts: HostPattern[];
  private readonly networks: Cidr[];
  private readonly ports: Set<number>;
  private readonly resolver: Resolver;

  constructor(options: EgressPolicyOptions = {}) {
    this.hosts = (options.allowHosts ?? []).filter((s) => s.trim()).map(allowedHost);
    this.networks = (options.allowNetworks ?? []).filter((s) => s.trim()).map(parseCidr);
    this.ports = new Set([...DEFAULT_PORTS, ...(options.allowPorts ?? [])]);
    this.resolver = options.resolver ?? systemResolver;
  }

  /** Is this (canonical) host:port named by the allowlist? */
  isAllowlisted(host: string, port: number): boolean {
    return this.hosts.some((p) => (p.wildcard ? host.endsWith(p.host) : host === p.host) && (p.port === undefined || p.port === port));
  }

  /**
   * Checks what can be checked without DNS: scheme, host syntax, port, and IP literals.
   * Undefined when the URL may go on to resolution; otherwise why not.
   */
  checkUrl(input: string | URL): string | undefined {
    const url = typeof input === 'string' ? URL.parse(input) : input;
    if (!url) return 'not a valid absolute URL';
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      return `the ${url.protocol} scheme is not allowed (http and https only)`;
    }
    if (url.username || url.password) return 'URLs with credentials are not allowed';
    const port = Number(url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80));
    return this.checkHostPort(url.hostname, port);
  }

  /** Checks a host and port without DNS (undefined: go on to resolution). */
  checkHostPort(rawHost: string, port: number): string | undefined {
    const host = canonicalHost(rawHost);
    if (!host) return `invalid host ${JSON.stringify(rawHost)}`;
    if (this.isAllowlisted(host, port)) return undefined;
    // the variable that lets it through is named: a user running spider on their own pages meets this first
    if (!this.ports.has(port)) return `port ${port} of ${host} is not allowed (80 and 443 only unless allowlisted: SPIDER_ALLOW_HOSTS=${host}:${port})`;
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    if (/^[\d.]+$/.test(literal) || literal.includes(':')) {
      const c = classifyAddress(literal);
      if (!c.public && !this.networks.some((n) => n.matches(c.address))) return `${host} is ${describeRange(c.range)}`;
    }
    return undefined;
  }

  /**
   * Resolves a host and checks every address it resolves to. Allowed: the addresses to connect to
   * (connect to these, never to the name again). Refused: why, and whether trying later may help.
   */
  async resolve(rawHost: string, port: number): Promise<EgressVerdict> {
    const host = canonicalHost(rawHost);
    if (!host) return { allowed: false, host: rawHost, port, reason: `invalid host ${JSON.stringify(rawHost)}`, retryable: false };
    const early = this.checkHostPort(host, port);
    if (early) return { allowed: false, host, port, reason: early, retryable: false };
    const allowlisted = this.isAllowlisted(host, port);
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    let addresses: ResolvedAddress[];
    if (/^[\d.]+$/.test(literal) || literal.includes(':')) {
      const c = classifyAddress(literal);
      addresses = [{ address: c.address, family: c.family }];
    } else {
      try {
        addresses = await this.resolver(host);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        // ENOTFOUND is the resolver's NXDOMAIN: the name does not exist, and asking again gets the same answer
        if (code === 'ENOTFOUND') return { allowed: false, host, port, reason: `cannot resolve ${host}: no such host (ENOTFOUND)`, retryable: false, noSuchHost: true };
        return { allowed: false, host, port, reason: `cannot resolve ${host} (${code})`, retryable: true };
      }
      if (addresses.length === 0) return { allowed: false, host, port, reason: `cannot resolve ${host} (no addresses)`, retryable: true };
    }
    if (!allowlisted) {
      for (const a of addresses) {
        const c = classifyAddress(a.address);
        if (c.public) continue;
        if (this.networks.some((n) => n.matches(c.address))) continue;
        // A name's answer is not repeated in the reason: reasons reach dead letters and pages'
        // error text, and must not tell a caller what internal names resolve to.
        const reason = c.address === literal ? `${host} is ${describeRange(c.range)}` : `${host} was refused: it resolves to an address that is not public`;
        return { allowed: false, host, port, reason, retryable: false };
      }
    }
    // Prefer IPv4 (the test servers and most origins listen there), keep the rest as fallbacks.
    const ordered = [...addresses.filter((a) => a.family === 4), ...addresses.filter((a) => a.family === 6)];
    return { allowed: true, host, port, addresses: ordered, allowlisted };
  }
}

/** The policy the configuration describes (SPIDER_ALLOW_HOSTS, SPIDER_ALLOW_NETWORKS, SPIDER_ALLOW_PORTS). */
export function egressPolicyFor(
  config: { readonly allowHosts: readonly string[]; readonly allowNetworks: readonly string[]; readonly allowPorts: readonly number[] },
  resolver?: Resolver,
): EgressPolicy {
  return new EgressPolicy({ allowHosts: config.allowHosts, allowNetworks: config.allowNetworks, allowPorts: config.allowPorts, resolver });
}
