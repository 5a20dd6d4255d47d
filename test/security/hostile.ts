/**
 * Shared pieces of the SSRF tests: a hostile site on 127.0.0.1 (the only address the tests ever
 * connect to), a "private service" on another loopback port that nothing may reach, a resolver that
 * answers made-up names with loopback and metadata addresses, and a dialer that refuses — and records —
 * any connection outside 127.0.0.0/8, so the tests prove the guard refused before any connection.
 */
import net from 'node:net';
import type { ResolvedAddress, Resolver } from '../../lib/net/egress-policy';

export interface DialLog {
  readonly dialled: string[];
  /** Attempts outside loopback: must stay empty (the guard refuses before dialling). */
  readonly outside: string[];
  dial(address: ResolvedAddress, port: number): net.Socket;
}

export function loopbackOnlyDialer(): DialLog {
  const dialled: string[] = [];
  const outside: string[] = [];
  return {
    dialled,
    outside,
    dial(a, port) {
      dialled.push(`${a.address}:${port}`);
      if (!/^127\./.test(a.address)) {
        outside.push(`${a.address}:${port}`);
        throw new Error(`test dialer: refusing to connect outside loopback (${a.address})`);
      }
      return net.connect({ host: a.address, port });
    },
  };
}

/** Made-up names: what a hostile DNS would answer. */
export function hostileResolver(): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const answers: Record<string, string[][]> = {
    'evil.test': [['127.0.0.1']],
    'metadata.test': [['169.254.169.254']],
    'metadata6.test': [['fd00:ec2::254']],
    'intranet.test': [['10.0.0.5']],
    'mixed.test': [['127.0.0.1', '10.1.2.3']],
    'mapped.test': [['::ffff:127.0.0.1']],
    // DNS rebinding: the first answer passes, later ones point inside.
    'rebind.test': [['127.0.0.1'], ['169.254.169.254']],
  };
  const resolver = (async (hostname: string) => {
    const n = calls.get(hostname) ?? 0;
    calls.set(hostname, n + 1);
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = list[Math.min(n, list.length - 1)];
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as ResolvedAddress);
  }) as Resolver & { calls: Map<string, number> };
  resolver.calls = calls;
  return resolver;
}
