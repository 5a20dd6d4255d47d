/**
 * Errors carry retry meaning. Throw a NonRetryableError for input that will never succeed
 * (bad URL, 404, not HTML): the message goes to the dead letters at once, with the reason.
 * Any other error is retried with backoff until the queue's receive limit, then dead-lettered.
 */
export class NonRetryableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NonRetryableError';
  }
}

export function isNonRetryable(error: unknown): boolean {
  return error instanceof Error && error.name === 'NonRetryableError';
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return ['Error', 'NonRetryableError'].includes(error.name) ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}
