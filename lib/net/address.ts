/**
 * What kind of address a host names, for the egress guard. Only globally routable unicast addresses
 * are "public"; everything else (loopback, RFC 1918, link-local with the instance metadata endpoint
 * 169.254.169.254, unique-local fd00::/8 with AWS's fd00:ec2::254, carrier-grade NAT, multicast,
 * broadcast, unspecified, documentation and other reserved ranges) is "special" and blocked unless
 * allowlisted. IPv6 forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible,
 * NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo) are judged by the IPv4 address they carry.
 *
 * Classification uses ipaddr.js's range tables; host spellings (decimal 2852039166, hex 0xa9fea9fe,
 * octal 0251.0376.0251.0376, short 169.254.43518, bracketed IPv6) are canonicalised with the WHATWG
 * URL parser, the same one Chromium and Node use, so the guard sees what they would connect to.
 */
import ipaddr from 'ipaddr.js';
import { canonicalHost } from '../config/host-pattern';

export type AddressRange = string;

export interface AddressClass {
  /** Canonical text of the address (IPv6 compressed, IPv4 dotted quad). */
  readonly address: string;
  readonly family: 4 | 6;
  /** ipaddr.js range name ('unicast' for public addresses), or 'cloud-metadata'. */
  readonly range: AddressRange;
  /** Globally routable unicast, not a known metadata endpoint. */
  readonly public: boolean;
  /** The IPv4 address an IPv6 form carries, when it carries one. */
  readonly embeddedIPv4?: string;
}

/** Public unicast addresses that still answer with credentials inside clouds. */
const METADATA_ADDRESSES = new Set(['168.63.129.16' /* Azure wireserver */, '100.100.100.200' /* Alibaba, CGNAT anyway */]);

const HUMAN: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private (RFC 1918) address',
  linkLocal: 'a link-local address (169.254.0.0/16 holds the instance metadata endpoint)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified address',
  uniqueLocal: 'a unique-local IPv6 address (fc00::/7, AWS metadata fd00:ec2::254 included)',
  reserved: 'a reserved address',
  'cloud-metadata': 'a cloud metadata endpoint',
  invalid: 'not an IP address',
};

export function describeRange(range: AddressRange): string {
  return HUMAN[range] ?? `a special-purpose address (${range})`;
}

/** Is this text an IP literal (after canonicalisation: decimal, hex, octal IPv4 included)? */
export function isIpLiteral(host: string): boolean {
  const canonical = canonicalHost(host);
  return canonical !== undefined && ipaddr.isValid(stripBrackets(canonical));
}

/** The host as the URL parser reads it (lib/config/host-pattern.ts, where the allowlist's patterns are read). */
export { canonicalHost };

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Classifies an IP address (any spelling the URL parser accepts, with or without brackets). */
export function classifyAddress(input: string): AddressClass {
  const canonical = canonicalHost(input);
  const text = canonical ? stripBrackets(canonical) : input;
  if (!ipaddr.isValid(text)) return { address: input, family: 4, range: 'invalid', public: false };
  let addr = ipaddr.parse(text);
  let embeddedIPv4: string | undefined;
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const v4 = embeddedV4(v6);
    if (v4) {
      embeddedIPv4 = v4.toString();
      const inner = classifyAddress(embeddedIPv4);
      // An embedded public IPv4 still goes through a translation range we don't route to: block.
      const range = inner.public ? v6.range() : inner.range;
      return { address: v6.toString(), family: 6, range, public: false, embeddedIPv4 };
    }
    const range = v6.range();
    return { address: v6.toString(), family: 6, range, public: range === 'unicast' };
  }
  addr = addr as ipaddr.IPv4;
  const address = addr.toString();
  const range = METADATA_ADDRESSES.has(address) ? 'cloud-metadata' : addr.range();
  return { address, family: 4, range, public: range === 'unicast' };
}

/** The IPv4 address an IPv6 address embeds by a well-known convention, if any. */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
    return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  }
  // IPv4-compatible ::a.b.c.d (deprecated, still parsed by some stacks); not :: or ::1.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) {
    return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  }
  if (range === '6to4') return new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]);
  if (range === 'teredo') {
    // The client's address, obfuscated by XOR with 0xffff.
    const a = p[6] ^ 0xffff;
    const b = p[7] ^ 0xffff;
    return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
  }
  return undefined;
}

/** A CIDR such as 127.0.0.0/8 or fd00::/8 (a bare address means /32 or /128). */
export interface Cidr {
  readonly text: string;
  matches(address: string): boolean;
}

export function parseCidr(text: string): Cidr {
  const t = text.trim();
  const [addr, bits] = t.includes('/') ? ipaddr.parseCIDR(t) : (() => {
    const a = ipaddr.parse(t);
    return [a, a.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
  })();
  return {
    text: t,
    matches(address: string): boolean {
      if (!ipaddr.isValid(address)) return false;
      let a = ipaddr.parse(address);
      if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() && addr.kind() === 'ipv4') a = (a as ipaddr.IPv6).toIPv4Address();
      if (a.kind() !== addr.kind()) return false;
      return (a as ipaddr.IPv4).match(addr as ipaddr.IPv4, bits);
    },
  };
}
