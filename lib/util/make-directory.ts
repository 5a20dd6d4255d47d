/**
 * Creating a folder and its missing parents, with an error that names the folder and why.
 *
 * Not Node's mkdir(dir, { recursive: true }): on a filesystem that answers ENOENT to a mkdir in a
 * folder that exists (a pseudo filesystem such as /proc), that one creates the parent, finds it
 * there, and tries the folder again, for ever, at full CPU, and no signal but SIGKILL stops it.
 * Here each level is made once: when a folder still cannot be made in a parent that exists, that is
 * the answer.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A folder that could not be created: `code` is the filesystem's (ENOENT, EROFS, EACCES, …). */
export class MakeDirectoryError extends Error {
  readonly code?: string;

  constructor(readonly dir: string, reason: string, options: { what?: string; cause?: unknown } = {}) {
    super(`cannot create the ${options.what ?? 'folder'} ${dir}: ${reason}`, { cause: options.cause });
    this.name = 'MakeDirectoryError';
    const code = (options.cause as NodeJS.ErrnoException | undefined)?.code;
    if (code) this.code = code;
  }
}

/**
 * Creates `dir` and its missing parents (nothing when it exists). Throws a MakeDirectoryError that
 * names `dir` (as `what`, default "folder") and why: a parent that takes no new folders (a pseudo or
 * read-only filesystem), no permission, a file in the way, a full disk.
 */
export async function makeDirectory(dir: string, what?: string): Promise<void> {
  const wanted = path.resolve(dir);
  const fail = (reason: string, cause: unknown) => new MakeDirectoryError(wanted, reason, { what, cause });

  const make = async (folder: string): Promise<void> => {
    const first = await tryMkdir(folder);
    if (first === undefined) return;
    if (first.code === 'EEXIST') return isFolder(folder, first);
    if (first.code !== 'ENOENT') throw fail(reasonOf(first, folder), first);
    const parent = path.dirname(folder);
    if (parent === folder) throw fail(reasonOf(first, folder), first);
    await make(parent);
    const second = await tryMkdir(folder);
    if (second === undefined) return;
    if (second.code === 'EEXIST') return isFolder(folder, second);
    // The parent is there, yet the folder "does not exist": a filesystem that creates nothing (/proc).
    if (second.code === 'ENOENT') throw fail(`${parent} takes no new folders (ENOENT: a pseudo or read-only filesystem?)`, second);
    throw fail(reasonOf(second, folder), second);
  };

  const isFolder = async (folder: string, cause: NodeJS.ErrnoException): Promise<void> => {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw fail(`${folder} is a file, not a folder (${cause.code})`, cause);
  };

  await make(wanted);
}

async function tryMkdir(folder: string): Promise<NodeJS.ErrnoException | undefined> {
  try {
    await mkdir(folder);
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

function reasonOf(error: NodeJS.ErrnoException, folder: string): string {
  const parent = path.dirname(folder);
  switch (error.code) {
    case 'EROFS':
      return `${parent} is on a read-only filesystem (EROFS)`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to create ${path.basename(folder)} in ${parent} (${error.code})`;
    case 'ENOTDIR':
      return `a part of the path is a file, not a folder (ENOTDIR)`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `no space left (${error.code})`;
    default:
      return error.message;
  }
}
