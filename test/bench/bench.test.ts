/**
 * The bench end to end, as a user runs it (the CLI in a child process, real Chromium, real peers),
 * on a tiny dataset made here: 7 pages of one generated site plus one page without a URL.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText } from '../../bench/html-text';
import { median, quantile } from '../../bench/stats';
import { articlesOf, generateSite, pageHtml } from '../../lib/demo/index';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

const ORIGIN = 'http://news-bench.test';
let dir: string;

async function bench(args: string[]): Promise<{ stdout: string; json: any }> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.json`);
  const { stdout } = await run(process.execPath, [tsx, 'bench/main.ts', path.join(dir, 'dataset'), '--json', out, '--cache-dir', path.join(dir, 'cache'), '--quiet', ...args], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, json: JSON.parse(await readFile(out, 'utf8')) };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'spider-bench-'));
  const ds = path.join(dir, 'dataset');
  await mkdir(path.join(ds, 'pages'), { recursive: true });
  await mkdir(path.join(ds, 'gold'), { recursive: true });
  const site = generateSite({ seed: 'bench-test', pagesPerTemplate: 8, templates: 1 });
  const articles = articlesOf(site);
  const lines: string[] = [];
  const add = async (id: string, html: string, gold: string, url: string | null) => {
    await writeFile(path.join(ds, 'pages', `${id}.html`), html);
    await writeFile(path.join(ds, 'gold', `${id}.txt`), gold);
    lines.push(JSON.stringify({ id, site: url ? 'news-bench.test' : null, url, html: `pages/${id}.html`, gold: `gold/${id}.txt` }));
  };
  for (let i = 0; i < 7; i++) {
    const a = articles[i];
    await add(`p${i + 1}`, pageHtml(site, a.path, ORIGIN), a.bodyText, ORIGIN + a.path);
  }
  await add('x-orphan', pageHtml(site, articles[7].path, ORIGIN), articles[7].bodyText, null);
  await writeFile(path.join(ds, 'manifest.jsonl'), lines.join('\n') + '\n');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('bench (end to end)', () => {
  it('learns the site from 5 pages, scores the other 2 with the rules and the orphan with the fallback, next to the peers', async () => {
    const { stdout, json } = await bench(['--train', '5']);
    expect(json.dataset).toBe('dataset');
    expect(json.pages).toBe(8);
    expect(json.sites).toBe(1);
    expect(json.learnedSites).toBe(1);
    expect(json.trainPages).toBe(5);
    expect(json.scoredPages).toBe(3);

    expect(json.ours.learnedPages).toBe(2);
    expect(json.ours.fallbackPages).toBe(1);
    expect(json.ours.rulesMethodPages).toBe(2);
    expect(json.ours.renderFailures).toBe(0);
    expect(json.ours.learned.f1).toBeGreaterThan(0.9);
    expect(json.ours.fallback.f1).toBeGreaterThan(0.5);
    for (const k of ['f1', 'precision', 'recall', 'accuracy']) {
      expect(json.ours[k]).toBeGreaterThanOrEqual(0);
      expect(json.ours[k]).toBeLessThanOrEqual(1);
    }

    // Every peer either ran on the same 3 pages or is listed as skipped with a reason.
    const ran = Object.keys(json.peers);
    expect(ran.length + json.skippedPeers.length).toBe(4);
    expect(ran).toContain('readability');
    for (const name of ran) {
      const p = json.peers[name];
      expect(p.pages).toBe(3);
      expect(p.msMedian).toBeGreaterThan(0);
      for (const k of ['f1', 'precision', 'recall', 'accuracy']) expect(typeof p[k]).toBe('number');
    }
    expect(json.peers.readability.f1).toBeGreaterThan(0.5);

    const t = json.timing;
    expect(t.applyMsMedian).toBeGreaterThan(0);
    expect(t.applyMsP90).toBeGreaterThanOrEqual(t.applyMsMedian);
    expect(t.learnMsPerSite).toBeGreaterThan(0);
    expect(t.renderMsMedian).toBeGreaterThan(0);
    expect(t.renderedThisRun).toBe(8);

    const row = json.perSite.find((s: { site: string }) => s.site === 'news-bench.test');
    expect(row).toMatchObject({ group: 'learned', pages: 7, trainPages: 5, scoredPages: 2, learned: true, rulesPages: 2 });
    expect(row.ours.f1).toBeGreaterThan(0.9);
    expect(row.bestPeer.name).toBeTypeOf('string');
    expect(json.perSite.find((s: { site: string }) => s.site === '(no site)')).toMatchObject({ group: 'fallback', scoredPages: 1 });
    expect(json.perPage.map((p: { id: string }) => p.id)).toEqual(['p6', 'p7', 'x-orphan']);
    expect(json.perPage[2]).toMatchObject({ group: 'fallback', method: 'fallback', url: 'http://unknown.invalid/x-orphan' });

    expect(stdout).toMatch(/ours, learned sites/);
    expect(stdout).toMatch(/news-bench\.test/);
  });

  it('reuses the render cache, and --train 0 sends every page through the fallback', async () => {
    const { json } = await bench(['--train', '0', '--no-peers']);
    expect(json.timing.renderedThisRun).toBe(0);
    expect(json.timing.renderedFromCache).toBe(8);
    expect(json.learnedSites).toBe(0);
    expect(json.scoredPages).toBe(8);
    expect(json.ours.learnedPages).toBe(0);
    expect(json.ours.fallbackPages).toBe(8);
    expect(json.peers).toEqual({});
    expect(await readdir(path.join(dir, 'cache', 'dataset'))).toHaveLength(8);
  });
});

describe('bench helpers', () => {
  it('turns HTML into text with one line per block', () => {
    expect(htmlToText('<div><h2>Title</h2><p>One <b>two</b>\n three.</p>tail<br>next<script>x()</script><ul><li>a</li><li>b</li></ul></div>')).toBe(
      'Title\nOne two three.\ntail\nnext\na\nb',
    );
    expect(htmlToText('')).toBe('');
  });

  it('computes quantiles by linear interpolation', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});
