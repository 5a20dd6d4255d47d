/**
 * The allowlist's host patterns (SPIDER_ALLOW_HOSTS, docs/security.md#the-allowlist): `127.0.0.1:8080`,
 * `*.localhost`, `intranet.example` (no port: any port; `:*` the same; `:8080` only that port). Read
 * here, where the configuration is validated, so that a bad pattern stops the program at start with
 * its variable named; the egress policy (lib/net/egress-policy.ts) matches what this parses.
 */

export interface HostPattern {
  readonly text: string;
  /** Exact canonical host, or a suffix starting with '.' for `*.example`. */
  readonly host: string;
  readonly wildcard: boolean;
  /** Undefined: any port. */
  readonly port?: number;
}

/**
 * The host as the WHATWG URL parser reads it: lower-case, IDNA-encoded, IPv4 in dotted-quad form
 * whatever the spelling, IPv6 bracketed and compressed. Undefined when it is no valid host.
 */
export function canonicalHost(host: string): string | undefined {
  const h = host.trim();
  if (!h) return undefined;
  const literal = h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
  const url = URL.parse(`http://${literal}/`);
  return url?.hostname || undefined;
}

const WHAT_A_PATTERN_IS = 'a host name or IP address, `*.` before it for its subdomains, `:port` after it for that port only, e.g. 127.0.0.1:8080, *.localhost, intranet.example';

/** Parses one pattern; throws with what is wrong and what a pattern is. */
export function parseHostPattern(text: string): HostPattern {
  const t = text.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(t)) throw new Error(`not a host pattern: no scheme or path, only ${WHAT_A_PATTERN_IS}`);
  let hostPart = t;
  let portPart: string | undefined;
  const bracketed = /^\[(.+)\](?::(\d+|\*))?$/.exec(t);
  if (bracketed) {
    hostPart = `[${bracketed[1]}]`;
    portPart = bracketed[2];
  } else if ((t.match(/:/g) ?? []).length === 1) {
    [hostPart, portPart] = t.split(':');
  }
  const port = portPart && portPart !== '*' ? Number(portPart) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new Error(`invalid port in a host pattern: expected 1 to 65535 or *`);
  const wildcard = hostPart.startsWith('*.');
  const bare = wildcard ? hostPart.slice(2) : hostPart;
  const canonical = canonicalHost(bare);
  if (!canonical || /[/?#@]/.test(bare)) throw new Error(`not a host pattern: expected ${WHAT_A_PATTERN_IS}`);
  return { text, host: wildcard ? '.' + canonical : canonical, wildcard, port };
}

/** Why the text is no host pattern, or undefined when it is one. */
export function hostPatternProblem(text: string): string | undefined {
  try {
    parseHostPattern(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
