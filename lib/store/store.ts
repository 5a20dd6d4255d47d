/**
 * The object store every step reads and writes: S3 on AWS, a folder on one machine.
 * Keys follow one layout (see ./keys.ts) on both, so data moves between them as files.
 */
export interface StoredObject {
  readonly body: Buffer;
  /** Opaque version tag: changes whenever the object changes (S3's ETag, a content hash on disk). */
  readonly etag: string;
  readonly lastModified: Date;
}

export interface ListedObject {
  readonly key: string;
  readonly etag: string;
  readonly lastModified: Date;
  readonly size: number;
}

export interface PutOptions {
  readonly contentType?: string;
  /** Write only if the current object has this etag (compare-and-swap). */
  readonly ifMatch?: string;
  /** Write only if no object exists under the key. */
  readonly ifNoneMatch?: '*';
}

export interface ListOptions {
  /**
   * At most this many objects, the first in key order: a cheap "is there any?" (S3: one
   * ListObjectsV2 request with MaxKeys; on disk, the walk stops there). Absent: every object.
   */
  readonly max?: number;
}

/** Raised when a conditional put loses (defined with the other error classes; every Store throws it). */
export { PreconditionFailedError } from '../util/errors';

export interface Store {
  /** The object, or undefined when there is none under the key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Atomic: readers see the old object or the new one, never a torn file. Returns the new etag. */
  put(key: string, body: Buffer | string, options?: PutOptions): Promise<string>;
  delete(key: string): Promise<void>;
  /** Every object whose key starts with the prefix, in key order (at most `options.max`: the first ones). */
  list(prefix: string, options?: ListOptions): Promise<ListedObject[]>;
}

export async function getText(store: Store, key: string): Promise<string | undefined> {
  const obj = await store.get(key);
  return obj?.body.toString('utf8');
}

export async function getJson<T>(store: Store, key: string, parse: (value: unknown) => T): Promise<T | undefined> {
  const text = await getText(store, key);
  return text === undefined ? undefined : parse(JSON.parse(text));
}

/** The `url` field of a stored JSON document (a feature document, an article), if it is readable and has one. */
export async function storedUrl(store: Store, key: string): Promise<string | undefined> {
  const url = await getJson(store, key, (v) => (v as { url?: unknown } | null)?.url).catch(() => undefined);
  return typeof url === 'string' ? url : undefined;
}

export async function putJson(store: Store, key: string, value: unknown, options?: PutOptions): Promise<string> {
  return store.put(key, JSON.stringify(value, null, 2) + '\n', { contentType: 'application/json', ...options });
}
