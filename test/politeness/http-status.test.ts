/**
 * The HTTP status of a page's document, mapped to what its message does next: read it, retry it with
 * backoff, come back after the site's Retry-After, or dead-letter it at once. Pins the mapping the
 * renderer applies to the navigation's response.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_429_DELAY_MS, httpStatusError } from '../../lib/politeness/http-status';
import { deferralOf, isNonRetryable, retryAfterOf } from '../../lib/util/errors';

const URL_ = 'https://example.org/a';

describe('httpStatusError', () => {
  it('lets 1xx, 2xx and 3xx through', () => {
    for (const status of [100, 200, 204, 299, 301, 304, 399]) expect(httpStatusError(status, undefined, URL_)).toBeUndefined();
  });

  it('dead-letters every 4xx but 429, 408 and 425 included', () => {
    for (const status of [400, 401, 403, 404, 408, 410, 425, 451, 499]) {
      const error = httpStatusError(status, undefined, URL_);
      expect(error, String(status)).toBeInstanceOf(Error);
      expect(isNonRetryable(error), String(status)).toBe(true);
      expect(retryAfterOf(error)).toBeUndefined();
      expect(error!.message).toBe(`HTTP ${status} for ${URL_}`);
    }
  });

  it('a 4xx with a Retry-After is still not retried (only 429 and 503 honour it)', () => {
    expect(isNonRetryable(httpStatusError(408, '5', URL_))).toBe(true);
    expect(isNonRetryable(httpStatusError(425, '5', URL_))).toBe(true);
  });

  it('429 comes back after the Retry-After, or after the default delay without a usable one', () => {
    for (const [header, ms] of [['7', 7000], [undefined, DEFAULT_429_DELAY_MS], ['soon', DEFAULT_429_DELAY_MS], [['3', '9'], 3000]] as const) {
      const error = httpStatusError(429, header as string | string[] | undefined, URL_);
      expect(error?.name).toBe('RetryLaterError');
      expect(isNonRetryable(error)).toBe(false);
      expect(retryAfterOf(error)).toBe(ms);
      expect(deferralOf(error)).toBeUndefined(); // a retry that counts as a receive, not a deferral
      expect(error!.message).toBe(`HTTP 429 for ${URL_}`);
    }
    expect(DEFAULT_429_DELAY_MS).toBe(60_000);
  });

  it('503 with a Retry-After comes back after it; 503 without one and other 5xx retry with backoff', () => {
    const later = httpStatusError(503, '120', URL_);
    expect(later?.name).toBe('RetryLaterError');
    expect(retryAfterOf(later)).toBe(120_000);
    for (const [status, header] of [[500, undefined], [502, '30'], [503, undefined], [503, 'not a date'], [504, undefined], [599, undefined]] as const) {
      const error = httpStatusError(status, header, URL_);
      expect(error?.name, String(status)).toBe('Error');
      expect(isNonRetryable(error)).toBe(false);
      expect(retryAfterOf(error)).toBeUndefined();
      expect(error!.message).toBe(`HTTP ${status} for ${URL_}`);
    }
  });
});
