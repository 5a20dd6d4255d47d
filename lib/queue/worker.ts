/**
 * The embedded runner's consumers: what Lambda's event source mapping does on AWS, for in-process
 * queues. Each consumer receives from its queue, validates the message, calls its step, deletes the
 * message on success, and on failure leaves it to the queue's retry and dead-letter policy.
 */
import type { z } from 'zod';
import { deferralOf, describeError, exhaustedReason, isNonRetryable, retryAfterOf } from '../util/errors';
import type { MemoryQueue } from './memory-queue';
import type { ReceivedMessage } from './queue';

export interface Consumer<T> {
  readonly queue: MemoryQueue<unknown>;
  readonly schema: z.ZodType<T>;
  /** Messages handled at once. */
  readonly concurrency: number;
  handle(message: T): Promise<unknown>;
}

/** A consumer with its message type checked against its schema, for a list of mixed consumers. */
export function consumer<T>(c: Consumer<T>): Consumer<unknown> {
  return c as Consumer<unknown>;
}

export interface ConsumerEvent {
  readonly queue: string;
  readonly outcome: 'done' | 'retry' | 'dead';
  readonly message: unknown;
  readonly error?: string;
  readonly result?: unknown;
}

export interface DrainOptions {
  readonly signal?: AbortSignal;
  onEvent?(event: ConsumerEvent): void;
}

/**
 * Runs the consumers until every queue is empty (nothing pending, nothing in flight, no retry
 * waiting) or the signal aborts. Steps may send to each other's queues while it runs.
 *
 * When the signal aborts (the user stops the run), the messages in flight are handed back to their
 * queues without counting the receive, as stopping is no failure of theirs, and drain returns at
 * once: it does not wait for their steps, whose outcome no longer touches the queues (the caller
 * closes the browser they run in). They run again on the next drain.
 */
export async function drain(consumers: readonly Consumer<unknown>[], options: DrainOptions = {}): Promise<void> {
  const inFlight = new Map<Consumer<unknown>, number>();
  const running = new Set<Promise<void>>();
  /** Messages being handled, by id, with their queue: what a stop hands back. */
  const handling = new Map<string, MemoryQueue<unknown>>();
  const stopped = () => options.signal?.aborted === true;

  const handleOne = async (consumer: Consumer<unknown>, msg: ReceivedMessage) => {
    try {
      await settle(consumer, msg);
    } finally {
      handling.delete(msg.id);
    }
  };

  const settle = async (consumer: Consumer<unknown>, { id, body, receiveCount }: ReceivedMessage) => {
    const { queue } = consumer;
    const parsed = consumer.schema.safeParse(body);
    if (!parsed.success) {
      const reason = `invalid message: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ')}`;
      await queue.fail(id, reason, false);
      options.onEvent?.({ queue: queue.name, outcome: 'dead', message: body, error: reason });
      return;
    }
    try {
      const result = await consumer.handle(parsed.data);
      if (stopped()) return; // handed back already: it runs again next time (at least once)
      await queue.delete(id);
      options.onEvent?.({ queue: queue.name, outcome: 'done', message: parsed.data, result });
    } catch (error) {
      if (stopped()) return; // the stop (a closed browser) failed it, not the page
      // Not this host's turn yet (rate limit): handed back for later, not counted as a failure.
      const deferMs = deferralOf(error);
      if (deferMs !== undefined) {
        await queue.defer(id, deferMs);
        return;
      }
      const retryable = !isNonRetryable(error);
      const reason = describeError(error);
      const dead = (await queue.fail(id, reason, retryable, retryAfterOf(error))) === 'dead';
      // A retryable failure that was the last receive: the dead letter's reason, as the queue keeps it
      // (`spider dead-letters`), so the run's line and its tally's kind (retries-exhausted) say the same.
      const said = dead && retryable ? exhaustedReason(receiveCount, reason) : reason;
      options.onEvent?.({ queue: queue.name, outcome: dead ? 'dead' : 'retry', message: parsed.data, error: said });
    }
  };

  // Wakes the loop below: a queue changed, or the signal aborted. One listener each for the whole
  // drain, not one per turn of the loop (those would pile up on a queue that seldom changes).
  let wake: (() => void) | undefined;
  const poke = () => wake?.();
  const unsubscribe = consumers.map((c) => c.queue.onChange(poke));
  options.signal?.addEventListener('abort', poke, { once: true });
  try {
    await loop();
  } finally {
    for (const off of unsubscribe) off();
    options.signal?.removeEventListener('abort', poke);
  }
  if (stopped()) {
    for (const [id, queue] of handling) await queue.defer(id, 0);
    return;
  }
  await Promise.allSettled(running);

  async function loop(): Promise<void> {
    for (;;) {
      if (options.signal?.aborted) break;
      let started = 0;
      for (const consumer of consumers) {
        const free = consumer.concurrency - (inFlight.get(consumer) ?? 0);
        if (free <= 0) continue;
        const batch = await consumer.queue.receive(free);
        for (const msg of batch) {
          started++;
          inFlight.set(consumer, (inFlight.get(consumer) ?? 0) + 1);
          handling.set(msg.id, consumer.queue);
          const task = handleOne(consumer, msg).finally(() => {
            inFlight.set(consumer, (inFlight.get(consumer) ?? 1) - 1);
            running.delete(task);
          });
          running.add(task);
        }
      }
      if (started > 0) continue;
      const pending = consumers.reduce((n, c) => n + c.queue.size, 0);
      if (pending === 0 && running.size === 0) break;
      // Wait for a task to finish, a message to arrive, or a delayed/retried message to become visible.
      const waits: Promise<unknown>[] = [...running, new Promise<void>((r) => (wake = r))];
      const next = Math.min(...consumers.map((c) => c.queue.nextVisibleIn() ?? Infinity));
      let timer: NodeJS.Timeout | undefined;
      if (Number.isFinite(next)) waits.push(new Promise((r) => (timer = setTimeout(r, Math.max(5, next)))));
      await Promise.race(waits);
      wake = undefined;
      clearTimeout(timer);
    }
  }
}
