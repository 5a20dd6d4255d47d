/** `spider demo` as a new user runs it (small): what its report says points at nothing the user lacks. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processes } from '../helpers/processes';
import { runSpider } from '../helpers/spider-cli';

describe('spider demo', () => {
  it('reports the extraction quality and says what the metric is, naming no folder outside the repository', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-demo-'));
    const result = await runSpider(dataDir, ['--quiet', 'demo', '--pages', '1', '--train', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("extraction quality on pages the rules were not learned from (the article's word 4-grams against the generator's text; title, byline and date: pages that give the generator's):");
    // a row a template: pages, by rules, precision, recall, F1, then title, byline and date right of the
    // pages (the format only: this demo is too small to learn; what the fields get right is asserted
    // on real renders in test/fields/pipeline-fields.test.ts)
    const rows = result.stdout.split('\n').filter((l) => /^ {2}(classic|magazine|blog|legacy) /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^ {2}\w+ +(\d+) +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +\d+\/\1 +\d+\/\1 +\d+\/\1$/);
    expect(result.stdout).not.toContain('../');
  });

  it('stops on SIGTERM while it renders, as run does: exit 143, Chromium closed', { timeout: 180_000 }, async () => {
    // puppeteer's own SIGTERM handler closed the browser, the renderer launched another and the demo
    // went on to its end, exit 0 (`timeout 60 npm start`, a closed terminal's SIGHUP likewise).
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'spider-demo-stop-'));
    const chromiumOfThisRun = async () =>
      (await processes()).map((p) => p.args).filter((args) => args.includes(tmp) && !args.includes('bin/spider.js') && !args.includes('main.ts'));
    try {
      const child = spawn(process.execPath, ['bin/spider.js', '--data-dir', path.join(tmp, 'data'), 'demo', '--pages', '2', '--train', '1'], {
        env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', TMPDIR: tmp },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Chromium runs (with its profile under this run's temporary folder): the demo is rendering.
      let ended = false;
      void exited.then(() => (ended = true));
      while (!ended && (await chromiumOfThisRun()).length === 0) await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGTERM'); // to the spider command alone, as timeout(1) sends it
      expect(await exited).toBe(143);
      expect(stderr).toContain('SIGTERM: stopping');
      expect(await chromiumOfThisRun()).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true }); // Chromium unpacks itself there (200 MB)
    }
  });
});
