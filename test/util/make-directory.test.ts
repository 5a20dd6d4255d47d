import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MakeDirectoryError, makeDirectory } from '../../lib/util/make-directory';

/** The promise, or a rejection after `ms`: Node's recursive mkdir never settles on /proc. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still going after ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('makeDirectory', () => {
  it('creates a folder and its missing parents; one that exists is fine, twice at once too', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'spider-mkdir-'));
    const deep = path.join(root, 'a', 'b', 'c');
    await Promise.all([makeDirectory(deep), makeDirectory(deep), makeDirectory(path.join(root, 'a', 'b'))]);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await makeDirectory(deep);
  });

  it('names the folder and why when a file is in the way', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'spider-mkdir-'));
    await writeFile(path.join(root, 'file'), 'x');
    await expect(makeDirectory(path.join(root, 'file'), 'data folder')).rejects.toThrow(`cannot create the data folder ${path.join(root, 'file')}: ${path.join(root, 'file')} is a file, not a folder (EEXIST)`);
    await expect(makeDirectory(path.join(root, 'file', 'under'))).rejects.toMatchObject({ name: 'MakeDirectoryError', code: 'ENOTDIR' });
  });

  it.skipIf(!existsSync('/proc/self'))('fails at once in a pseudo filesystem that creates nothing (/proc), where recursive mkdir spins for ever', async () => {
    for (const dir of ['/proc/spider-test-x', '/proc/spider-test-x/y/z']) {
      const error = await within(5000, makeDirectory(dir)).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(MakeDirectoryError);
      expect((error as Error).message).toBe(`cannot create the folder ${dir}: /proc takes no new folders (ENOENT: a pseudo or read-only filesystem?)`);
    }
  });
});
