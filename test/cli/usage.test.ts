/**
 * What a new user meets first, without Chromium: the version, an unknown command, configuration
 * errors, a reader that closes the output early, a run with no URLs or only invalid ones, relearn's
 * argument, the dead-letter listing. Real processes on a real data folder.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runSpider } from '../helpers/spider-cli';

let dataDir: string;
const spider = (args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) => runSpider(dataDir, args, options.stdin, options.env);

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-usage-'));
});

/** Runs spider with the reading end of its stdout (or stderr) closed before it writes: `spider … | head -0`. */
function withClosedOutput(args: string[], closed: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'lib/cli/main.ts', '--data-dir', dataDir, ...args], {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child[closed].destroy();
    let other = '';
    child[closed === 'stdout' ? 'stderr' : 'stdout'].on('data', (d: Buffer) => (other += d.toString()));
    child.on('close', (code) => resolve({ code, other }));
  });
}

describe('spider, first contact', () => {
  it('prints its version; names an unknown command and lists the commands', { timeout: 60_000 }, async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const shown = await spider(['--version']);
    expect(shown).toMatchObject({ code: 0, stdout: `${version}\n` });

    const bogus = await spider(['bogus']);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain("error: unknown command 'bogus'");
    expect(bogus.stderr).not.toContain('too many arguments');
    expect(bogus.stderr).toMatch(/^Commands:$/m);
    expect(bogus.stderr).toMatch(/^ {2}relearn /m);
  });

  it('stops quietly, with no stack trace, when the reader closes its output', { timeout: 60_000 }, async () => {
    await spider(['submit', 'not a url']); // a dead letter to list
    for (const args of [['dead-letters'], ['status'], ['--help']]) {
      const result = await withClosedOutput(args, 'stdout');
      expect({ args, ...result }).toEqual({ args, code: 0, other: '' });
    }
    // A pipeline command whose stderr reader went away stops as on a signal: 128 + SIGPIPE.
    const run = await withClosedOutput(['run', 'not a url'], 'stderr');
    expect(run).toEqual({ code: 141, other: '' });
  });

  it('names the variable or option at fault and what it expects', { timeout: 60_000 }, async () => {
    const networks = await spider(['status'], { env: { SPIDER_ALLOW_NETWORKS: 'garbage' } });
    expect(networks.code).toBe(1);
    expect(networks.stderr).toContain('SPIDER_ALLOW_NETWORKS: expected IP addresses or networks in CIDR notation, comma-separated, e.g. 10.1.0.0/16');
    expect(networks.stderr).toContain('(given: "garbage")');

    const fetchPath = await spider(['status'], { env: { SPIDER_FETCH_PATH: 'maybe' } });
    expect(fetchPath.code).toBe(1);
    expect(fetchPath.stderr).toContain('SPIDER_FETCH_PATH: expected true, false, 1 or 0 (given: "maybe")');

    const pages = await spider(['demo', '--pages', 'abc']);
    expect(pages.code).toBe(1);
    expect(pages.stderr).toContain("option '--pages <n>' argument 'abc' is invalid. a whole number, 1 or more");
  });
});

describe('spider extract, standard input', () => {
  it('refuses - given twice: standard input can be read once', { timeout: 60_000 }, async () => {
    const result = await spider(['extract', '-', '-'], { stdin: '<p>Hello</p>' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('spider: - (standard input) is given more than once: standard input can be read only once');
  });
});
