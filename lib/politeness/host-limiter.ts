/**
 * Per-host rate limit: at most one page request per interval to one host.
 *
 * MemoryHostLimiter: one process (the embedded runner). A message that comes too early is told when
 * to come back; those come-back times are spread one interval apart, so a burst of URLs of one host
 * comes back in turn instead of all at once.
 *
 * StoreHostLimiter: shared by every process that shares the store (Lambda containers sharing the
 * bucket). Each host has a small object `politeness/hosts/<host>.json` holding the time of its last
 * request and a pause (Retry-After); a request claims its slot with a conditional write
 * (compare-and-swap on the object's etag), so two containers cannot take the same slot.
 */
import { keys } from '../store/keys';
import { PreconditionFailedError, type Store } from '../store/store';

export type Acquired = { readonly ok: true } | { readonly ok: false; readonly retryInMs: number };

export interface HostLimiter {
  /** Claims the host's next request slot now, or says how long until it may be claimed. */
  acquire(host: string, intervalMs: number): Promise<Acquired>;
  /** Holds the host back until `untilMs` (epoch ms), e.g. after a 429 with Retry-After. */
  pause(host: string, untilMs: number): Promise<void>;
}

interface HostState {
  last: number;
  pausedUntil: number;
  /** Memory only: the latest come-back time handed out. */
  horizon: number;
}

export class MemoryHostLimiter implements HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  constructor(private readonly now: () => number = Date.now) {}

  async acquire(host: string, intervalMs: number): Promise<Acquired> {
    const now = this.now();
    const s = this.hosts.get(host) ?? { last: -Infinity, pausedUntil: 0, horizon: 0 };
    this.hosts.set(host, s);
    const earliest = Math.max(s.last + intervalMs, s.pausedUntil);
    if (now >= earliest) {
      s.last = now;
      return { ok: true };
    }
    s.horizon = Math.max(s.horizon + intervalMs, earliest);
    return { ok: false, retryInMs: s.horizon - now };
  }

  async pause(host: string, untilMs: number): Promise<void> {
    const s = this.hosts.get(host) ?? { last: -Infinity, pausedUntil: 0, horizon: 0 };
    s.pausedUntil = Math.max(s.pausedUntil, untilMs);
    this.hosts.set(host, s);
  }
}

export class StoreHostLimiter implements HostLimiter {
  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {}

  async acquire(host: string, intervalMs: number): Promise<Acquired> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { state, etag } = await this.read(host);
      const now = this.now();
      const earliest = Math.max(state.last + intervalMs, state.pausedUntil);
      if (now < earliest) return { ok: false, retryInMs: earliest - now };
      if (await this.write(host, { last: now, pausedUntil: state.pausedUntil }, etag)) return { ok: true };
      // Another process took the slot in between: read again.
    }
    return { ok: false, retryInMs: intervalMs };
  }

  async pause(host: string, untilMs: number): Promise<void> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { state, etag } = await this.read(host);
      if (state.pausedUntil >= untilMs) return;
      if (await this.write(host, { last: state.last, pausedUntil: untilMs }, etag)) return;
    }
  }

  private async read(host: string): Promise<{ state: { last: number; pausedUntil: number }; etag?: string }> {
    const obj = await this.store.get(keys.hostState(host));
    if (!obj) return { state: { last: 0, pausedUntil: 0 } };
    try {
      const v = JSON.parse(obj.body.toString('utf8')) as { last?: unknown; pausedUntil?: unknown };
      const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
      return { state: { last: num(v.last), pausedUntil: num(v.pausedUntil) }, etag: obj.etag };
    } catch {
      return { state: { last: 0, pausedUntil: 0 }, etag: obj.etag };
    }
  }

  private async write(host: string, state: { last: number; pausedUntil: number }, etag: string | undefined): Promise<boolean> {
    try {
      await this.store.put(keys.hostState(host), JSON.stringify(state), { contentType: 'application/json', ...(etag ? { ifMatch: etag } : { ifNoneMatch: '*' }) });
      return true;
    } catch (error) {
      if (error instanceof PreconditionFailedError) return false;
      throw error;
    }
  }
}
