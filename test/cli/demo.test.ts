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
    expect(result.stdout).toContain("extraction quality on pages the rules were not learned from (the article's word 4-grams against the generator's text):");
    expect(result.stdout).not.toContain('../');
  });
});
