/** An in-memory store with the same semantics as the others; for unit tests and benchmarks. */
import { etagOf } from './fs-store';
import { PreconditionFailedError, type ListedObject, type ListOptions, type PutOptions, type Store, type StoredObject } from './store';

export class MemoryStore implements Store {
  private readonly objects = new Map<string, StoredObject>();

  async get(key: string): Promise<StoredObject | undefined> {
    return this.objects.get(key);
  }

  async put(key: string, body: Buffer | string, options: PutOptions = {}): Promise<string> {
    const current = this.objects.get(key);
    if (options.ifNoneMatch === '*' && current) throw new PreconditionFailedError(key);
    if (options.ifMatch !== undefined && current?.etag !== options.ifMatch) throw new PreconditionFailedError(key);
    const data = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    const etag = etagOf(data);
    this.objects.set(key, { body: data, etag, lastModified: new Date() });
    return etag;
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    return [...this.objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, options.max)
      .map(([key, o]) => ({ key, etag: o.etag, lastModified: o.lastModified, size: o.body.length }));
  }
}
