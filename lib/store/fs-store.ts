/**
 * The embedded default store: a folder with the bucket's key layout (like Crawlee's ./storage).
 * Writes go to a temporary file renamed into place, so readers never see a torn file.
 * Conditional writes are serialized per key within the process (the embedded runner is one process).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDirectory } from '../util/make-directory';
import { PreconditionFailedError, type ListedObject, type ListOptions, type PutOptions, type Store, type StoredObject } from './store';

export function etagOf(body: Buffer): string {
  return createHash('md5').update(body).digest('hex');
}

/** The store's folder in a data folder (`--data-dir`): the bucket's key layout (docs/storage-layout.md). */
export function embeddedStoreDir(dataDir: string): string {
  return path.join(dataDir, 'store');
}

export class FsStore implements Store {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  private file(key: string): string {
    if (key.split('/').some((part) => part === '..' || part === '') || key.startsWith('/')) {
      throw new Error(`invalid store key: ${JSON.stringify(key)}`);
    }
    return path.join(this.root, ...key.split('/'));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const file = this.file(key);
    try {
      const [body, info] = await Promise.all([readFile(file), stat(file)]);
      return { body, etag: etagOf(body), lastModified: info.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(key: string, body: Buffer | string, options: PutOptions = {}): Promise<string> {
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    const write = async () => {
      if (options.ifMatch !== undefined || options.ifNoneMatch !== undefined) {
        const current = await this.get(key);
        if (options.ifNoneMatch === '*' && current) throw new PreconditionFailedError(key);
        if (options.ifMatch !== undefined && current?.etag !== options.ifMatch) throw new PreconditionFailedError(key);
      }
      const file = this.file(key);
      await makeDirectory(path.dirname(file));
      const tmp = `${file}.${randomUUID()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
      return etagOf(data);
    };
    return this.serialized(key, write);
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    // Walk only the folder the prefix names, then filter by the full prefix.
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
    const start = dirKey ? path.join(this.root, ...dirKey.split('/')) : this.root;
    const max = options.max ?? Infinity;
    const out: ListedObject[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      // In key order, so that a walk stopped at `max` has the first keys: a folder's keys are its
      // name and '/' onwards, and no name holds a '/', so comparing `name/` with a file's name orders
      // all of the folder's keys against that file.
      const named = (e: (typeof entries)[number]) => (e.isDirectory() ? `${e.name}/` : e.name);
      if (max !== Infinity) entries.sort((a, b) => (named(a) < named(b) ? -1 : named(a) > named(b) ? 1 : 0));
      for (const entry of entries) {
        if (out.length >= max) return;
        const key = keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(key + '/')) await walk(path.join(dir, entry.name), key);
        } else if (entry.isFile() && key.startsWith(prefix) && !entry.name.endsWith('.tmp')) {
          const info = await stat(path.join(dir, entry.name));
          out.push({ key, etag: `${info.size}-${info.mtimeMs}`, lastModified: info.mtime, size: info.size });
        }
      }
    };
    await walk(start, dirKey);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private async serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }
}

/** The data folder's store: the one the embedded runner works on, and the CLI's readers read without loading the runner. */
export function embeddedStore(dataDir: string): FsStore {
  return new FsStore(embeddedStoreDir(dataDir));
}
