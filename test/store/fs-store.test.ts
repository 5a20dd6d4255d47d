import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FsStore } from '../../lib/store/fs-store';
import { MemoryStore } from '../../lib/store/memory-store';
import { PreconditionFailedError, type Store } from '../../lib/store/store';

const stores: [string, () => Promise<Store>][] = [
  ['FsStore', async () => new FsStore(await mkdtemp(path.join(os.tmpdir(), 'spider-store-')))],
  ['MemoryStore', async () => new MemoryStore()],
];

describe.each(stores)('%s', (_name, make) => {
  it('puts, gets, lists by prefix in key order, deletes', async () => {
    const store = await make();
    await store.put('pages/a.com/2/features.json', '{"b":1}');
    await store.put('pages/a.com/1/features.json', '{"a":1}');
    await store.put('pages/b.com/1/features.json', '{}');
    expect((await store.get('pages/a.com/1/features.json'))?.body.toString()).toBe('{"a":1}');
    expect(await store.get('nope/x')).toBeUndefined();
    expect((await store.list('pages/a.com/')).map((o) => o.key)).toEqual(['pages/a.com/1/features.json', 'pages/a.com/2/features.json']);
    expect((await store.list('pages/')).length).toBe(3);
    await store.delete('pages/a.com/1/features.json');
    expect((await store.list('pages/a.com/')).map((o) => o.key)).toEqual(['pages/a.com/2/features.json']);
  });

  it('lists at most `max` objects, the first in key order (a folder\'s keys after a file whose name sorts before its "/")', async () => {
    const store = await make();
    for (const key of ['redirects/s.com/2.json', 'redirects/s.com/1.json', 'redirects/s.com/3.json', 'redirects/t.com/1.json', 'p/a/x.json', 'p/a.json', 'p/b.json']) await store.put(key, '{}');
    expect((await store.list('redirects/s.com/', { max: 1 })).map((o) => o.key)).toEqual(['redirects/s.com/1.json']);
    expect((await store.list('redirects/s.com/', { max: 2 })).map((o) => o.key)).toEqual(['redirects/s.com/1.json', 'redirects/s.com/2.json']);
    expect((await store.list('redirects/s.com/', { max: 10 })).map((o) => o.key)).toEqual(['redirects/s.com/1.json', 'redirects/s.com/2.json', 'redirects/s.com/3.json']);
    expect(await store.list('redirects/u.com/', { max: 1 })).toEqual([]);
    // '.' sorts before '/': p/a.json, then the folder p/a/'s keys
    expect((await store.list('p/', { max: 1 })).map((o) => o.key)).toEqual(['p/a.json']);
    expect((await store.list('p/', { max: 2 })).map((o) => o.key)).toEqual(['p/a.json', 'p/a/x.json']);
    expect((await store.list('p/')).map((o) => o.key)).toEqual(['p/a.json', 'p/a/x.json', 'p/b.json']);
  });

  it('conditional writes: ifNoneMatch and ifMatch lose to a concurrent writer', async () => {
    const store = await make();
    const etag = await store.put('rules/a.com.json', 'v1', { ifNoneMatch: '*' });
    await expect(store.put('rules/a.com.json', 'v1b', { ifNoneMatch: '*' })).rejects.toBeInstanceOf(PreconditionFailedError);
    await store.put('rules/a.com.json', 'v2', { ifMatch: etag });
    await expect(store.put('rules/a.com.json', 'v3', { ifMatch: etag })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect((await store.get('rules/a.com.json'))?.body.toString()).toBe('v2');
  });

  it('of racing compare-and-swap writers exactly one wins', async () => {
    const store = await make();
    const etag = await store.put('rules/r.json', 'v0');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.put('rules/r.json', `w${i}`, { ifMatch: etag })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('FsStore', () => {
  it('leaves no temporary files and refuses keys that escape the folder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'spider-store-'));
    const store = new FsStore(root);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put('a/b.json', `${i}`)));
    expect(await readdir(path.join(root, 'a'))).toEqual(['b.json']);
    await expect(store.put('../evil', 'x')).rejects.toThrow(/invalid store key/);
  });
});
