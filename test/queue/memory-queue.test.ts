import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { MemoryQueue } from '../../lib/queue/memory-queue';
import { consumer, drain, type ConsumerEvent } from '../../lib/queue/worker';
import { NonRetryableError } from '../../lib/util/errors';

/** Date.now under the test's control (the queue's visibility and backoff read it), real timers otherwise; restored after the test. */
function fakeDate(): { advance(ms: number): void } {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return { advance: (ms) => vi.setSystemTime(Date.now() + ms) };
}

describe('MemoryQueue', () => {
  it('hides a received message for the visibility timeout, then delivers it again (at least once)', async () => {
    const clock = fakeDate();
    const q = new MemoryQueue<string>({ name: 'q', visibilityTimeoutSeconds: 0.05 });
    await q.send('a');
    const [first] = await q.receive();
    expect(first).toMatchObject({ body: 'a', receiveCount: 1 });
    clock.advance(49);
    expect(await q.receive()).toEqual([]);
    clock.advance(1);
    const [again] = await q.receive();
    expect(again).toMatchObject({ id: first.id, receiveCount: 2 });
    await q.delete(again.id);
    expect(q.size).toBe(0);
  });

  it('retries with backoff and dead-letters after the receive limit, saying why', async () => {
    const clock = fakeDate();
    const q = new MemoryQueue<string>({ name: 'q', maxReceiveCount: 2, retryBaseMs: 20 });
    await q.send('a');
    const [m1] = await q.receive();
    await q.fail(m1.id, 'boom 1', true);
    clock.advance(19);
    expect(await q.receive()).toEqual([]); // backing off: 20 ms after the first failure
    clock.advance(1);
    const [m2] = await q.receive();
    await q.fail(m2.id, 'boom 2', true);
    expect(q.size).toBe(0);
    expect(q.deadLettered).toHaveLength(1);
    expect(q.deadLettered[0]).toMatchObject({ body: 'a', receiveCount: 2, errors: ['boom 1', 'boom 2'] });
    expect(q.deadLettered[0].reason).toContain('failed 2 times; last error: boom 2');
  });

  it('dead-letters a non-retryable failure at once', async () => {
    const q = new MemoryQueue<string>({ name: 'q', maxReceiveCount: 5 });
    await q.send('a');
    const [m] = await q.receive();
    await q.fail(m.id, 'HTTP 404', false);
    expect(q.deadLettered.map((d) => d.reason)).toEqual(['HTTP 404']);
  });

  it('FIFO: one message of a group in flight at a time, deduplicated by id', async () => {
    const q = new MemoryQueue<string>({ name: 'q.fifo', fifo: true });
    await q.send('a1', { groupId: 'a', deduplicationId: 'x' });
    await q.send('a1 again', { groupId: 'a', deduplicationId: 'x' });
    await q.send('a2', { groupId: 'a', deduplicationId: 'y' });
    await q.send('b1', { groupId: 'b', deduplicationId: 'z' });
    const batch = await q.receive(10);
    expect(batch.map((m) => m.body)).toEqual(['a1', 'b1']);
    await q.delete(batch[0].id);
    expect((await q.receive(10)).map((m) => m.body)).toEqual(['a2']);
    await expect(q.send('no group')).rejects.toThrow(/groupId/);
  });

  it('journals pending messages and dead letters to disk and reloads them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-q-'));
    const q = new MemoryQueue<string>({ name: 'q', journalDir: dir });
    await q.send('kept');
    await q.send('dead');
    const [, dead] = await q.receive(2);
    await q.fail(dead.id, 'bad input', false);
    const reopened = await new MemoryQueue<string>({ name: 'q', journalDir: dir }).open();
    expect((await reopened.receive(10)).map((m) => m.body)).toEqual(['kept']);
    expect(reopened.deadLettered.map((d) => d.reason)).toEqual(['bad input']);
    const files = await readdir(path.join(dir, 'dead-letters'));
    expect(JSON.parse(await readFile(path.join(dir, 'dead-letters', files[0]), 'utf8'))).toMatchObject({ body: 'dead', reason: 'bad input' });
  });

  it('counts a receive the process never answered (killed while handling it): after the receive limit, a dead letter that says so', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-q-'));
    const open = () => new MemoryQueue<string>({ name: 'q', journalDir: dir, maxReceiveCount: 2 }).open();
    await (await open()).send('kills the process');
    // each process receives it and ends without deleting, failing or handing it back
    expect((await (await open()).receive()).map((m) => m.receiveCount)).toEqual([1]);
    expect((await (await open()).receive()).map((m) => m.receiveCount)).toEqual([2]);
    const third = await open();
    expect(await third.receive()).toEqual([]);
    expect(third.size).toBe(0);
    expect(third.deadLettered).toHaveLength(1);
    expect(third.deadLettered[0]).toMatchObject({ body: 'kills the process', receiveCount: 2 });
    expect(third.deadLettered[0].reason).toMatch(/^received 2 times and never answered on its last receive: the process handling it ended/);
    expect(await readdir(path.join(dir, 'pending'))).toEqual([]);
  });

  it('dead-letters a message whose last receive outlived the visibility timeout instead of delivering it again', async () => {
    const clock = fakeDate();
    const q = new MemoryQueue<string>({ name: 'q', visibilityTimeoutSeconds: 1, maxReceiveCount: 2, retryBaseMs: 10 });
    await q.send('hangs');
    const [m1] = await q.receive();
    await q.fail(m1.id, 'timeout 1', true);
    clock.advance(10);
    expect((await q.receive()).map((m) => m.receiveCount)).toEqual([2]);
    clock.advance(1000);
    expect(await q.receive()).toEqual([]);
    expect(q.deadLettered.map((d) => d.reason)).toEqual([
      'received 2 times and never answered on its last receive: the process handling it ended (killed, out of memory, a crash) or the step outlived the 1 s visibility timeout; last error: timeout 1',
    ]);
  });

  it('journals a message handed back, received and handed back again before its first write is done, then deleted: no error, no file left', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-q-'));
    const q = new MemoryQueue<string>({ name: 'q', journalDir: dir });
    await q.send('page');
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      const [m] = await q.receive(1);
      writes.push(q.defer(m.id, 0)); // not awaited: the politeness hand-back of a consumer slot
    }
    const [last] = await q.receive(1);
    writes.push(q.delete(last.id));
    await Promise.all(writes);
    expect(await readdir(path.join(dir, 'pending'))).toEqual([]);
  });

  it('turns an unreadable journal file into a dead letter that names it, and goes on with the others', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-q-'));
    const q = new MemoryQueue<string>({ name: 'q', journalDir: dir });
    await q.send('first');
    await q.send('second');
    await q.send('dead');
    const [, , dead] = await q.receive(3);
    await q.fail(dead.id, 'bad input', false);
    const pending = (await readdir(path.join(dir, 'pending'))).sort();
    const truncated = pending[0];
    await writeFile(path.join(dir, 'pending', truncated), (await readFile(path.join(dir, 'pending', truncated), 'utf8')).slice(0, 25));
    const [deadFile] = await readdir(path.join(dir, 'dead-letters'));
    await writeFile(path.join(dir, 'dead-letters', deadFile), '{"id": "cut sho');

    const reopened = await new MemoryQueue<string>({ name: 'q', journalDir: dir }).open();
    expect((await reopened.receive(10))).toHaveLength(1);
    const reasons = reopened.deadLettered.map((d) => d.reason).sort();
    expect(reasons).toEqual([`unreadable dead-letter file dead-letters/${deadFile}`, `unreadable journal file pending/${truncated} (not a queue message); its bytes are kept at quarantine/pending-${truncated}`]);
    expect(reopened.deadLetterCount).toBe(2);
    expect(await readdir(path.join(dir, 'quarantine'))).toEqual([`pending-${truncated}`]);
  });
});

describe('drain', () => {
  it('runs consumers until every queue is empty, across queues, with retries and dead letters', async () => {
    const first = new MemoryQueue<unknown>({ name: 'first', retryBaseMs: 5, maxReceiveCount: 3 });
    const second = new MemoryQueue<unknown>({ name: 'second', retryBaseMs: 5 });
    const seen: string[] = [];
    let flaky = 0;
    const events: ConsumerEvent[] = [];
    await first.send({ n: 1 });
    await first.send({ n: 2 });
    await first.send({ n: 'not a number' });
    await first.send({ n: 404 });
    await drain(
      [
        consumer({
          queue: first,
          schema: z.object({ n: z.number() }),
          concurrency: 2,
          async handle(m) {
            if (m.n === 404) throw new NonRetryableError('gone');
            if (m.n === 2 && flaky++ < 1) throw new Error('flaky');
            await second.send({ s: `from ${m.n}` });
          },
        }),
        consumer({ queue: second, schema: z.object({ s: z.string() }), concurrency: 1, handle: async (m) => void seen.push(m.s) }),
      ],
      { onEvent: (e) => events.push(e) },
    );
    expect(seen.sort()).toEqual(['from 1', 'from 2']);
    expect(first.size + second.size).toBe(0);
    expect(first.deadLettered.map((d) => d.reason).sort()).toEqual(['gone', 'invalid message: n: Invalid input: expected number, received string']);
    expect(events.filter((e) => e.outcome === 'retry')).toHaveLength(1);
  });
});
