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
 * the steps and queues write: "invalid message: …", "HTTP 404 …", "failed 3 times; last error: …").
 */
export function failureKind(failure: unknown): FailureKind {
  const own = (failure as { kind?: unknown } | undefined)?.kind;
  if (typeof own === 'string' && (FAILURE_KINDS as readonly string[]).includes(own)) return own as FailureKind;
  const reason = typeof failure === 'string' ? failure : describeError(failure);
  if (/^failed \d+ times/.test(reason)) return 'retries-exhausted';
  if (/^invalid message|not a valid (absolute URL|page id)/.test(reason)) return 'invalid-message';
  if (/^HTTP \d{3}/.test(reason)) return 'http-status';
  if (/^not an HTML page/.test(reason)) return 'not-html';
  if (/^blocked|robots\.txt/i.test(reason)) return 'blocked';
  if (/larger than|more than the|more than \d+ frames/.test(reason)) return 'too-large';
  if (/is not in the store|no snapshot|has no URL/.test(reason)) return 'missing-input';
  return 'other';
}

export function isNonRetryable(error: unknown): boolean {
  return error instanceof Error && error.name === 'NonRetryableError';
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return ['Error', 'NonRetryableError'].includes(error.name) ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}
