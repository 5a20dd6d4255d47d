/** The `spider` command as a user runs it: real processes, a real data folder, a site on 127.0.0.1. */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../../lib/demo/index';

const run = promisify(execFile);
const site = generateSite({ seed: 'cli-test', pagesPerTemplate: 2, templates: 1 });
let served: ServedSite;
let dataDir: string;

async function spider(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'lib/cli/main.ts', '--data-dir', dataDir, ...args], {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '' },
      timeout: 120_000,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

beforeAll(async () => {
  served = await serveSite(site, { hostname: 'cli.localhost' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-'));
});
afterAll(() => served?.close());

describe('spider CLI', () => {
  it('runs URLs to articles, says why for each rejected or failed URL, and shows what it made', { timeout: 180_000 }, async () => {
    const [article] = articlesOf(site);
    const url = served.url(article.path);
    const result = await spider('run', url, served.url('/no-such-page.html'), 'ftp://example.com/x', 'not a url');
    expect(result.stderr).toContain('rejected "ftp://example.com/x": only http and https URLs are supported, not ftp:');
    expect(result.stderr).toContain('rejected "not a url": not a valid absolute URL');
    expect(result.stderr).toMatch(/✗ render .*no-such-page\.html: HTTP 404/);
    expect(result.stderr).toMatch(/done: 2 rendered|done: 1 rendered/);
    expect(result.code).toBe(1); // a dead letter is a failure the user should see

    const list = await spider('articles');
    expect(list.stdout).toContain(url);
    expect(list.stdout).toContain('fallback');

    const shown = await spider('article', url, '--format', 'markdown');
    expect(shown.stdout.startsWith(`# ${article.title}`)).toBe(true);

    const dead = await spider('dead-letters');
    expect(dead.stdout).toMatch(/^render\t.*no-such-page\.html.*\tHTTP 404/m);

    const rules = await spider('rules', 'cli.localhost');
    expect(rules.code).toBe(1);
    expect(rules.stderr).toContain('no rules for cli.localhost yet');
  });
});
