/**
 * Progress without a terminal, the run's tally (--json) and `spider status` on the embedded store:
 * the real command in a child process (stderr is a pipe, not a terminal), a generated site on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stderrLogger } from '../../lib/cli/format';
import { formatStatus } from '../../lib/cli/status';
import { createProgress, formatDuration, progressMode } from '../../lib/cli/progress';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../../lib/demo/index';
import type { SpiderStatus } from '../../lib/queue/status';
import { inRenderSample } from '../../lib/step/route';
import { pageIdOf } from '../../lib/store/keys';
import { serveRoutes } from '../helpers/http-server';
import { CLI_COMMAND, spiderArgs } from '../helpers/spider-cli';

const run = promisify(execFile);
const site = generateSite({ seed: 'cli-progress', pagesPerTemplate: 4, templates: 1 });
let served: ServedSite;
let dataDir: string;

async function spider(...args: [Record<string, string>, ...string[]] | string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const env = typeof args[0] === 'object' ? (args.shift() as Record<string, string>) : {};
  try {
    const { stdout, stderr } = await run(CLI_COMMAND, spiderArgs('--data-dir', dataDir, ...(args as string[])), {
      env: { ...process.env, SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', SPIDER_LEARN_MIN_PAGES: '3', ...env },
      timeout: 240_000,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

beforeAll(async () => {
  served = await serveSite(site, { hostname: 'progress.localhost' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-progress-'));
});
afterAll(() => served?.close());

describe('spider run without a terminal', () => {
  it('prints summary lines at the interval, dead letters one line each, no per-event lines, and the final tally; --json writes it', { timeout: 300_000 }, async () => {
    const urls = articlesOf(site).map((p) => served.url(p.path));
    const missing = served.url('/no-such-page.html');
    const tallyFile = path.join(dataDir, 'tally.json');

    // Before: everything submitted, nothing processed. `spider status` reads the journal.
    const submitted = await spider('submit', ...urls, missing);
    expect(submitted.stdout).toContain(`queued ${urls.length + 1} URLs`);
    const before = JSON.parse((await spider('status', '--json')).stdout) as SpiderStatus;
    expect(before.where).toBe('embedded');
    expect(before.queues.render).toMatchObject({ pending: urls.length + 1, inFlight: 0, deadLettered: 0 });
    expect(before.queues.render.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(before.store).toEqual({ learned: [], waitingToLearn: [], pages: 0, articles: 0 });

    const result = await spider('--progress-interval', '0.2', 'work', '--json', tallyFile);
    const lines = result.stderr.split('\n').filter(Boolean);
    const progress = lines.filter((l) => l.startsWith('progress: '));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (const line of progress) expect(line).toMatch(/^progress: \d+\/\d+ URLs · \d+ articles? · \d+ dead letters? · pending render \d+ learn \d+ apply \d+ · [\d.]+ pages\/s · ETA \S+ · \S+$/);
    expect(progress[0]).toMatch(new RegExp(`/${urls.length + 1} URLs`));
    expect(lines.filter((l) => l.startsWith('✗ '))).toEqual([expect.stringMatching(/^✗ render .*no-such-page\.html: HTTP 404/)]);
    expect(lines.filter((l) => /^(rendered|learned|extracted) /.test(l))).toEqual([]);
    const done = lines.filter((l) => l.startsWith('done: '));
    expect(done).toHaveLength(1);
    expect(done[0]).toMatch(new RegExp(`^done: ${urls.length} rendered, \\d+ learns?, ${urls.length} articles \\((\\d+ (rules|fallback)(, )?)+\\) from \\d+ extractions, .*1 dead letter \\(1 http-status\\) in \\S+, [\\d.]+ pages/s$`));
    expect(result.code).toBe(1); // a dead letter

    const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
    expect(tally).toMatchObject({
      version: 5,
      urls: { done: urls.length + 1, total: urls.length + 1 },
      outcomes: { rendered: urls.length, deadLetters: 1, deadLettersByQueue: { render: 1 } },
      deadLetterReasons: [{ kind: 'http-status', count: 1, examples: [expect.stringMatching(/HTTP 404/)] }],
    });
    // Pages extracted before the site was learned are extracted again with its rules: more extractions than articles.
    expect(tally.outcomes.articles).toBe(urls.length);
    expect(tally.outcomes.extracted).toBeGreaterThanOrEqual(urls.length);
    expect((tally.outcomes.articlesByMethod.rules ?? 0) + (tally.outcomes.articlesByMethod.fallback ?? 0)).toBe(urls.length);
    expect(tally.wallSeconds).toBeGreaterThan(0);
    expect(tally.pagesPerSecond).toBeCloseTo(urls.length / tally.wallSeconds, 2);

    // After: queues empty, the dead letter counted, the site learned, its articles stored.
    const after = JSON.parse((await spider('status', '--json')).stdout) as SpiderStatus;
    expect(after.queues.render).toEqual({ pending: 0, inFlight: 0, deadLettered: 1, oldestPendingAgeSeconds: 0 });
    expect(after.queues.apply).toMatchObject({ pending: 0, inFlight: 0 });
    expect(after.running).toBeUndefined();
    expect(after.store.learned).toEqual([expect.objectContaining({ site: 'progress.localhost', pages: urls.length, articles: urls.length })]);
    expect(after.store.learned[0].rulesVersion).toBeGreaterThanOrEqual(1);
    expect(after.store).toMatchObject({ waitingToLearn: [], pages: urls.length, articles: urls.length });

    const text = (await spider('status')).stdout;
    expect(text).toMatch(/^render\s+0\s+0\s+1\s+-$/m);
    expect(text).toContain(`pages extracted: ${urls.length} (articles, and pages with no words or not an article alike: \`spider articles\` marks those); pages stored: ${urls.length}`);
    expect(text).toMatch(/progress\.localhost {2}rules v\d+, learned \S+, \d+ pages/);
  });

  it('--verbose adds one line per event', { timeout: 180_000 }, async () => {
    const url = served.url(articlesOf(site)[0].path);
    const result = await spider('--verbose', 'run', url);
    // rendered, or fetched without a browser once the test above has learned the site (the fetch path)
    expect(result.stderr).toMatch(new RegExp(`^(rendered  ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ blocks|fetched   ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ ms)`, 'm'));
    expect(result.stderr).toMatch(/^extracted /m);
    expect(result.code).toBe(0);
  });
});

describe('a run whose input names a page more than once', () => {
  it('submits each page once, says which URLs were the same page as an earlier one, and counts them: the outcomes add up to the URLs given', { timeout: 240_000 }, async () => {
    const story = (title: string) => ({
      body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of ${title}: the council met on Tuesday evening and voted on the harbour budget after a long debate about the ferry.</p>`).join('')}</article></body></html>`,
    });
    const server = await serveRoutes({ '/a.html': story('Harbour vote'), '/b.html': story('Ferry timetable') });
    const saved = dataDir;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-progress-same-'));
    try {
      const origin = `http://same.localhost:${new URL(server.origin).port}`;
      const a = `${origin}/a.html`;
      const given = [a, `${origin}/b.html`, a, `${a}#comments`, `http://SAME.localhost:${new URL(server.origin).port}/a.html`];
      const list = path.join(dataDir, 'urls.txt');
      await writeFile(list, given.join('\n') + '\n');
      const tallyFile = path.join(dataDir, 'tally.json');
      const ran = await spider({ SPIDER_HOST_INTERVAL_MS: '0' }, 'run', '-f', list, '--json', tallyFile);
      expect(ran.code).toBe(0);
      expect(server.hits.get('/a.html')).toBe(1);
      expect(ran.stderr.split('\n').filter((l) => l.startsWith('skipped '))).toEqual(given.slice(2).map((url) => `skipped ${url}: the same page as ${a}, given before`));
      expect(ran.stderr).toMatch(/^done: 2 rendered, .*2 articles .*, 3 URLs the same page as an earlier one \(not fetched again\), /m);
      const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
      expect(tally).toMatchObject({ version: 5, urls: { done: 5, total: 5 }, outcomes: { articles: 2, duplicates: 3, deadLetters: 0 } });
      expect(tally.outcomes.duplicateUrls).toEqual(given.slice(2).map((url) => ({ url, sameAs: a })));
      const o = tally.outcomes;
      expect(o.articles + o.notArticles + o.noWords + o.deadLetters + o.duplicates).toBe(given.length);

      // A page stored by an earlier run is fetched again when given again: only one input's repeats are dropped.
      const submitted = await spider('submit', a, `${a}#top`);
      expect(submitted.stdout).toBe('queued 1 URL (run `spider work` to process them); 1 URL the same page as an earlier one, not queued again\n');
      expect((await spider({ SPIDER_HOST_INTERVAL_MS: '0' }, 'work')).code).toBe(0);
      expect(server.hits.get('/a.html')).toBe(2);
    } finally {
      dataDir = saved;
      await server.close();
    }
  });
});

describe('a run on the fetch path', () => {
  it('counts the URLs given once, a fetched page sent back to render included; says fetched for the pages fetched; counts apart the older pages a relearn extracts again', { timeout: 300_000 }, async () => {
    const learned = generateSite({ seed: 'cli-progress-fetch', pagesPerTemplate: 12, templates: 1 });
    const server = await serveSite(learned, { hostname: 'fetched.localhost' });
    const saved = dataDir;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-progress-fetch-'));
    try {
      const env = { SPIDER_HOST_INTERVAL_MS: '0', SPIDER_LEARN_MIN_PAGES: '5' };
      const pages = articlesOf(learned);
      const first = await spider(env, 'run', ...pages.slice(0, 5).map((p) => server.url(p.path)));
      expect(first.code).toBe(0);
      const rules = JSON.parse((await spider(env, 'rules', 'fetched.localhost')).stdout);
      expect(rules.fetchPath.works).toBe(true);

      // Pages outside the render sample (fetched), one of them in a layout the rules do not know: its
      // rules fail on it, so apply sends it to render (docs/fetch-path.md). Four URLs, four done.
      const outside = (url: string) => !inRenderSample(pageIdOf(url), 0.05);
      const unseen = pages.slice(5).map((p) => server.url(p.path)).filter(outside).slice(0, 3);
      const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of a story in the site's new layout, long enough to read as an article body: the council met on Tuesday and voted on the budget.</p>`).join('');
      const redesigned = Array.from({ length: 50 }, (_, i) => `/redesigned-${i}.html`).find((x) => outside(server.url(x)))!;
      (learned.files as Map<string, { status: number; contentType: string; body: string }>).set(redesigned, {
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!DOCTYPE html><html><head><title>Redesigned story</title></head><body><section class="story-v2"><h2>Redesigned story</h2>${paragraphs}</section></body></html>`,
      });
      const urls = [server.url(redesigned), ...unseen];
      const tallyFile = path.join(dataDir, 'tally.json');
      const second = await spider(env, '--verbose', 'run', '--json', tallyFile, ...urls);
      expect(second.code).toBe(0);
      for (const url of urls) expect(second.stderr).toContain(`fetched   ${url} (`);
      expect(second.stderr).toContain(`rendered  ${server.url(redesigned)} (`);
      expect(second.stderr).toMatch(/^done: 1 rendered, 4 fetched, 0 learns, 4 articles /m);
      const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
      expect(tally).toMatchObject({ version: 5, urls: { done: 4, total: 4 }, outcomes: { rendered: 1, fetched: 4, articles: 4, olderExtracted: 0 } });

      // A relearn extracts again the pages of earlier runs: none is an article of this one.
      const relearned = await spider(env, 'relearn', 'fetched.localhost');
      expect(relearned.code).toBe(0);
      const again = Number(/(\d+) pages? extracted again/.exec(relearned.stdout)?.[1]);
      expect(again).toBeGreaterThan(0);
      expect(relearned.stderr).toMatch(new RegExp(`^done: 0 rendered, 1 learn, 0 articles from ${again} extractions?, ${again} older articles? extracted again, `, 'm'));
    } finally {
      dataDir = saved;
      await server.close();
    }
  });
});

describe('progress arithmetic', () => {
  it('counts URLs done of total, rate and ETA from the queues and the clock', () => {
    let t = 0;
    const counts = { render: { pending: 6, inFlight: 2, deadLettered: 0, oldestPendingAgeSeconds: 3 }, learn: { pending: 1, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 0 }, apply: { pending: 0, inFlight: 1, deadLettered: 0, oldestPendingAgeSeconds: 0 } };
    const p = createProgress({ mode: 'quiet', counts: () => counts, now: () => t });
    t = 10_000;
    for (let i = 0; i < 4; i++) p.onEvent({ queue: 'render', outcome: 'done', message: { url: `https://a.example/${i}` }, result: { blocks: 1, elapsedMs: 1 } });
    p.onEvent({ queue: 'render', outcome: 'dead', message: { url: 'https://a.example/x' }, error: 'HTTP 404 for https://a.example/x' });
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p1', method: 'fallback', wordCount: 3 } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p1', method: 'rules', wordCount: 3 } });
    // 5 URLs done (4 rendered, 1 dead), 8 still at render; 0.4 pages/s; 8 / 0.4 = 20 s.
    expect(p.summary()).toBe('5/13 URLs · 1 article · 1 dead letter · pending render 8 learn 1 apply 1 · 0.4 pages/s · ETA 20s · 10s');
    expect(p.stop().line).toBe('done: 4 rendered, 0 learns, 1 article (1 rules) from 2 extractions, 0 retries, 1 dead letter (1 http-status) in 10s, 0.4 pages/s');
    expect(formatDuration(3725)).toBe('1h02m');
    expect(formatDuration(95)).toBe('1m35s');
  });

  it('counts the URLs given: a fetched page rendered again is one URL, said fetched; older pages a relearn extracted again are counted apart', () => {
    const lines: string[] = [];
    const out = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    let t = 0;
    const p = createProgress({ mode: 'lines', verbose: true, out, urlsWaiting: () => 0, now: () => t });
    const url = 'https://a.example/1';
    // fetched; its rules failed on the HTML as served, so apply sent it to render (docs/fetch-path.md)
    p.onEvent({ queue: 'render', outcome: 'done', message: { url }, result: { site: 'a.example', pageId: 'p1', blocks: 0, elapsedMs: 12, path: 'fetch' } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: { site: 'a.example', pageId: 'p1', reason: 'rendered', path: 'fetch' }, result: { site: 'a.example', pageId: 'p1', url, method: 'fallback', wordCount: 300 } });
    p.onEvent({ queue: 'render', outcome: 'done', message: { url, path: 'render' }, result: { site: 'a.example', pageId: 'p1', blocks: 40, elapsedMs: 800, path: 'render' } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: { site: 'a.example', pageId: 'p1', reason: 'rendered' }, result: { site: 'a.example', pageId: 'p1', url, method: 'fallback', wordCount: 300 } });
    // a relearn extracts again two pages of an earlier run, and this run's page
    for (const pageId of ['old1', 'old2', 'p1']) {
      p.onEvent({ queue: 'apply', outcome: 'done', message: { site: 'a.example', pageId, reason: 'relearned' }, result: { site: 'a.example', pageId, url: `https://a.example/${pageId}`, method: 'rules', wordCount: 200 } });
    }
    expect(lines.join('')).toContain(`fetched   ${url} (12 ms)\n`);
    expect(lines.join('')).toContain(`rendered  ${url} (40 blocks, 800 ms)\n`);
    t = 1000;
    expect(p.summary()).toMatch(/^1\/1 URLs · 1 article · 0 dead letters · /);
    const { tally, line } = p.stop();
    expect(tally.urls).toEqual({ done: 1, total: 1 });
    expect(tally.outcomes).toMatchObject({ rendered: 1, fetched: 1, extracted: 5, articles: 1, articlesByMethod: { rules: 1 }, olderExtracted: 2 });
    expect(line).toBe('done: 1 rendered, 1 fetched, 0 learns, 1 article (1 rules) from 5 extractions, 2 older articles extracted again, 0 retries, 0 dead letters in 1s, 2.0 pages/s');
  });

  it('resuming a run, counts no article of a fetched page sent back to render whose fetch was a process before', () => {
    let t = 0;
    const p = createProgress({ mode: 'quiet', urlsWaiting: () => 0, now: () => t });
    const url = 'https://a.example/1';
    // `spider work` after a stop: the page was fetched and sent back to render by the stopped process
    p.onEvent({ queue: 'render', outcome: 'done', message: { url, path: 'render' }, result: { site: 'a.example', pageId: 'p1', blocks: 40, elapsedMs: 800, path: 'render' } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: { site: 'a.example', pageId: 'p1', reason: 'rendered' }, result: { site: 'a.example', pageId: 'p1', url, method: 'rules', wordCount: 300 } });
    t = 1000;
    expect(p.summary()).toMatch(/^0\/0 URLs · 0 articles · /);
    const { tally } = p.stop();
    expect(tally.urls).toEqual({ done: 0, total: 0 });
    expect(tally.outcomes).toMatchObject({ rendered: 1, extracted: 1, articles: 0 });
  });

  it('prints the steps\' warnings above the live status line, not through it, and on stderr again once stopped', () => {
    const written: string[] = [];
    const out = Object.assign(new Writable({ write: (chunk, _enc, done) => (written.push(String(chunk)), done()) }), { isTTY: true, columns: 120, rows: 40 });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const p = createProgress({ mode: 'live', out, now: () => 0 });
      stderrLogger.warn('rules output failed the page guard', { site: 'a.example' });
      expect(written.join('')).toContain('warning: rules output failed the page guard site=a.example');
      expect(stderr).not.toHaveBeenCalled();
      p.stop();
      stderrLogger.warn('after the run');
      expect(stderr).toHaveBeenCalledWith('warning: after the run\n');
    } finally {
      stderr.mockRestore();
    }
  });

  it('on a terminal of no size (0 rows and columns: `script` in CI) prints lines: a live line there drew nothing, the dead letters above it included', () => {
    const written: string[] = [];
    const out = Object.assign(new Writable({ write: (chunk, _enc, done) => (written.push(String(chunk)), done()) }), { isTTY: true, columns: 0, rows: 0 });
    const mode = progressMode({ stream: out });
    const p = createProgress({ mode, out, now: () => 0 });
    p.onEvent({ queue: 'render', outcome: 'dead', message: { url: 'http://a.example/gone' }, error: 'HTTP 404 for http://a.example/gone' });
    p.stop();
    expect(mode).toBe('lines');
    expect(written.join('')).toContain('render http://a.example/gone: HTTP 404 for http://a.example/gone');
    expect(progressMode({ stream: { isTTY: true, columns: 120, rows: 40 } })).toBe('live');
  });

  it('counts pages flagged not an article and pages with no words apart from articles, and rejected URLs as dead letters', () => {
    const p = createProgress({ mode: 'quiet', now: () => 0 });
    p.rejected('not a url', 'invalid message: url: not a valid absolute URL');
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p1', url: 'https://a.example/1', method: 'fallback', wordCount: 300 } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p2', url: 'https://a.example/', method: 'fallback', wordCount: 80, notArticle: true } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p3', url: 'https://a.example/empty', method: 'fallback', wordCount: 0, notArticle: true } });
    // a page extracted again with words is an article after all
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p4', url: 'https://a.example/4', method: 'fallback', wordCount: 0 } });
    p.onEvent({ queue: 'apply', outcome: 'done', message: {}, result: { site: 'a.example', pageId: 'p4', url: 'https://a.example/4', method: 'rules', wordCount: 200 } });
    const { tally, line } = p.stop();
    expect(tally.outcomes).toMatchObject({
      articles: 2, articlesByMethod: { fallback: 1, rules: 1 }, notArticles: 1, noWords: 1, noWordsUrls: ['https://a.example/empty'],
      rejected: 1, deadLetters: 1, deadLettersByQueue: { render: 1 },
    });
    expect(tally.urls).toEqual({ done: 1, total: 1 });
    expect(line).toBe(
      '✗ apply https://a.example/empty: the page gave an article with no words\n' +
        'done: 0 rendered, 0 learns, 2 articles (1 fallback, 1 rules) from 5 extractions, 1 not an article (home page or listing), 1 with no words (no article), ' +
        '0 retries, 1 dead letter (1 invalid-message) of which 1 rejected at submission in 0s, 0.0 pages/s',
    );
  });

  it('status text: a queue whose age is unknown says so, and why', () => {
    const status: SpiderStatus = {
      where: 'aws',
      location: 's3://b',
      at: '2026-03-14T10:00:00.000Z',
      queues: {
        render: { pending: 3, inFlight: 1, deadLettered: 2, oldestPendingAgeSeconds: null, note: 'age of oldest message unknown: no CloudWatch datapoint' },
        learn: { pending: 0, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 0 },
        apply: { pending: 2, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 125 },
      },
      store: { learned: [], waitingToLearn: [{ site: 'a.example', pages: 4 }], pages: 4, articles: 4 },
    };
    const text = formatStatus(status);
    expect(text).toContain('deployed stack: s3://b');
    expect(text).toMatch(/^render\s+3\s+1\s+2\s+unknown$/m);
    expect(text).toMatch(/^apply\s+2\s+0\s+0\s+2m05s$/m);
    expect(text).toContain('render: age of oldest message unknown: no CloudWatch datapoint');
    expect(text).toContain('sites waiting to learn (pages, no rules yet): 1\n  a.example  4 pages');
  });

  it('status text: the sites\' columns line up whatever the length of their names', () => {
    const queue = { pending: 0, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 0 };
    const site = (name: string, at: string) => ({ site: name, rulesVersion: 3, learnedAt: at, pages: 9, articles: 9 });
    const status: SpiderStatus = {
      where: 'embedded',
      location: '/tmp/d',
      at: '2026-03-14T10:00:00.000Z',
      queues: { render: queue, learn: queue, apply: queue },
      store: {
        learned: [site('a.example', '2026-03-14T09:00:00.000Z'), site('a-much-longer-site-name.news.example', '2026-03-14T08:00:00.000Z')],
        waitingToLearn: [{ site: 'b.example', pages: 2 }],
        pages: 20,
        articles: 18,
      },
    };
    const lines = formatStatus(status).split('\n');
    const learned = lines.filter((l) => l.includes(' rules v'));
    expect(learned).toHaveLength(2);
    expect(new Set(learned.map((l) => l.indexOf(' rules v'))).size).toBe(1);
    expect(lines).toContain(`  ${'b.example'.padEnd('a-much-longer-site-name.news.example'.length)}  2 pages`);
  });

  it('status text: the count of article documents says what it counts (pages extracted, whether they gave an article or not)', () => {
    const queue = { pending: 0, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 0 };
    const status: SpiderStatus = {
      where: 'embedded',
      location: '/tmp/d',
      at: '2026-03-14T10:00:00.000Z',
      queues: { render: queue, learn: queue, apply: queue },
      store: { learned: [{ site: 'a.example', rulesVersion: 2, learnedAt: '2026-03-14T09:00:00.000Z', pages: 79, articles: 79 }], waitingToLearn: [], pages: 79, articles: 79 },
    };
    const text = formatStatus(status);
    expect(text).not.toMatch(/articles stored|79 articles/);
    expect(text).toContain('pages extracted: 79 (articles, and pages with no words or not an article alike: `spider articles` marks those); pages stored: 79');
    expect(text).toContain('  a.example  rules v2, learned 2026-03-14T09:00:00.000Z, 79 pages, 79 extracted');
  });
});
