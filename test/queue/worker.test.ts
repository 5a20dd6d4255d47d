import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryQueue } from '../../lib/queue/memory-queue';
import { consumer, drain, type ConsumerEvent } from '../../lib/queue/worker';
import { failureKind } from '../../lib/util/errors';

describe('drain events', () => {
  it("says a message dead after its last retryable failure with the dead letter's own reason (its receives, the last error)", async () => {
    // prepare: a page that times out on every receive
    const queue = new MemoryQueue<unknown>({ name: 'render', retryBaseMs: 1, maxReceiveCount: 3 });
    await queue.send({ url: 'http://hang.example/' });
    const events: ConsumerEvent[] = [];
    const timeout = () => Object.assign(new Error('Navigation timeout of 20000 ms exceeded'), { name: 'TimeoutError' });

    // act
    await drain(
      [consumer({ queue, schema: z.object({ url: z.string() }), concurrency: 1, handle: () => Promise.reject(timeout()) })],
      { onEvent: (e) => events.push(e) },
    );

    // assess: two retries, then the dead letter, said as `spider dead-letters` says it and counted as retries exhausted
    expect(events.map((e) => e.outcome)).toEqual(['retry', 'retry', 'dead']);
    const [letter] = queue.deadLettered;
    expect(letter.reason).toBe('failed 3 times; last error: TimeoutError: Navigation timeout of 20000 ms exceeded');
    expect(events[2].error).toBe(letter.reason);
    expect(failureKind(events[2].error)).toBe('retries-exhausted');
    expect(events[0].error).toBe('TimeoutError: Navigation timeout of 20000 ms exceeded');
  });
});
