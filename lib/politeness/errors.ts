/**
 * Errors with timing meaning, for the queue consumers:
 *
 * - RetryLaterError: the site asked us to come back later (429, or 503 with Retry-After). Retryable;
 *   the next delivery waits at least `retryAfterMs`. It counts as a receive: a site that always says
 *   429 ends as a dead letter with that reason.
 * - HostBusyError: this host's turn has not come yet (per-host rate limit). Not a failure: the
 *   embedded runner hands the message back for `retryInMs` without counting the receive.
 */
export class RetryLaterError extends Error {
  constructor(message: string, readonly retryAfterMs: number) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

export class HostBusyError extends Error {
  constructor(readonly host: string, readonly retryInMs: number) {
    super(`${host} is rate-limited: next request in ${Math.ceil(retryInMs)} ms`);
    this.name = 'HostBusyError';
  }
}

/** Delay a failed message should wait before its next delivery, if the error names one. */
export function retryAfterOf(error: unknown): number | undefined {
  const ms = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** A deferral (not a failure), and for how long, if the error is one. */
export function deferralOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'HostBusyError') return undefined;
  const ms = (error as HostBusyError).retryInMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}
