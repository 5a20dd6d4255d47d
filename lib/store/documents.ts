/**
 * One reader of the store's JSON documents (feature documents, rules, articles). A stored file that
 * is not JSON, or not the document its key names, is a bad file: the reader names it in one line,
 * copies its bytes to `quarantine/<key>` so nothing is lost, and reads it as absent, so one bad file
 * never stops a site, a listing or a run. Documented in docs/storage-layout.md ("Bad files").
 */
import type { z } from 'zod';
import { keyPrefixes } from './keys';
import type { Store } from './store';

export interface BadDocument {
  /** The key of the bad file. */
  readonly key: string;
  /** One line: why it cannot be read ("not JSON: …", "not a valid document: field: …"). */
  readonly problem: string;
  /** Where its bytes were copied; undefined when the copy failed (the reason is in `problem`). */
  readonly quarantineKey?: string;
}

export type ParsedDocument<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** Issues of a schema error in one line: `path.to.field: message` for the first few. */
export function schemaProblem(error: z.ZodError, most = 3): string {
  const issues = error.issues.slice(0, most).map((i) => `${i.path.length ? i.path.join('.') : '(document)'}: ${i.message}`);
  const more = error.issues.length > most ? ` (and ${error.issues.length - most} more)` : '';
  return issues.join('; ') + more;
}

/** The document in a stored body, or why it is not one. */
export function parseDocument<T>(body: Buffer | string, schema: z.ZodType<T>): ParsedDocument<T> {
  let json: unknown;
  try {
    json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch (error) {
    return { ok: false, problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: `not a valid document: ${schemaProblem(parsed.error)}` };
}

/** Where a bad file's bytes are kept. */
export function quarantineKeyOf(key: string): string {
  return `${keyPrefixes.quarantine}${key}`;
}

export interface QuarantineOptions {
  /** Also delete the original, so readers stop meeting it (its owner writes it again, or it is gone for good). */
  readonly remove?: boolean;
}

/** Copies a bad file's bytes to `quarantine/<key>` (and with `remove`, deletes the original). */
export async function quarantine(store: Store, key: string, body: Buffer, options: QuarantineOptions = {}): Promise<string> {
  const to = quarantineKeyOf(key);
  await store.put(to, body);
  if (options.remove) await store.delete(key);
  return to;
}

export interface ReadDocumentOptions extends QuarantineOptions {
  /** Told of every bad file met (the CLI prints it; a step logs it). */
  readonly onBad?: (bad: BadDocument) => void;
}

/** The document under `key`: undefined when there is none, or when it is a bad file (quarantined, reported to `onBad`). */
export async function readDocument<T>(store: Store, key: string, schema: z.ZodType<T>, options: ReadDocumentOptions = {}): Promise<T | undefined> {
  const obj = await store.get(key);
  if (!obj) return undefined;
  const parsed = parseDocument(obj.body, schema);
  if (parsed.ok) return parsed.value;
  let quarantineKey: string | undefined;
  let problem = parsed.problem;
  try {
    quarantineKey = await quarantine(store, key, obj.body, options);
  } catch (error) {
    problem += `; could not quarantine it: ${error instanceof Error ? error.message : String(error)}`;
  }
  options.onBad?.({ key, problem, quarantineKey });
  return undefined;
}

/** A bad file in one line, for a log or a terminal. */
export function describeBadDocument(bad: BadDocument): string {
  return `${bad.key} is unreadable (${bad.problem})${bad.quarantineKey ? `; its bytes are kept at ${bad.quarantineKey}` : ''}`;
}
