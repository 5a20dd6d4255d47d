/**
 * Errors carry retry meaning. Throw a NonRetryableError for input that will never succeed
 * (bad URL, 404, not HTML): the message goes to the dead letters at once, with the reason.
 * Any other error is retried with backoff until the queue's receive limit, then dead-lettered.
 */
export class NonRetryableError extends Error {
  /** What kind of failure it is (dead letters are counted by kind); failureKind() infers it when absent. */
  readonly kind?: FailureKind;

  constructor(message: string, options?: ErrorOptions & { kind?: FailureKind }) {
    super(message, options);
    this.name = 'NonRetryableError';
    if (options?.kind) this.kind = options.kind;
  }
}

/** Kinds of dead letter, few and stable: a metric dimension and the CLI's grouping of reasons. */
export const FAILURE_KINDS = ['invalid-message', 'http-status', 'not-html', 'blocked', 'too-large', 'missing-input', 'retries-exhausted', 'other'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * The kind of a failure, from the error's own `kind`, else from the reason's wording (the reasons
 * the steps and queues write: "invalid message: …", "HTTP 404 …", "failed 3 times; last error: …",
 * "deferred 300 times, …", "received 3 times and never answered …", "not started 300 times, …").
 */
export function failureKind(failure: unknown): FailureKind {
  const own = (failure as { kind?: unknown } | undefined)?.kind;
  if (typeof own === 'string' && (FAILURE_KINDS as readonly string[]).includes(own)) return own as FailureKind;
  const reason = typeof failure === 'string' ? failure : describeError(failure);
  if (/^(failed|deferred|received|not started) \d+ times/.test(reason)) return 'retries-exhausted';
  if (/^invalid message|not a valid (absolute URL|page id)/.test(reason)) return 'invalid-message';
  if (/^HTTP \d{3}/.test(reason)) return 'http-status';
  if (/^not an HTML page/.test(reason)) return 'not-html';
  if (/^blocked|robots\.txt/i.test(reason)) return 'blocked';
  if (/larger than|more than the|more than \d+ frames/.test(reason)) return 'too-large';
  if (/is not in the store|no snapshot|has no URL/.test(reason)) return 'missing-input';
  return 'other';
}

/**
 * The reason of a message dead-lettered after its last receive failed with a retryable error: how
 * many receives it had, and the last error (the embedded queue's dead letter, the run's line and the
 * Lambda handlers alike).
 */
export function exhaustedReason(receives: number, lastError: string): string {
  return `failed ${receives} times; last error: ${lastError}`;
}

/**
 * Why a message is a dead letter when its last receive was never answered: whatever handled it ended
 * without saying how the message fared (a process killed or out of memory, a Lambda invocation that
 * timed out or crashed), so no failure was recorded for it. The embedded queues (MemoryQueue) and the
 * Lambda handlers (lib/aws/sqs-records.ts) say it in the same words; `cause` names what ends in each.
 */
export function neverAnsweredReason(receives: number, cause: string, lastError?: string): string {
  return `received ${receives} times and never answered on its last receive: ${cause}${lastError ? `; last error: ${lastError}` : ''}`;
}

export function isNonRetryable(error: unknown): boolean {
  return error instanceof Error && error.name === 'NonRetryableError';
}

/** The errors of this module: their messages say what happened, so a reason leaves their names out. */
const OWN_ERROR_NAMES: ReadonlySet<string> = new Set(['Error', 'NonRetryableError', 'RetryLaterError', 'HostBusyError', 'PreconditionFailedError', 'DeadlineExceededError', 'StepNotStartedError']);

/**
 * An error as a reason says it: its message, led by its name where that tells something the message
 * may not ("TypeError: …", puppeteer's "TimeoutError: …"), not for this module's own errors
 * ("HTTP 503 for …", not "RetryLaterError: HTTP 503 for …").
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return OWN_ERROR_NAMES.has(error.name) ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Errors with timing meaning, for the queue consumers:
 *
 * - RetryLaterError: the site asked us to come back later (429, or 503 with Retry-After). Retryable;
 *   the next delivery waits at least `retryAfterMs`. It counts as a receive: a site that always says
 *   429 ends as a dead letter with that reason.
 * - HostBusyError: this host's turn has not come yet (per-host rate limit). Not a failure: the
 *   embedded runner hands the message back for `retryInMs` without counting the receive; on AWS the
 *   handler sends it again to its queue with that delay (lib/aws/sqs-records.ts).
 */
export class RetryLaterError extends Error {
  /** `hostPaused`: the host that asked for the wait is held already (retryLaterOf): no other host is paused for it. */
  constructor(message: string, readonly retryAfterMs: number, readonly hostPaused = false) {
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

/** A deferral (not a failure: HostBusyError, StepNotStartedError), and for how long, if the error is one. */
export function deferralOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || (error.name !== 'HostBusyError' && !isNotStarted(error))) return undefined;
  const ms = (error as HostBusyError | StepNotStartedError).retryInMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/** The egress policy refused a destination: never retried. */
export class EgressBlockedError extends NonRetryableError {
  constructor(readonly url: string, readonly reason: string) {
    super(`blocked by the egress guard: ${reason} (${url})`);
  }
}

/** Raised when a conditional put loses: someone else wrote first. */
export class PreconditionFailedError extends Error {
  constructor(readonly key: string) {
    super(`conditional write of ${key} lost to a concurrent writer`);
    this.name = 'PreconditionFailedError';
  }
}

/** A render would not finish within the Lambda invocation's remaining time: retried by a later invocation. */
export class DeadlineExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}

/**
 * How soon a step not started for lack of time comes back (ms): a fresh invocation has its whole time,
 * so the next one will do; a second, not less, as SQS's delays are whole seconds.
 */
export const NOT_STARTED_RETRY_MS = 1_000;

/**
 * A step not started because its Lambda invocation has too little time left (the records before it in
 * the batch took it). No failure of the message, which was never tried: a deferral, as HostBusyError is
 * (deferralOf): the handler sends it again to its queue after `retryInMs` without spending a receive
 * (lib/aws/sqs-records.ts). A step that started and then ran out of time is a DeadlineExceededError
 * of its own: a retryable failure.
 */
export class StepNotStartedError extends DeadlineExceededError {
  readonly retryInMs = NOT_STARTED_RETRY_MS;

  constructor(message: string) {
    super(message);
    this.name = 'StepNotStartedError';
  }
}

/** The step was not started for lack of time (StepNotStartedError). */
export function isNotStarted(error: unknown): boolean {
  return error instanceof Error && error.name === 'StepNotStartedError';
}
