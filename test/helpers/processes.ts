/** The machine's processes as `ps` lists them, for tests that check what a command left running. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  /** Its process group (Chromium, launched by puppeteer, leads a group of its own). */
  readonly pgid: number;
  /** `ps`'s state letters: `Z` a zombie (exited, not yet reaped), which runs nothing. */
  readonly stat: string;
  readonly args: string;
}

export async function processes(): Promise<ProcessRow[]> {
  const { stdout } = await promisify(execFile)('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args=']);
  return stdout.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4], args: m[5] }] : [];
  });
}

/** Kills a process group outright (a test's leftovers after it failed); one already gone is no error. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * The process running a script under its wrappers (npm, sh, bin/spider.js): the deepest one down from
 * `root` through children whose arguments include `named`; `root` when no child of it does.
 */
export async function deepestNamed(root: number, named: string): Promise<number> {
  const all = await processes();
  let found = root;
  for (let next = root; next; ) {
    found = next;
    next = all.find((p) => p.ppid === found && p.args.includes(named))?.pid ?? 0;
  }
  return found;
}
