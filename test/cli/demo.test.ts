/** `spider demo` as a new user runs it (small): what its report says points at nothing the user lacks. */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
