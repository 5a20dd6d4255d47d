import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** A benchmark script run as a user runs it, through tsx. */
const script = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'bench/fetch-verdict.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('scriptArgs: the scripts and benchmarks read their options', () => {
  it('--help prints the usage and exits 0', () => {
    const r = script('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: npx tsx bench\/fetch-verdict\.ts <dataset dir>/);
  });

  it('an unknown option is said with the usage, exit 2, no stack trace', () => {
    const r = script('--no-such-option');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--no-such-option'/);
    expect(r.stderr).toMatch(/usage: npx tsx bench\/fetch-verdict\.ts/);
    expect(r.stderr).not.toMatch(/at .*parse_args/);
  });
});
