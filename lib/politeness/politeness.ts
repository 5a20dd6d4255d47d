/**
 * What the render step asks before it requests a page: may we (robots.txt), and is it this host's
 * turn (per-host rate limit, Crawl-delay, Retry-After)?
 *
 *   admit(url)   resolves when the page may be requested now; throws
 *                  NonRetryableError   robots.txt disallows the URL (a dead letter with that reason)
 *                  Error               robots.txt unreachable: disallowed for now, retried with backoff
 *                  HostBusyError       not this host's turn within maxWaitMs: hand the message back
 *   check(url)   admit in two halves: the egress guard and robots.txt now (throwing as admit does),
 *                then the host's turn from the returned HostTurn's take(), when the request is
 *                about to be made (a render takes it in its browser slot, just before navigating:
 *                a turn taken before waiting for the browser would be spent by the time the page
 *                is requested, and pages of one host would go out back to back)
 *   retryLater(url, ms)
 *                the site answered 429/503 with Retry-After: no request to the host before then
 *
 * The interval between two page requests to one host is max(hostIntervalMs, Crawl-delay capped at
 * maxCrawlDelaySeconds). Subresources a page loads from its own host are not counted: one render is
 * one page request, like a person opening the page.
 */
import type { Config } from '../config/config';
import { egressPolicyFor, refusalError, type EgressPolicy, type Resolver } from '../net/egress-policy';
import { safeFetch, type SafeFetchResponse } from '../net/safe-fetch';
import { EgressBlockedError, HostBusyError, NonRetryableError } from '../util/errors';
import { MemoryHostLimiter, type HostLimiter } from './host-limiter';
import { ROBOTS_MAX_BYTES, RobotsTxt, type RobotsVerdict } from './robots';

export type PolitenessConfig = Pick<
  Config,
  | 'userAgent' | 'respectRobotsTxt' | 'robotsCacheSeconds' | 'robotsRetrySeconds' | 'hostIntervalMs' | 'maxCrawlDelaySeconds'
  | 'maxRetryAfterSeconds' | 'politenessMaxWaitMs' | 'allowHosts' | 'allowNetworks' | 'allowPorts'
>;

export interface PolitenessOptions {
  readonly limiter?: HostLimiter;
  /** Longest in-process wait for a host's turn (ms); beyond it admit() throws HostBusyError. Default config.politenessMaxWaitMs. */
  readonly maxWaitMs?: number;
  /** Fetches robots.txt; default safeFetch under the config's egress policy. */
  readonly fetch?: (url: string) => Promise<SafeFetchResponse>;
  /** Resolver for the default fetch's egress policy (tests). */
  readonly resolver?: Resolver;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** A page the egress guard and robots.txt allow, whose host's turn is still to be taken. */
export interface HostTurn {
  readonly host: string;
  /** Least time between two page requests to the host (ms): the configured interval or its Crawl-delay. */
  readonly intervalMs: number;
  /**
   * Claims the host's turn for one page request, waiting for it up to maxWaitMs (HostBusyError when
   * it is further away), or up to `maxWaitMs` given here when that is less. Call it when the request
   * is about to be made; once per page: later calls answer as the first did.
   */
  take(maxWaitMs?: number): Promise<void>;
}

export class Politeness {
  readonly robots: RobotsTxt;
  readonly limiter: HostLimiter;
  private readonly maxWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly policy: EgressPolicy;

  constructor(private readonly config: PolitenessConfig, options: PolitenessOptions = {}) {
    this.now = options.now ?? Date.now;
    this.limiter = options.limiter ?? new MemoryHostLimiter(this.now);
    this.maxWaitMs = options.maxWaitMs ?? config.politenessMaxWaitMs;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const policy = (this.policy = egressPolicyFor(config, options.resolver));
    const fetch =
      options.fetch ?? ((url: string) => safeFetch(url, { policy, userAgent: config.userAgent, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: 15_000, maxRedirects: 5 }));
    this.robots = new RobotsTxt({
      fetch,
      userAgent: config.userAgent,
      cacheMs: config.robotsCacheSeconds * 1000,
      retryMs: config.robotsRetrySeconds * 1000,
      now: this.now,
    });
  }

  async admit(pageUrl: string): Promise<void> {
    await (await this.check(pageUrl)).take();
  }

  /** The egress guard and robots.txt for a page; its host's turn is the returned HostTurn's to take. */
  async check(pageUrl: string): Promise<HostTurn> {
    const url = new URL(pageUrl);
    const host = url.hostname;
    // A page the egress guard refuses is refused for what it is, before its robots.txt is asked for.
    const early = this.policy.checkUrl(url);
    if (early) throw new EgressBlockedError(pageUrl, early);
    const egress = await this.policy.resolve(host, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
    if (!egress.allowed) throw refusalError(pageUrl, egress);
    let crawlDelaySeconds: number | undefined;
    if (this.config.respectRobotsTxt) {
      const verdict = await this.robots.check(pageUrl);
      if (!verdict.allowed) {
        if (verdict.retryable) throw new Error(verdict.reason);
        throw new NonRetryableError(verdict.reason);
      }
      crawlDelaySeconds = verdict.crawlDelaySeconds;
    }
    const delayMs = Math.min(crawlDelaySeconds ?? 0, this.config.maxCrawlDelaySeconds) * 1000;
    const intervalMs = Math.max(this.config.hostIntervalMs, delayMs);
    let taken: Promise<void> | undefined;
    return {
      host,
      intervalMs,
      take: (maxWaitMs) => (taken ??= this.takeTurn(host, intervalMs, Math.min(maxWaitMs ?? this.maxWaitMs, this.maxWaitMs))),
    };
  }

  /** Claims the host's next slot, waiting for it up to maxWaitMs; HostBusyError when it is further. */
  private async takeTurn(host: string, intervalMs: number, maxWaitMs: number): Promise<void> {
    const waitUntil = this.now() + Math.max(0, maxWaitMs);
    for (;;) {
      const turn = await this.limiter.acquire(host, intervalMs);
      if (turn.ok) return;
      if (this.now() + turn.retryInMs > waitUntil) throw new HostBusyError(host, turn.retryInMs);
      await this.sleep(turn.retryInMs);
    }
  }

  /** robots.txt's verdict on a URL (always allowed when robots.txt is not respected); no turn taken. */
  async checkRobots(pageUrl: string): Promise<RobotsVerdict> {
    if (!this.config.respectRobotsTxt) return { allowed: true, source: 'disabled' };
    return this.robots.check(pageUrl);
  }

  /** The site said "come back later": hold the host back (capped at maxRetryAfterSeconds). */
  async retryLater(pageUrl: string, retryAfterMs: number): Promise<void> {
    const ms = Math.min(retryAfterMs, this.config.maxRetryAfterSeconds * 1000);
    await this.limiter.pause(new URL(pageUrl).hostname, this.now() + ms);
  }
}
