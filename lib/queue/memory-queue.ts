/**
 * An in-process queue with SQS's semantics: at-least-once delivery, a visibility timeout,
 * retries with exponential backoff, a receive limit after which a message becomes a dead letter
 * that says why, and for FIFO queues per-group ordering and deduplication.
 * With a journal folder, pending messages survive the process (one file a message).
 *
 * Memory holds only what is not done: messages pending or in flight, FIFO deduplication ids of the
 * last window, and (without a journal) the dead letters. A deleted message leaves nothing behind;
 * with a journal, dead letters are on disk only (`deadLettered` reads them back).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile, readdir, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { makeDirectory } from '../util/make-directory';
import { exhaustedReason, neverAnsweredReason } from '../util/errors';
import type { QueueSender, ReceivedMessage, SendOptions } from './queue';
import type { QueueCounts } from './status';

export interface MemoryQueueOptions<T = unknown> {
  readonly name: string;
  readonly fifo?: boolean;
  /** Seconds a received message stays invisible before it is delivered again. */
  readonly visibilityTimeoutSeconds?: number;
  /** Receives after which a failing message becomes a dead letter (SQS maxReceiveCount). */
  readonly maxReceiveCount?: number;
  /** First retry delay in ms; doubles with every receive, capped by the visibility timeout. */
  readonly retryBaseMs?: number;
  /** FIFO deduplication window in ms (SQS: 5 minutes). */
  readonly deduplicationWindowMs?: number;
  /** Folder for pending messages and dead letters; in memory only when absent. */
  readonly journalDir?: string;
  /**
   * Standard queues: a key per message such that two messages with the same key do the same work
   * when they run (apply's site and page: apply reads the site's rules when it runs). A send whose
   * key matches a message still waiting (not yet received) is dropped. Not SQS: the embedded runner's
   * economy (docs/rules-document.md, "Relearn").
   */
  readonly coalesce?: (body: T) => string | undefined;
}

export interface DeadLetter<T = unknown> {
  readonly id: string;
  readonly queue: string;
  readonly body: T;
  readonly reason: string;
  readonly receiveCount: number;
  readonly firstSentAt: string;
  readonly deadAt: string;
  readonly errors: string[];
}

interface Entry<T> {
  id: string;
  body: T;
  groupId?: string;
  receiveCount: number;
  visibleAt: number;
  sentAt: number;
  errors: string[];
  inFlight: boolean;
  /** Its coalescing key while it waits to be received the first time. */
  coalesceKey?: string;
}

/** A pending message read back from its journal file, or undefined when the file is not one. */
function journalEntry<T>(text: string): Entry<T> | undefined {
  let e: Partial<Entry<T>> | null;
  try {
    e = JSON.parse(text) as Partial<Entry<T>> | null;
  } catch {
    return undefined;
  }
  const ok = e && typeof e === 'object' && typeof e.id === 'string' && 'body' in e && typeof e.sentAt === 'number' && typeof e.visibleAt === 'number' && typeof e.receiveCount === 'number';
  return ok ? ({ errors: [], ...e } as Entry<T>) : undefined;
}

export class MemoryQueue<T> implements QueueSender<T> {
  readonly name: string;
  readonly fifo: boolean;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number;
  private readonly retryBaseMs: number;
  private readonly dedupWindowMs: number;
  private readonly journalDir?: string;
  private readonly entries = new Map<string, Entry<T>>();
  /** Per message, the last of its journal file operations, so the next one runs after it (onFile). */
  private readonly fileOps = new Map<string, Promise<void>>();
  /** FIFO deduplication ids and when they were first sent, oldest first; pruned past the window. */
  private readonly dedup = new Map<string, number>();
  /** Without a journal only: with one, dead letters are on disk. */
  private readonly deadLetters: DeadLetter<T>[] = [];
  private deadCount = 0;
  /** Coalescing key → id of the waiting message that holds it. */
  private readonly waiting = new Map<string, string>();
  private readonly coalesce?: (body: unknown) => string | undefined;
  private readonly listeners = new Set<() => void>();
  private loaded?: Promise<void>;

  constructor(options: MemoryQueueOptions<T>) {
    this.name = options.name;
    this.fifo = options.fifo ?? false;
    this.visibilityMs = (options.visibilityTimeoutSeconds ?? 30) * 1000;
    this.maxReceiveCount = options.maxReceiveCount ?? 3;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.dedupWindowMs = options.deduplicationWindowMs ?? 5 * 60_000;
    this.journalDir = options.journalDir;
    this.coalesce = options.coalesce as ((body: unknown) => string | undefined) | undefined;
  }

  /** Loads messages a previous process left pending in the journal. */
  async open(): Promise<this> {
    this.loaded ??= this.load();
    await this.loaded;
    return this;
  }

  async send(body: T, options: SendOptions = {}): Promise<void> {
    await this.open();
    if (this.fifo && !options.groupId) throw new Error(`queue ${this.name} is FIFO: a message needs a groupId`);
    const now = Date.now();
    if (this.fifo && options.deduplicationId) {
      this.pruneDedup(now);
      if (this.dedup.has(options.deduplicationId)) return;
      this.dedup.set(options.deduplicationId, now);
    }
    const coalesceKey = this.fifo ? undefined : this.coalesce?.(body);
    if (coalesceKey !== undefined && this.waiting.has(coalesceKey)) return;
    const entry: Entry<T> = {
      id: randomUUID(),
      body: structuredClone(body),
      groupId: options.groupId,
      receiveCount: 0,
      visibleAt: now + (options.delaySeconds ?? 0) * 1000,
      sentAt: now,
      errors: [],
      inFlight: false,
      ...(coalesceKey !== undefined ? { coalesceKey } : {}),
    };
    this.entries.set(entry.id, entry);
    if (coalesceKey !== undefined) this.waiting.set(coalesceKey, entry.id);
    await this.journal(entry);
    this.notify();
  }

  /**
   * Up to `max` visible messages; each becomes invisible for the visibility timeout. The receive is
   * journaled, so a process that ends while handling a message (killed, out of memory) has spent it.
   * A message visible again after its last receive was never answered (the process ended, or the
   * step outlived the visibility timeout): a dead letter that says so, as SQS moves it to its
   * dead-letter queue instead of delivering it again.
   */
  async receive(max = 10): Promise<ReceivedMessage<T>[]> {
    await this.open();
    const now = Date.now();
    const busyGroups = new Set<string>();
    if (this.fifo) for (const e of this.entries.values()) if (e.groupId && e.inFlight && e.visibleAt > now) busyGroups.add(e.groupId);
    const out: ReceivedMessage<T>[] = [];
    const unanswered: Entry<T>[] = [];
    for (const entry of this.entries.values()) {
      if (out.length >= max) break;
      if (entry.visibleAt > now) continue;
      if (entry.receiveCount >= this.maxReceiveCount) {
        unanswered.push(entry);
        continue;
      }
      if (this.fifo && entry.groupId) {
        if (busyGroups.has(entry.groupId)) continue;
        busyGroups.add(entry.groupId); // one message per group at a time
      }
      entry.receiveCount += 1;
      entry.inFlight = true;
      this.release(entry);
      entry.visibleAt = now + this.visibilityMs;
      out.push({ id: entry.id, body: structuredClone(entry.body), receiveCount: entry.receiveCount, groupId: entry.groupId });
    }
    for (const entry of unanswered) {
      const cause = `the process handling it ended (killed, out of memory, a crash) or the step outlived the ${this.visibilityMs / 1000} s visibility timeout`;
      await this.killEntry(entry, neverAnsweredReason(entry.receiveCount, cause, entry.errors.at(-1)));
    }
    await Promise.all(out.map((m) => this.journal(this.entries.get(m.id)!)));
    return out;
  }

  /** Done with a message: it is not delivered again. */
  async delete(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.release(entry);
    await this.onFile(id, () => rm(this.pendingFile(id), { force: true }));
    this.notify();
  }

  /**
   * A receive failed. Retryable: visible again after a backoff, or a dead letter once the receive
   * limit is reached. Not retryable: a dead letter now.
   */
  async fail(id: string, reason: string, retryable: boolean, minDelayMs = 0): Promise<'dead' | 'retry' | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    entry.errors.push(reason);
    entry.inFlight = false;
    if (!retryable || entry.receiveCount >= this.maxReceiveCount) {
      const why = retryable ? exhaustedReason(entry.receiveCount, reason) : reason;
      await this.killEntry(entry, why);
      return 'dead';
    }
    // A delay the failure asks for (a site's Retry-After) stretches the backoff.
    const backoff = Math.max(minDelayMs, Math.min(this.visibilityMs, this.retryBaseMs * 2 ** (entry.receiveCount - 1)));
    entry.visibleAt = Date.now() + backoff;
    await this.journal(entry);
    this.notify();
    return 'retry';
  }

  /**
   * Hands a received message back without counting the receive (SQS: a fresh copy with a delay):
   * it was not its turn (per-host rate limit), which is no failure of the message.
   */
  async defer(id: string, delayMs: number): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.receiveCount = Math.max(0, entry.receiveCount - 1);
    entry.inFlight = false;
    entry.visibleAt = Date.now() + Math.max(0, delayMs);
    await this.journal(entry);
    this.notify();
  }

  /** A message refused at the door (invalid, over a cap): a dead letter at once, with the reason. */
  async reject(body: T, reason: string): Promise<void> {
    await this.open();
    const now = Date.now();
    const entry: Entry<T> = { id: randomUUID(), body: structuredClone(body), receiveCount: 0, visibleAt: now, sentAt: now, errors: [reason], inFlight: false };
    await this.killEntry(entry, reason);
  }

  /** Messages not yet deleted or dead, in flight included. */
  get size(): number {
    return this.entries.size;
  }

  /** Messages not yet deleted or dead (pending or in flight) whose body passes `filter`. */
  countWhere(filter: (body: T) => boolean): number {
    let n = 0;
    for (const e of this.entries.values()) if (filter(e.body)) n++;
    return n;
  }

  /** Pending, in flight and dead-lettered messages, and the age of the oldest pending one (`spider status`). */
  counts(now = Date.now()): QueueCounts {
    let pending = 0;
    let inFlight = 0;
    let oldest: number | undefined;
    for (const e of this.entries.values()) {
      if (e.inFlight && e.visibleAt > now) {
        inFlight++;
        continue;
      }
      pending++;
      oldest = oldest === undefined ? e.sentAt : Math.min(oldest, e.sentAt);
    }
    return { pending, inFlight, deadLettered: this.deadCount, oldestPendingAgeSeconds: oldest === undefined ? 0 : Math.max(0, Math.round((now - oldest) / 1000)) };
  }

  /** Milliseconds until the next message becomes visible; undefined when the queue is empty. */
  nextVisibleIn(): number | undefined {
    let next: number | undefined;
    for (const e of this.entries.values()) next = next === undefined ? e.visibleAt : Math.min(next, e.visibleAt);
    return next === undefined ? undefined : Math.max(0, next - Date.now());
  }

  /** The dead letters, oldest first: from memory, or with a journal read back from it. */
  get deadLettered(): readonly DeadLetter<T>[] {
    if (!this.journalDir) return this.deadLetters;
    const dir = path.join(this.journalDir, 'dead-letters');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out = names.map((n) => this.readDeadLetter(dir, n));
    return out.sort((a, b) => (a.deadAt < b.deadAt ? -1 : a.deadAt > b.deadAt ? 1 : 0));
  }

  /** Dead letters so far (this process and the journal's). */
  get deadLetterCount(): number {
    return this.deadCount;
  }

  /** Resolves when something changes (a send, delete or failure). */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      const off = this.onChange(() => {
        off();
        resolve();
      });
    });
  }

  /** Calls fn on every change until the returned function is called. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Entries of the queue's in-memory structures (tests: nothing stays per finished message). */
  memoryEntries(): { messages: number; deduplicationIds: number; waitingKeys: number; deadLetters: number; listeners: number } {
    return { messages: this.entries.size, deduplicationIds: this.dedup.size, waitingKeys: this.waiting.size, deadLetters: this.deadLetters.length, listeners: this.listeners.size };
  }

  private release(entry: Entry<T>): void {
    if (entry.coalesceKey === undefined) return;
    if (this.waiting.get(entry.coalesceKey) === entry.id) this.waiting.delete(entry.coalesceKey);
    entry.coalesceKey = undefined;
  }

  /** Forget deduplication ids older than the window (insertion order is send order). */
  private pruneDedup(now: number): void {
    for (const [id, at] of this.dedup) {
      if (now - at < this.dedupWindowMs) break;
      this.dedup.delete(id);
    }
  }

  private notify(): void {
    for (const fn of [...this.listeners]) fn();
  }

  private async killEntry(entry: Entry<T>, reason: string): Promise<void> {
    this.entries.delete(entry.id);
    this.release(entry);
    const dead: DeadLetter<T> = {
      id: entry.id,
      queue: this.name,
      body: entry.body,
      reason,
      receiveCount: entry.receiveCount,
      firstSentAt: new Date(entry.sentAt).toISOString(),
      deadAt: new Date().toISOString(),
      errors: entry.errors,
    };
    this.deadCount++;
    if (!this.journalDir) this.deadLetters.push(dead);
    else {
      const deadDir = path.join(this.journalDir, 'dead-letters');
      await makeDirectory(deadDir);
      await writeFile(path.join(deadDir, `${entry.id}.json`), JSON.stringify(dead, null, 2) + '\n');
      await this.onFile(entry.id, () => rm(this.pendingFile(entry.id), { force: true }));
    }
    this.notify();
  }

  /** A dead-letter file, or a dead letter that names it when it cannot be read. */
  private readDeadLetter(dir: string, name: string): DeadLetter<T> {
    const text = readFileSync(path.join(dir, name), 'utf8');
    try {
      const d = JSON.parse(text) as DeadLetter<T>;
      if (d && typeof d === 'object' && typeof d.reason === 'string' && typeof d.deadAt === 'string') return d;
    } catch {
      // named below
    }
    return {
      id: path.basename(name, '.json'),
      queue: this.name,
      body: { deadLetterFile: `dead-letters/${name}`, text: text.slice(0, 500) } as T,
      reason: `unreadable dead-letter file dead-letters/${name}`,
      receiveCount: 0,
      firstSentAt: '',
      deadAt: '',
      errors: [],
    };
  }

  /** Moves a bad journal file to `<journal>/quarantine/<as>`; returns where it is now. */
  private async quarantineFile(file: string, as: string): Promise<string> {
    const dir = path.join(this.journalDir!, 'quarantine');
    await makeDirectory(dir);
    await rename(file, path.join(dir, as));
    return `quarantine/${as}`;
  }

  private pendingFile(id: string): string {
    return path.join(this.journalDir!, 'pending', `${id}.json`);
  }

  private journal(entry: Entry<T>): Promise<void> {
    return this.onFile(entry.id, async () => {
      const file = this.pendingFile(entry.id);
      await makeDirectory(path.dirname(file));
      const tmp = `${file}.tmp`;
      // the entry as it is now: a later change of it has its own write queued after this one
      await writeFile(tmp, JSON.stringify({ ...entry, inFlight: false, coalesceKey: undefined }));
      await rename(tmp, file);
    });
  }

  /**
   * Runs one operation on a message's journal file after the ones before it. A message handed back
   * can be received and handed back (or deleted) again before its first write is done: two writes
   * through the same temporary file, or a delete before a write, would fail or leave a stale file.
   */
  private onFile(id: string, op: () => Promise<unknown>): Promise<void> {
    if (!this.journalDir) return Promise.resolve();
    const next = (this.fileOps.get(id) ?? Promise.resolve()).then(async () => {
      await op();
    });
    const settled = next.catch(() => undefined);
    this.fileOps.set(id, settled);
    void settled.then(() => {
      if (this.fileOps.get(id) === settled) this.fileOps.delete(id);
    });
    return next;
  }

  private async load(): Promise<void> {
    if (!this.journalDir) return;
    const dir = path.join(this.journalDir, 'pending');
    let names: string[] = [];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const deadDir = path.join(this.journalDir, 'dead-letters');
    try {
      this.deadCount += (await readdir(deadDir)).filter((n) => n.endsWith('.json')).length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const loaded: Entry<T>[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      const text = await readFile(file, 'utf8');
      const entry = journalEntry<T>(text);
      if (entry) {
        loaded.push({ ...entry, inFlight: false, visibleAt: Math.min(entry.visibleAt, Date.now()) });
        continue;
      }
      // A bad journal file (truncated, hand-edited) is not a message anyone can run: it becomes a
      // dead letter that names it, its bytes kept under quarantine/, and the queue goes on.
      const kept = await this.quarantineFile(file, `pending-${name}`);
      const now = Date.now();
      const bad: Entry<T> = { id: path.basename(name, '.json'), body: { journalFile: `pending/${name}`, text: text.slice(0, 500) } as T, receiveCount: 0, visibleAt: now, sentAt: now, errors: [], inFlight: false };
      await this.killEntry(bad, `unreadable journal file pending/${name} (not a queue message); its bytes are kept at ${kept}`);
    }
    for (const entry of loaded.sort((a, b) => a.sentAt - b.sentAt)) this.entries.set(entry.id, entry);
  }
}
