import { NonRetryableError, RetryLaterError } from '../util/errors';
import { parseRetryAfter } from './retry-after';

/** How long a 429 without a usable Retry-After holds the host. */
export const DEFAULT_429_DELAY_MS = 60_000;

/**
 * What a page's HTTP status means for its message, as an error to throw, or undefined when the page
 * can be read (1xx-3xx):
 * - 429, and 503 with a Retry-After: RetryLaterError, the site asked us to come back later (429
 *   without a usable Retry-After waits DEFAULT_429_DELAY_MS);
 * - any other 4xx (408 and 425 included): NonRetryableError, asking again will not help;
 * - 5xx (503 without Retry-After included): a plain Error, retried with backoff.
 */
export function httpStatusError(status: number, retryAfterHeader: string | string[] | undefined, url: string): Error | undefined {
  const retryAfter = parseRetryAfter(retryAfterHeader);
  if (status === 429) return new RetryLaterError(`HTTP 429 for ${url}`, retryAfter ?? DEFAULT_429_DELAY_MS);
  if (status === 503 && retryAfter !== undefined) return new RetryLaterError(`HTTP 503 for ${url}`, retryAfter);
  if (status >= 400 && status < 500) return new NonRetryableError(`HTTP ${status} for ${url}`);
  if (status >= 500) return new Error(`HTTP ${status} for ${url}`);
  return undefined;
}
