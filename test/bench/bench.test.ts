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
import { formatFields } from '../../bench/report';
import { DEFAULT_METHODS, runBench } from '../../bench/run';
import { joinTitle, scoredText, showsTitle } from '../../bench/scoring';
import { plainWords } from '../../lib/text/match';
import { median, quantile } from '../../bench/stats';
import { fieldsJson, type FieldsBenchResult } from '../../bench/fields';
import { articlesOf, generateSite, pageHtml } from '../../lib/demo/index';
import { Rng } from '../../lib/demo/prng';
import defaultModelJson from '../../models/fallback-default.json' with { type: 'json' };

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

const ORIGIN = 'http://news-bench.test';
const A_ORIGIN = 'http://a.news-bench.test';
const B_ORIGIN = 'http://b.news-bench.test';
let dir: string;

async function bench(args: string[], dataset = path.join(dir, 'dataset')): Promise<{ stdout: string; json: any }> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.json`);
  const { stdout } = await run(process.execPath, [tsx, 'bench/main.ts', dataset, '--json', out, '--cache-dir', path.join(dir, 'cache'), '--quiet', ...args], {
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
  // The gold starts with the headline, as in the real datasets.
  for (let i = 0; i < 7; i++) {
    const a = articles[i];
    await add(`p${i + 1}`, pageHtml(site, a.path, ORIGIN), `${a.title}\n${a.bodyText}`, ORIGIN + a.path);
  }
  await add('x-orphan', pageHtml(site, articles[7].path, ORIGIN), `${articles[7].title}\n${articles[7].bodyText}`, null);
  await writeFile(path.join(ds, 'manifest.jsonl'), lines.join('\n') + '\n');

  // The same site redesigned (another template): three pages whose ids are the first set's too.
  const redesign = path.join(dir, 'redesign');
  await mkdir(path.join(redesign, 'pages'), { recursive: true });
  await mkdir(path.join(redesign, 'gold'), { recursive: true });
  const later = generateSite({ seed: 'bench-test-later', pagesPerTemplate: 3, templates: 2 });
  const redesigned = articlesOf(later, 'blog');
  const rows: string[] = [];
  for (let i = 0; i < 3; i++) {
    const a = redesigned[i];
    await writeFile(path.join(redesign, 'pages', `p${i + 1}.html`), pageHtml(later, a.path, ORIGIN));
    await writeFile(path.join(redesign, 'gold', `p${i + 1}.txt`), `${a.title}\n${a.bodyText}`);
    rows.push(JSON.stringify({ id: `p${i + 1}`, site: 'news-bench.test', url: ORIGIN + a.path, html: `pages/p${i + 1}.html`, gold: `gold/p${i + 1}.txt` }));
  }
  await writeFile(path.join(redesign, 'manifest.jsonl'), rows.join('\n') + '\n');
  // One registrable domain, two hosts: four pages of the first template on one, three of the other on the other.
  const twoHosts = path.join(dir, 'two-hosts');
  await mkdir(path.join(twoHosts, 'pages'), { recursive: true });
  await mkdir(path.join(twoHosts, 'gold'), { recursive: true });
  const hostRows: string[] = [];
  const addHostPage = async (id: string, html: string, gold: string, url: string) => {
    await writeFile(path.join(twoHosts, 'pages', `${id}.html`), html);
    await writeFile(path.join(twoHosts, 'gold', `${id}.txt`), gold);
    hostRows.push(JSON.stringify({ id, site: 'news-bench.test', url, html: `pages/${id}.html`, gold: `gold/${id}.txt` }));
  };
  for (let i = 0; i < 4; i++) await addHostPage(`a${i + 1}`, pageHtml(site, articles[i].path, A_ORIGIN), `${articles[i].title}\n${articles[i].bodyText}`, A_ORIGIN + articles[i].path);
  for (let i = 0; i < 3; i++) await addHostPage(`b${i + 1}`, pageHtml(later, redesigned[i].path, B_ORIGIN), `${redesigned[i].title}\n${redesigned[i].bodyText}`, B_ORIGIN + redesigned[i].path);
  await writeFile(path.join(twoHosts, 'manifest.jsonl'), hostRows.join('\n') + '\n');
  // The first set again under another folder: its manifest names the first set's files.
  const copy = path.join(dir, 'dataset-copy');
  await mkdir(copy, { recursive: true });
  const absolute = lines.map((l) => { const j = JSON.parse(l); return JSON.stringify({ ...j, html: path.join(ds, j.html), gold: path.join(ds, j.gold) }); });
  await writeFile(path.join(copy, 'manifest.jsonl'), absolute.join('\n') + '\n');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('bench (end to end)', () => {
  it('learns the site from 5 pages, scores the other 2 with the rules and the orphan with the fallback, next to the peers', async () => {
    const dumpDir = path.join(dir, 'dump');
    const { stdout, json } = await bench(['--train', '5', '--dump', dumpDir]);
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

    // Scored on title + body by default, said in the JSON and the report's header.
    expect(json.options.scoring).toBe('title+body');
    expect(stdout).toMatch(/^scoring: title\+body/m);
    // The dump holds what was scored: each tool's title line, then its body.
    const ours = await readFile(path.join(dumpDir, 'p6.ours.txt'), 'utf8');
    const readability = await readFile(path.join(dumpDir, 'p6.readability.txt'), 'utf8');
    const headline = (await readFile(path.join(dir, 'dataset', 'gold', 'p6.txt'), 'utf8')).split('\n')[0];
    expect(showsTitle(headline, ours.split('\n')[0])).toBe(true);
    expect(showsTitle(headline, readability.split('\n')[0])).toBe(true);

    // Each fallback method alone on the fallback page (the orphan), beside the combination and the peers.
    expect(json.options.methods).toEqual([...DEFAULT_METHODS]);
    expect(Object.keys(json.fallbackMethods).sort()).toEqual([...DEFAULT_METHODS].sort());
    for (const m of DEFAULT_METHODS) {
      const f = json.fallbackMethods[m];
      expect(f.pages).toBe(1);
      expect(f.msMedian).toBeGreaterThan(0);
      for (const k of ['f1', 'precision', 'recall']) expect(typeof f[k]).toBe('number');
      expect(stdout).toContain(`method ${m}`);
      expect(json.perPage[2].methods[m]).toMatchObject({ f1: expect.any(Number), ms: expect.any(Number) });
    }
    expect(json.perPage[0].methods).toBeUndefined(); // learned-site pages: the rules, no methods
    expect(json.perSite.find((s: { site: string }) => s.site === '(no site)').methods).toBeTypeOf('object');
    expect(json.fields).toBeUndefined();
  });

  it('reuses the render cache, and --train 0 sends every page through the fallback', async () => {
    const { json, stdout } = await bench(['--train', '0', '--no-peers', '--body-only', '--methods', 'dragnet,qread']);
    expect(json.timing.renderedThisRun).toBe(0);
    expect(json.timing.renderedFromCache).toBe(8);
    expect(json.learnedSites).toBe(0);
    expect(json.scoredPages).toBe(8);
    expect(json.ours.learnedPages).toBe(0);
    expect(json.ours.fallbackPages).toBe(8);
    expect(json.peers).toEqual({});
    expect(await readdir(path.join(dir, 'cache', 'dataset'))).toHaveLength(8);

    expect(json.options.scoring).toBe('body');
    expect(stdout).toMatch(/^scoring: body/m);
    expect(Object.keys(json.fallbackMethods)).toEqual(['dragnet', 'qread']);
    expect(json.fallbackMethods.dragnet.pages).toBe(8);
    expect(json.perPage.every((p: { methods?: object }) => p.methods && Object.keys(p.methods).length === 2)).toBe(true);
  });

  it('--train-from last learns from each site\'s last pages and scores its first ones', async () => {
    const { json, stdout } = await bench(['--train', '5', '--train-from', 'last', '--no-peers', '--no-methods']);
    expect(json.options.trainFrom).toBe('last');
    expect(stdout).toMatch(/--train 5 --train-from last:/);
    expect(json.learnedSites).toBe(1);
    expect(json.perPage.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'x-orphan']);
    expect(json.perPage.slice(0, 2).every((p: { group: string; method: string }) => p.group === 'learned' && p.method === 'rules')).toBe(true);
    expect(json.ours.learned.f1).toBeGreaterThan(0.9);
  });

  it('--train-seed draws each site\'s training pages with the seed and the site\'s name; not with --train-from last', async () => {
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    const drawn = new Rng('7/news-bench.test').sample(ids, 5);
    const { json, stdout } = await bench(['--train', '5', '--train-seed', '7', '--no-peers', '--no-methods']);
    expect(json.options.trainSeed).toBe(7);
    expect(stdout).toMatch(/--train 5 --train-seed 7:/);
    const learned = json.perPage.filter((p: { group: string }) => p.group === 'learned').map((p: { id: string }) => p.id);
    expect(learned).toEqual(ids.filter((id) => !drawn.includes(id)));
    expect(json.perPage.filter((p: { group: string }) => p.group === 'learned').every((p: { method: string }) => p.method === 'rules')).toBe(true);
    await expect(bench(['--train', '5', '--train-seed', '7', '--train-from', 'last', '--no-peers', '--no-methods'])).rejects.toThrow(/--train-seed draws the training pages at random/);
    // runBench itself refuses it too (it is called without the command)
    await expect(runBench({ datasetDir: path.join(dir, 'dataset'), train: 5, trainSeed: 7, trainFrom: 'last', peers: [], cacheRoot: path.join(dir, 'cache') })).rejects.toThrow(
      /--train-seed draws the training pages at random/,
    );
  });

  it('a site is a host, as the pipeline keys it; --sites-by dataset takes the manifest\'s registrable domain', async () => {
    const twoHosts = path.join(dir, 'two-hosts');
    const { json } = await bench(['--train', '3', '--no-peers', '--no-methods'], twoHosts);
    expect(json.options.sitesBy).toBe('host');
    expect(json.sites).toBe(2);
    // a.… has 4 pages: 3 learn, 1 is scored with its rules; b.… has 3, too few: the fallback's
    expect(json.learnedSites).toBe(1);
    expect(json.perPage.map((p: { id: string; site: string; group: string }) => [p.id, p.site, p.group])).toEqual([
      ['a4', 'a.news-bench.test', 'learned'],
      ['b1', 'b.news-bench.test', 'fallback'],
      ['b2', 'b.news-bench.test', 'fallback'],
      ['b3', 'b.news-bench.test', 'fallback'],
    ]);
    expect(json.perPage[0].method).toBe('rules');

    // --sites names hosts: the fallback host's pages alone; its registrable domain names none
    const { json: onlyB } = await bench(['--train', '3', '--sites', 'b.news-bench.test', '--no-peers', '--no-methods'], twoHosts);
    expect(onlyB.perPage.map((p: { id: string }) => p.id)).toEqual(['b1', 'b2', 'b3']);
    await expect(bench(['--train', '3', '--sites', 'news-bench.test', '--no-peers', '--no-methods'], twoHosts)).rejects.toThrow(/--sites names hosts.*--sites-by dataset/);

    const { json: byDomain, stdout } = await bench(['--train', '3', '--sites-by', 'dataset', '--no-peers', '--no-methods'], twoHosts);
    expect(byDomain.options.sitesBy).toBe('dataset');
    expect(stdout).toMatch(/--train 3 --sites-by dataset:/);
    expect(byDomain.sites).toBe(1);
    // one site of 7 pages: the first 3 (a1–a3) learn, the 4 others are scored as its pages
    expect(byDomain.perPage.map((p: { id: string; site: string; group: string }) => [p.id, p.site, p.group])).toEqual(
      ['a4', 'b1', 'b2', 'b3'].map((id) => [id, 'news-bench.test', 'learned']),
    );
  });

  it('--learn-from: each site learns from its pages in another dataset and every page here is scored; rules of another template give way to the fallback', async () => {
    // Rules learned from the first set's 'classic' pages meet the redesigned set's 'blog' pages.
    const redesign = path.join(dir, 'redesign');
    const { json, stdout } = await bench(['--train', '5', '--learn-from', path.join(dir, 'dataset'), '--no-peers', '--no-methods'], redesign);
    expect(json.options.learnFrom).toBe('dataset');
    expect(stdout).toMatch(/--train 5 --learn-from dataset: 1 sites learned from 5 pages of dataset;/);
    expect(json.trainPages).toBe(5);
    expect(json.perPage.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'p3']);
    expect(json.perPage.every((p: { group: string; method: string }) => p.group === 'learned' && p.method === 'fallback')).toBe(true);
    expect(json.ours.learned.f1).toBeGreaterThan(0.8);
    // this set's pages of the site, its training pages' blocks, and every page rendered counted
    expect(json.perSite[0]).toMatchObject({ pages: 3, trainPages: 5, scoredPages: 3 });
    expect(json.perSite[0].trainBlocks).toBeGreaterThan(0);
    expect(json.timing.renderedThisRun + json.timing.renderedFromCache).toBe(8);

    // The other way round: the redesigned set's ids p1–p3 are the first set's too, and its pages must
    // be the ones learned from (learned from the first set's own p1–p3, the rules would take the rest).
    const back = await bench(['--train', '3', '--learn-from', redesign, '--no-peers', '--no-methods']);
    expect(back.json.options.learnFrom).toBe('redesign');
    expect(back.json.scoredPages).toBe(8);
    const learned = back.json.perPage.filter((p: { group: string }) => p.group === 'learned');
    expect(learned).toHaveLength(7);
    expect(learned.every((p: { method: string }) => p.method === 'fallback')).toBe(true);

    // Learned from pages of the template scored (the first set's, under another folder), the rules serve.
    const { json: same } = await bench(['--train', '3', '--train-from', 'last', '--learn-from', path.join(dir, 'dataset'), '--no-peers', '--no-methods'], path.join(dir, 'dataset-copy'));
    expect(same.learnedSites).toBe(1);
    const sameLearned = same.perPage.filter((p: { group: string }) => p.group === 'learned');
    expect(sameLearned).toHaveLength(7); // the site's pages (the eighth has no URL, no site)
    expect(sameLearned.every((p: { method: string }) => p.method === 'rules')).toBe(true);

    // With --train-seed, the training pages are drawn from the site's pages in the other set: learned
    // from two of the redesigned set's three, the rules give way to the fallback on every page here
    // (drawn from this set's own pages, they would serve them), and every page is still scored.
    const seeded = await bench(['--train', '2', '--train-seed', '7', '--learn-from', redesign, '--no-peers', '--no-methods']);
    expect(seeded.json.options).toMatchObject({ trainSeed: 7, learnFrom: 'redesign' });
    expect(seeded.stdout).toMatch(/--train 2 --train-seed 7 --learn-from redesign: 1 sites learned from 2 pages of redesign;/);
    expect(seeded.json.scoredPages).toBe(8);
    const seededLearned = seeded.json.perPage.filter((p: { group: string }) => p.group === 'learned');
    expect(seededLearned).toHaveLength(7);
    expect(seededLearned.every((p: { method: string }) => p.method === 'fallback')).toBe(true);
  });

  it('--fallback-model: the fallback uses the model file given, named in the report and the split label; a file that is no model is refused', async () => {
    // the shipped default with its classifier blinded (no block is article text by Dragnet alone):
    // the fallback pages' texts must change if the model is used
    const blind = structuredClone(defaultModelJson);
    blind.trainedOn = 'a blinded copy of the default';
    blind.dragnet.classifier.bias = -50;
    const file = path.join(dir, 'blind-model.json');
    await writeFile(file, JSON.stringify(blind));
    const args = ['--train', '3', '--no-peers', '--methods', 'dragnet'];
    const [plain, blinded] = [await bench(args), await bench([...args, '--fallback-model', file])];
    expect(plain.json.options.fallbackModel).toBeUndefined();
    expect(blinded.json.options.fallbackModel).toEqual({ file: 'blind-model.json', sha256: expect.stringMatching(/^[0-9a-f]{12}$/), trainedOn: 'a blinded copy of the default' });
    const sha = blinded.json.options.fallbackModel.sha256;
    expect(blinded.stdout).toContain(`--train 3 --fallback-model blind-model.json (${sha}):`);
    expect(blinded.stdout).toContain(`fallback model: blind-model.json (sha256 ${sha}…), trained on a blinded copy of the default`);
    const fallbackF1 = (json: any) => json.perPage.filter((p: { method: string }) => p.method === 'fallback').map((p: { ours: { f1: number } }) => p.ours.f1);
    expect(fallbackF1(blinded.json)).toHaveLength(fallbackF1(plain.json).length);
    expect(fallbackF1(blinded.json)).not.toEqual(fallbackF1(plain.json));
    // the methods run alone use it too: Dragnet's classifier, blinded, keeps nothing
    expect(plain.json.fallbackMethods.dragnet.f1).toBeGreaterThan(0.5);
    expect(blinded.json.fallbackMethods.dragnet.f1).toBeLessThan(plain.json.fallbackMethods.dragnet.f1);

    await writeFile(path.join(dir, 'not-a-model.json'), JSON.stringify({ version: 1, hello: 'world' }));
    await expect(bench([...args, '--fallback-model', path.join(dir, 'not-a-model.json')])).rejects.toThrow(/--fallback-model .*not-a-model\.json: not a fallback model \(not a valid document: \w+/);
    await expect(bench([...args, '--fallback-model', path.join(dir, 'missing.json')])).rejects.toThrow(/--fallback-model .*missing\.json: cannot read it \(ENOENT\)/);
  });

  it('--no-methods runs none; --fields adds ours and Readability.js per field, and the field table', async () => {
    const { json, stdout } = await bench(['--train', '5', '--no-peers', '--no-methods', '--fields']);
    expect(json.options).toMatchObject({ methods: [], fields: true });
    expect(json.fallbackMethods).toEqual({});
    const f = json.fields;
    for (const k of ['title', 'byline', 'published']) {
      for (const side of [f, f.ours, f.readability]) {
        expect(side[k]).toMatchObject({ accuracy: expect.any(Number), pages: expect.any(Number) });
      }
      expect(f[k]).toEqual(f.ours[k]);
    }
    expect(f.train).toBe(5);
    expect(f.title.pages).toBe(2); // the generated site carries og:title and JSON-LD: both scored pages count
    expect(Array.isArray(f.sites)).toBe(true);
    expect(Array.isArray(f.pages)).toBe(true);
    expect(stdout).toMatch(/^fields: learned from the first 5 pages/m);
    expect(stdout).toMatch(/^title\s+\d+/m);
  });
});

describe('bench helpers', () => {
  it('scores the title as the first line unless the body already starts with it', () => {
    expect(plainWords('  The  “Big” Story — Part 2! ')).toBe('the big story part 2');
    expect(joinTitle('The Big Story', 'First paragraph.\nSecond.')).toBe('The Big Story\nFirst paragraph.\nSecond.');
    // already the first line, up to case, white space and punctuation
    expect(joinTitle('The Big Story', '\n  the big story!\nFirst paragraph.')).toBe('\n  the big story!\nFirst paragraph.');
    // the title with its site name, or the headline with a comment count after it
    expect(joinTitle('The Big Story About Things | The Daily News', 'The Big Story About Things\nBody.')).toBe('The Big Story About Things\nBody.');
    expect(joinTitle('The Big Story About Things', 'The Big Story About Things 211\nBody.')).toBe('The Big Story About Things 211\nBody.');
    // one part of a title made of parts
    expect(showsTitle('FBI to post mug shots on billboards | STATE NEWS | Breaking Houston News, Weather and Sports', 'FBI to post mug shots on billboards')).toBe(true);
    expect(showsTitle('Local News - The Big Story Today', 'The Big Story Today')).toBe(true);
    expect(showsTitle('The Big Story Today | Home', 'Home')).toBe(false); // a one-word part is not enough
    // a short first line that merely starts the title is not the title
    expect(showsTitle('News of the world today, in depth', 'News')).toBe(false);
    expect(joinTitle('The Big Story', 'Big news elsewhere.')).toBe('The Big Story\nBig news elsewhere.');
    // no title: the body; no body: the title
    expect(joinTitle(undefined, 'Body.')).toBe('Body.');
    expect(joinTitle('  ', 'Body.')).toBe('Body.');
    expect(joinTitle('The   Big\nStory', '')).toBe('The Big Story');
    expect(scoredText('body', 'The Big Story', 'Body.')).toBe('Body.');
    expect(scoredText('title+body', 'The Big Story', 'Body.')).toBe('The Big Story\nBody.');
  });

  it('shapes the --fields JSON section: ours per field (also under ours), Readability.js beside, and prints them', () => {
    const s = (right: number, pages: number) => ({ accuracy: pages ? right / pages : 0, pages, right });
    const r: FieldsBenchResult = {
      dataset: 'd',
      train: 5,
      ours: { title: s(9, 10), byline: s(3, 4), published: s(0, 0) },
      readability: { title: s(6, 10), byline: s(1, 4), published: s(0, 0) },
      sites: [{ site: 'a.com', trainPages: 5, testPages: 10, fields: ['title', 'byline'], rules: { title: 'h1', byline: '.by' }, ours: { title: { right: 9, pages: 10 }, byline: { right: 3, pages: 4 } }, readability: { title: { right: 6, pages: 10 }, byline: { right: 1, pages: 4 } } }],
      pages: [],
      renders: { rendered: 2, cached: 28, failed: 0 },
      elapsedMs: 1,
    };
    const j = fieldsJson(r);
    expect(j.title).toEqual({ accuracy: 0.9, pages: 10, right: 9 });
    expect(j.ours.byline).toEqual({ accuracy: 0.75, pages: 4, right: 3 });
    expect(j.readability.title).toEqual({ accuracy: 0.6, pages: 10, right: 6 });
    expect(j.published.pages).toBe(0);
    const text = formatFields(j);
    expect(text).toMatch(/^title\s+10\s+90\.0%\s+60\.0%$/m);
    expect(text).toMatch(/^published\s+0\s+-\s+-$/m);
    expect(text).toMatch(/^a\.com\s+10\s+9\/10\s+6\/10\s+3\/4\s+1\/4\s+-\s+-$/m);
  });

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
