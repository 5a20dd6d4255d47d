/** The `spider` command as a user runs it: real processes, a real data folder, a site on 127.0.0.1. */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesOf, generateSite, pageHtml, serveSite, type ServedSite } from '../../lib/demo/index';
import { loadConfig } from '../../lib/config/config';
import { parseModel } from '../../lib/fallback/model';
import { DataFolderBusyError, EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { FsStore } from '../../lib/store/fs-store';
import { keys } from '../../lib/store/keys';
import { putJson } from '../../lib/store/store';
import { ARTICLE_DOCUMENT_VERSION, type ArticleDocument } from '../../lib/types/article-document';
import { serveRoutes } from '../helpers/http-server';
import { serveHangingPage } from '../helpers/hanging-page';
import { deepestNamed, processes } from '../helpers/processes';
import { CLI_COMMAND, spiderArgs } from '../helpers/spider-cli';

const run = promisify(execFile);
const site = generateSite({ seed: 'cli-test', pagesPerTemplate: 2, templates: 1 });
let served: ServedSite;
let dataDir: string;

async function spider(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(CLI_COMMAND, spiderArgs('--data-dir', dataDir, ...args), {
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
    expect(result.stderr).toContain('rejected "ftp://example.com/x": invalid message: url: only http and https URLs are supported, not ftp:');
    expect(result.stderr).toContain('rejected "not a url": invalid message: url: not a valid absolute URL');
    expect(result.stderr).toMatch(/✗ render .*no-such-page\.html: HTTP 404/);
    expect(result.stderr).toMatch(/done: 2 rendered|done: 1 rendered/);
    expect(result.code).toBe(1); // a dead letter is a failure the user should see

    const list = await spider('articles');
    expect(list.stdout).toContain(url);
    expect(list.stdout).toContain('fallback');
    // live pages were requested, each host's turn kept in the process's memory: the embedded store has
    // no politeness/ (docs/storage-layout.md), and no lock is left once the run is over
    expect(await readdir(path.join(dataDir, 'store'))).toEqual(expect.arrayContaining(['articles', 'pages']));
    expect(await readdir(path.join(dataDir, 'store'))).not.toContain('politeness');
    await expect(stat(path.join(dataDir, 'lock'))).rejects.toThrow(/ENOENT/);

    // An article whose title holds terminal escapes prints without them; a truncated article file
    // is named and skipped, the others still listed (issue 18, items 4 and 6).
    const storeDir = path.join(dataDir, 'store');
    const good = await readFile(path.join(storeDir, (await new FsStore(storeDir).list(keys.articlePrefix('cli.localhost')))[0].key), 'utf8');
    const escapes = { ...JSON.parse(good), pageId: '0000escapes', title: 'Owned\x1b]0;new window title\x07\x1b[2J\u009b31m title' };
    await writeFile(path.join(storeDir, keys.article('cli.localhost', '0000escapes')), JSON.stringify(escapes));
    await writeFile(path.join(storeDir, keys.article('cli.localhost', 'ffffftruncated')), good.slice(0, 40));
    const listed = await spider('articles');
    expect(listed.stdout).toContain(url);
    expect(listed.stdout).toContain('Owned]0;new window title[2J31m title');
    expect(listed.stdout).not.toMatch(/[\x1b\x07\u009b]/);
    expect(listed.stderr).toContain('skipped articles/cli.localhost/ffffftruncated.json is unreadable (not JSON:');
    expect(listed.code).toBe(1);
    // The bad file's bytes are kept aside, and the next listing no longer meets it.
    expect(await readFile(path.join(storeDir, 'quarantine', keys.article('cli.localhost', 'ffffftruncated')), 'utf8')).toBe(good.slice(0, 40));
    expect((await spider('articles')).code).toBe(0);

    const shown = await spider('article', url, '--format', 'markdown');
    expect(shown.stdout.startsWith(`# ${article.title}`)).toBe(true);

    const dead = await spider('dead-letters');
    expect(dead.stdout).toMatch(/^render {2}http:\/\/\S+\/no-such-page\.html {2}HTTP 404/m);
    // A URL rejected at the door is a dead letter too, with the reason (issue 18, item 10).
    expect(dead.stdout).toMatch(/^render {2}ftp:\/\/example\.com\/x {2}invalid message: url: only http and https URLs are supported/m);
    // `article` of a URL that ended as a dead letter says why.
    const missing = await spider('article', served.url('/no-such-page.html'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^no article for \S+\/no-such-page\.html: it ended as a dead letter of the render queue: HTTP 404/m);

    const rules = await spider('rules', 'cli.localhost');
    expect(rules.code).toBe(1);
    expect(rules.stderr).toContain('no rules for cli.localhost yet');

    // A schema-invalid rules file is named in one line with the field at fault, not zod's JSON;
    // an unreadable dead-letter file is listed as one, and the others still are.
    await new FsStore(storeDir).put(keys.rules('cli.localhost'), JSON.stringify({ v: 1, site: 'cli.localhost', rulesVersion: 'three' }));
    const badRules = await spider('rules', 'cli.localhost');
    expect(badRules.code).toBe(1);
    expect(badRules.stderr).toMatch(/^skipped rules\/cli\.localhost\.json is unreadable \(not a valid document: .*rulesVersion.*\); its bytes are kept at quarantine\/rules\/cli\.localhost\.json$/m);
    expect(badRules.stderr).not.toContain('"code"');
    const deadDir = path.join(dataDir, 'queues', 'render', 'dead-letters');
    await writeFile(path.join(deadDir, 'cut-short.json'), '{"id": "cut');
    const deadAgain = await spider('dead-letters');
    expect(deadAgain.code).toBe(0);
    expect(deadAgain.stdout).toMatch(/^render {2}\S+\/no-such-page\.html {2}HTTP 404/m);
    expect(deadAgain.stdout).toContain('unreadable dead-letter file dead-letters/cut-short.json');
  });

  it('exits 1 when every URL ended as a dead letter, 0 with --allow-dead-letters', { timeout: 180_000 }, async () => {
    const missing = served.url('/gone.html');
    const failed = await spider('run', missing);
    expect(failed.code).toBe(1);
    const allowed = await spider('run', '--allow-dead-letters', served.url('/gone-too.html'));
    expect(allowed.stderr).toMatch(/✗ render .*gone-too\.html: HTTP 404/);
    expect(allowed.code).toBe(0);
    const rejectedOnly = await spider('run', 'not a url');
    expect(rejectedOnly.code).toBe(1);
    const help = await spider('run', '--help');
    expect(help.stdout).toContain('--allow-dead-letters');
    expect(help.stdout).toContain('Exit codes:');
  });
});

describe('a page with no words', () => {
  it('is no article in run as in extract: counted apart, said, exit 1 (0 with --allow-dead-letters)', { timeout: 180_000 }, async () => {
    const server = await serveRoutes({ '/empty.html': { body: '<!doctype html><html><head><title></title></head><body></body></html>' } });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-empty-'));
    try {
      const url = `${server.origin}/empty.html`;
      const tallyFile = path.join(dataDir, 'tally.json');
      const ran = await spider('run', url, '--json', tallyFile);
      expect(ran.stderr).toContain(`✗ apply ${url}: the page gave an article with no words`);
      expect(ran.stderr).toMatch(/^done: 1 rendered, 0 learns, 0 articles from 1 extraction, 1 with no words \(no article\), 0 retries, 0 dead letters /m);
      expect(ran.code).toBe(1);
      const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
      expect(tally.outcomes).toMatchObject({ articles: 0, noWords: 1, noWordsUrls: [url], deadLetters: 0 });

      const extracted = await spider('extract', url);
      expect(extracted.stderr).toContain(`no article from ${url}: the page gave an article with no words`);
      expect(extracted.code).toBe(1);

      expect((await spider('run', '--allow-dead-letters', url)).code).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the data folder lock', () => {
  it('stops a second process on a data folder another one holds, before it touches the queue; lets it in once released', { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-lock-'));
    expect((await spider('submit', served.url('/locked.html'))).code).toBe(0);
    const holder = await new EmbeddedPipeline(loadConfig({ dataDir })).open({ exclusive: true });
    try {
      // the lock is a folder, there only while a process holds the data folder (docs/storage-layout.md)
      expect((await stat(path.join(dataDir, 'lock'))).isDirectory()).toBe(true);
      await expect(new EmbeddedPipeline(loadConfig({ dataDir })).open({ exclusive: true })).rejects.toBeInstanceOf(DataFolderBusyError);
      const second = await spider('work');
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`the data folder ${dataDir} is in use by another spider process`);
      // It fetched nothing: the queued URL is still pending, for whoever holds the folder.
      expect(await readdir(path.join(dataDir, 'queues', 'render', 'pending'))).toHaveLength(1);
      // Reading commands do not need the lock.
      expect((await spider('status')).code).toBe(0);
    } finally {
      await holder.close();
    }
    await expect(stat(path.join(dataDir, 'lock'))).rejects.toThrow(/ENOENT/);
    const after = await spider('work');
    expect(after.stderr).toMatch(/✗ render \S+\/locked\.html: HTTP 404/);
    expect(after.code).toBe(1);
    expect(await readdir(path.join(dataDir, 'queues', 'render', 'pending'))).toHaveLength(0);
    await expect(stat(path.join(dataDir, 'lock'))).rejects.toThrow(/ENOENT/);
  });
});

describe('stopping a run', () => {
  it('stops on SIGTERM sent to the spider command alone, even while its event loop is busy, and on Ctrl-C: the page in flight goes back to the queue, Chromium closes, exit 143 / 130', { timeout: 120_000 }, async () => {
    // This server never answers the page, so Chromium is loading it when the signal comes.
    const hanging = await serveHangingPage();
    const pageUrl = hanging.url;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-stop-'));
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-stop-tmp-'));
    try {
      const child = spawn(process.execPath, ['bin/spider.js', '--data-dir', dataDir, 'run', pageUrl], {
        env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', TMPDIR: tmp },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      while (hanging.hits() === 0) await new Promise((r) => setTimeout(r, 100));
      // The process running the command (the deepest one whose arguments name lib/cli/main.ts) is
      // stopped while the signal is relayed to it, as an event loop held by a learn or an extraction
      // would hold its handler: tsx's CLI, between the wrapper and it, SIGKILLed it then.
      const command = await deepestNamed(child.pid!, path.join('lib', 'cli', 'main.ts'));
      process.kill(command, 'SIGSTOP');
      child.kill('SIGTERM'); // to the wrapper only, as timeout(1) and systemd send it
      await new Promise((r) => setTimeout(r, 500));
      try {
        process.kill(command, 'SIGCONT');
      } catch {
        // gone already: killed while stopped (tsx's CLI did)
      }
      expect(await exited).toBe(143);
      expect(stderr).toContain('SIGTERM: stopping');
      // Not a failure of the page: still pending, its receive not counted, no dead letter.
      const pendingDir = path.join(dataDir, 'queues', 'render', 'pending');
      const pending = await readdir(pendingDir);
      expect(pending).toHaveLength(1);
      expect(JSON.parse(await readFile(path.join(pendingDir, pending[0]), 'utf8'))).toMatchObject({ receiveCount: 0, errors: [] });
      expect(await readdir(path.join(dataDir, 'queues', 'render', 'dead-letters')).catch(() => [])).toEqual([]);
      // Ctrl-C: the terminal sends SIGINT to the whole foreground process group. The page goes back
      // again, its receive not counted (puppeteer's own SIGINT handler exited at once, 130, the
      // message left in flight with its receive spent).
      hanging.resetHits();
      const again = spawn(process.execPath, ['bin/spider.js', '--data-dir', dataDir, 'work'], {
        env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '', TMPDIR: tmp },
        detached: true,
      });
      let againErr = '';
      again.stderr.on('data', (d: Buffer) => (againErr += d.toString()));
      const againExited = new Promise<number | null>((resolve) => again.on('exit', (code) => resolve(code)));
      while (hanging.hits() === 0) await new Promise((r) => setTimeout(r, 100));
      process.kill(-again.pid!, 'SIGINT');
      expect(await againExited).toBe(130);
      expect(againErr).toContain('SIGINT: stopping');
      const pendingAgain = await readdir(pendingDir);
      expect(pendingAgain).toHaveLength(1);
      expect(JSON.parse(await readFile(path.join(pendingDir, pendingAgain[0]), 'utf8'))).toMatchObject({ receiveCount: 0, errors: [] });
      // No Chromium left behind: none runs with a profile under this run's temporary folder.
      expect((await processes()).filter((p) => p.args.includes(tmp)).map((p) => p.args)).toEqual([]);
    } finally {
      hanging.close();
      await rm(tmp, { recursive: true, force: true }); // Chromium unpacks itself there (200 MB)
    }
  });
});

describe('spider train', () => {
  /** A data folder whose store holds sites learned before: articles their rules extracted, with the snapshots. */
  async function learnedDataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-train-'));
    const store = new FsStore(path.join(dir, 'store'));
    for (const host of ['one.example', 'two.example']) {
      const learned = generateSite({ seed: `cli-train-${host}`, pagesPerTemplate: 3, templates: 2 });
      for (const [i, p] of articlesOf(learned).entries()) {
        const pageId = `page${i}`;
        const article: ArticleDocument = {
          version: ARTICLE_DOCUMENT_VERSION, pageId, url: `http://${host}${p.path}`, site: host, title: p.title,
          text: p.bodyText, html: '', wordCount: p.wordCount, method: 'rules', rulesVersion: 1,
          extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1,
        };
        await putJson(store, keys.article(host, pageId), article);
        await store.put(keys.snapshot(host, pageId), pageHtml(learned, p.path, `http://${host}`));
      }
    }
    return dir;
  }

  it('trains from the learned sites, reports what on and the holdout, stores the model; --reset removes it', { timeout: 180_000 }, async () => {
    dataDir = await learnedDataDir();
    const modelFile = path.join(dataDir, 'store', 'models', 'fallback.json');

    const dry = await spider('train', '--no-generated', '--holdout', '0', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('trained on 12 pages of 2 learned sites:');
    expect(dry.stdout).toContain('dry run: model not stored');
    await expect(stat(modelFile)).rejects.toThrow(/ENOENT/);

    const trained = await spider('train');
    expect(trained.code).toBe(0);
    expect(trained.stdout).toMatch(/^trained on 12 pages of 2 learned sites \+ \d+ generated pages:$/m);
    expect(trained.stdout).toMatch(/^ {2}one\.example\t6 pages$/m);
    expect(trained.stdout).toMatch(/^ {2}two\.example\t6 pages$/m);
    expect(trained.stdout).toMatch(/^model: \d+ labelled blocks, \d+ id\/class tokens, \d+ Naive Bayes trigrams$/m);
    expect(trained.stdout).toMatch(/^holdout: 12 pages of 2 sites \(one\.example, two\.example\)/m);
    expect(trained.stdout).toMatch(/^ {2}retrained model {2}F1 0\.\d{3}/m);
    expect(trained.stdout).toMatch(/^ {2}default model {4}F1 0\.\d{3}/m);
    expect(trained.stdout).toContain(`wrote ${modelFile}`);
    const model = parseModel(JSON.parse(await readFile(modelFile, 'utf8')));
    expect(model.sites).toEqual({ 'one.example': 6, 'two.example': 6 });
    expect(model.holdout?.pages).toBe(12);

    // --reset --dry-run says what it would remove, and removes nothing; --reset refuses the training options it would ignore.
    const dryReset = await spider('train', '--reset', '--dry-run');
    expect(dryReset.code).toBe(0);
    expect(dryReset.stdout).toBe(`dry run: would remove ${modelFile}, after which the apply step would use the shipped default model; nothing removed\n`);
    await stat(modelFile);
    for (const [args, named] of [[['--no-generated'], '--no-generated'], [['--max-pages', '5', '--holdout', '0'], '--max-pages, --holdout']] as const) {
      const refused = await spider('train', '--reset', ...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`spider: --reset trains nothing, so it takes no ${named} (`);
      await stat(modelFile);
    }

    const reset = await spider('train', '--reset');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toBe(`removed ${modelFile}: the apply step uses the shipped default model\n`);
    await expect(stat(modelFile)).rejects.toThrow(/ENOENT/);
    const again = await spider('train', '--reset');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`no stored model at ${modelFile}: the apply step already uses the shipped default model\n`);
  });

  it('says what to do when the store has nothing learned, and rejects bad options', { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-train-empty-'));
    const empty = await spider('train');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no labelled pages: the store has no articles extracted by learned rules (learn some sites first');

    const bad = await spider('train', '--holdout', '-1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('a whole number, 0 or more');
  });

  it('takes one URL a line of a file (a line with two is one invalid URL), and names a rejected one safely', { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-cli-submit-'));
    const list = path.join(dataDir, 'urls.txt');
    await writeFile(list, '# two on one line\nhttp://a.example/1 http://a.example/2\n  http://a.example/3  \n\nnot\x1b[2Ja url\n');
    const submitted = await spider('submit', '-f', list);
    expect(submitted.stdout).toContain('queued 1 URL (run `spider work` to process them); 2 rejected, kept as dead letters');
    expect(submitted.stderr).toContain('rejected "http://a.example/1 http://a.example/2": invalid message: url: holds white space (one URL a line');
    expect(submitted.stderr).toContain('rejected "not\\u001b[2Ja url"');
    expect(submitted.stderr).not.toContain('\x1b');
    expect(submitted.code).toBe(1);
  });
});

