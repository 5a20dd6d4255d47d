/** How a failure is said in a dead letter's reason, and the kind read back from it. */
import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, describeError, exhaustedReason, failureKind, HostBusyError, NonRetryableError, RetryLaterError } from '../../lib/util/errors';

describe('describeError', () => {
  it("says this module's errors by their message alone, and others' with their name", () => {
    expect(describeError(new RetryLaterError('HTTP 503 for http://a.example/x', 30_000))).toBe('HTTP 503 for http://a.example/x');
    expect(describeError(new HostBusyError('a.example', 1000))).toBe('a.example is rate-limited: next request in 1000 ms');
    expect(describeError(new DeadlineExceededError('render did not finish within 2400 ms'))).toBe('render did not finish within 2400 ms');
    expect(describeError(new NonRetryableError('HTTP 404 for http://a.example/x'))).toBe('HTTP 404 for http://a.example/x');
    const timeout = new Error('Navigation timeout of 20000 ms exceeded');
    timeout.name = 'TimeoutError';
    expect(describeError(timeout)).toBe('TimeoutError: Navigation timeout of 20000 ms exceeded');
    expect(describeError(new TypeError('x is not a function'))).toBe('TypeError: x is not a function');
    expect(describeError('plain')).toBe('plain');
  });
  it('leaves a retried HTTP status readable in the exhausted reason, whose kind stays retries-exhausted', () => {
    const reason = exhaustedReason(3, describeError(new RetryLaterError('HTTP 503 for http://a.example/x', 1000)));
    expect(reason).toBe('failed 3 times; last error: HTTP 503 for http://a.example/x');
    expect(failureKind(reason)).toBe('retries-exhausted');
  });
});
