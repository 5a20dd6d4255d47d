/**
 * What a new user meets first, without Chromium: the version, an unknown command, configuration
 * errors, a reader that closes the output early, a run with no URLs or only invalid ones, relearn's
 * argument, the dead-letter listing. Real processes on a real data folder.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf } from '../../lib/store/keys';
import { putJson } from '../../lib/store/store';
import { RULES_DOCUMENT_VERSION, type RulesDocument } from '../../lib/types/rules-document';
import { ARTICLE_DOCUMENT_VERSION, type ArticleDocument } from '../../lib/types/article-document';
import { runSpider, CLI_COMMAND, spiderArgs } from '../helpers/spider-cli';

let dataDir: string;
const spider = (args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) => runSpider(dataDir, args, options.stdin, options.env);

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-usage-'));
});

/** Runs spider with the reading end of its stdout (or stderr) closed before it writes: `spider … | head -0`. */
function withClosedOutput(args: string[], closed: 'stdout' | 'stderr'): Promise<{ code: number | null; other: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI_COMMAND, spiderArgs('--data-dir', dataDir, ...args), {
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
    for (const args of [['dead-letters'], ['dead-letters', '--json'], ['status'], ['--help']]) {
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

    // a host pattern is checked with the others at start, its variable named (it was the egress policy's 'invalid allowed host pattern')
    const hosts = await spider(['status'], { env: { SPIDER_ALLOW_HOSTS: '127.0.0.1:8080,http://x:8731' } });
    expect(hosts.code).toBe(1);
    expect(hosts.stderr).toContain('SPIDER_ALLOW_HOSTS: not a host pattern: no scheme or path, only a host name or IP address, `*.` before it for its subdomains, `:port` after it for that port only, e.g. 127.0.0.1:8080, *.localhost, intranet.example (given: "http://x:8731")');
    const port = await spider(['status'], { env: { SPIDER_ALLOW_HOSTS: 'x.localhost:99999' } });
    expect(port.code).toBe(1);
    expect(port.stderr).toContain('SPIDER_ALLOW_HOSTS: invalid port in a host pattern: expected 1 to 65535 or * (given: "x.localhost:99999")');

    // values valid alone that contradict each other: both named
    const learn = await spider(['status'], { env: { SPIDER_LEARN_PAGES: '2', SPIDER_LEARN_MIN_PAGES: '5' } });
    expect(learn.code).toBe(1);
    expect(learn.stderr).toContain(
      "SPIDER_LEARN_PAGES: 2 is fewer than SPIDER_LEARN_MIN_PAGES (5): a site's first learn waits for 5 pages and would read only 2 of them (set SPIDER_LEARN_PAGES to 5 or more, or SPIDER_LEARN_MIN_PAGES to 2 or less)",
    );

    // a variable nothing reads (a misspelling) is said, with the one meant; the known ones are not
    const misspelled = await spider(['status'], { env: { SPIDER_HOST_INTERVAL: '5000', SPIDER_HOST_INTERVAL_MS: '1000' } });
    expect(misspelled.code).toBe(0);
    expect(misspelled.stderr).toBe('spider: warning: SPIDER_HOST_INTERVAL is not a spider variable and is ignored; did you mean SPIDER_HOST_INTERVAL_MS? (docs/configuration.md lists them)\n');
    // one like no known variable: no guess at what was meant
    const madeUp = await spider(['status'], { env: { SPIDER_FOO: '1' } });
    expect(madeUp.stderr).toBe('spider: warning: SPIDER_FOO is not a spider variable and is ignored (docs/configuration.md lists them)\n');

    const fetchPath = await spider(['status'], { env: { SPIDER_FETCH_PATH: 'maybe' } });
    expect(fetchPath.code).toBe(1);
    expect(fetchPath.stderr).toContain('SPIDER_FETCH_PATH: expected true, false, 1 or 0 (given: "maybe")');

    // `--data-dir "$DIR"` with DIR unset: refused, where the current folder became the data folder
    const emptyDir = await spider(['--data-dir', '', 'status']);
    expect(emptyDir).toMatchObject({ code: 1, stdout: '' });
    expect(emptyDir.stderr).toContain("option '-d, --data-dir <dir>' argument '' is invalid. a folder, not empty");

    const pages = await spider(['demo', '--pages', 'abc']);
    expect(pages.code).toBe(1);
    expect(pages.stderr).toContain("option '--pages <n>' argument 'abc' is invalid. a whole number, 1 or more");
  });
});

/**
 * spider on another data folder, its process group killed (SIGKILL: the old recursive mkdir on /proc
 * ignored SIGTERM, and tsx's child outlives tsx) if it takes over `ms`.
 */
function spiderOn(dir: string, args: string[], ms: number): Promise<{ code: number | string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI_COMMAND, spiderArgs('--data-dir', dir, ...args), {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stderr });
    });
  });
}

describe('spider on a data folder it cannot create', () => {
  it('says which folder and why, and exits 1, at once: a file in the way, a pseudo filesystem (/proc)', { timeout: 90_000 }, async () => {
    const file = path.join(dataDir, 'a-file');
    await writeFile(file, 'x');
    const underFile = await spiderOn(path.join(file, 'data'), ['run', 'http://127.0.0.1:1/'], 30_000);
    expect(underFile).toMatchObject({ code: 1 });
    expect(underFile.stderr).toContain(`spider: cannot create the data folder ${path.join(file, 'data')}: a part of the path is a file, not a folder (ENOTDIR)`);

    if (!existsSync('/proc/self')) return;
    // Node's mkdir(dir, { recursive: true }) spun for ever here: /proc answers ENOENT to any mkdir.
    for (const args of [['run', 'http://127.0.0.1:1/'], ['submit', 'http://127.0.0.1:1/']]) {
      const proc = await spiderOn('/proc/spider-test-x', args, 30_000);
      expect({ args, code: proc.code }).toEqual({ args, code: 1 });
      expect(proc.stderr).toContain('spider: cannot create the data folder /proc/spider-test-x: /proc takes no new folders (ENOENT: a pseudo or read-only filesystem?)');
    }
    // /proc itself exists, but its lock cannot be made
    const procItself = await spiderOn('/proc', ['run', 'http://127.0.0.1:1/'], 30_000);
    expect(procItself.code).toBe(1);
    expect(procItself.stderr).toContain('spider: cannot write in the data folder /proc: ');
  });
});

describe('spider on a data folder that is not there', () => {
  it('says so and exits 1, making nothing, where it read an empty store (exit 0) or made one; says a store with nothing listed', { timeout: 90_000 }, async () => {
    // prepare: a mistyped folder, a file in its place, and an empty one (the test's own)
    const missing = path.join(dataDir, 'spider-dat');
    const file = path.join(dataDir, 'a-file');
    await writeFile(file, 'x');
    const on = (dir: string, args: string[]) => runSpider(dir, args);

    // act
    const [status, articles, work, onFile, noArticles, noRules] = await Promise.all([
      on(missing, ['status']),
      on(missing, ['articles']),
      on(missing, ['work']),
      on(file, ['status']),
      spider(['articles']),
      spider(['rules']),
    ]);

    // assess
    for (const [command, result] of Object.entries({ status, articles, work })) {
      expect({ command, code: result.code, stdout: result.stdout }).toEqual({ command, code: 1, stdout: '' });
      expect(result.stderr).toContain(`spider: no data folder at ${missing}: nothing was stored there`);
    }
    expect(existsSync(missing)).toBe(false);
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toContain(`spider: ${file} is a file, not a data folder`);
    expect(noArticles).toMatchObject({ code: 1, stdout: '' });
    expect(noArticles.stderr).toContain('spider: no articles yet');
    expect(noRules).toMatchObject({ code: 1, stdout: '' });
    expect(noRules.stderr).toContain('spider: no site learned yet');
  });
});

describe('spider run and submit, URLs', () => {
  it('says no URLs were given, and exits 1, when there are none', { timeout: 60_000 }, async () => {
    const none = await spider(['run']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('spider: no URLs given');
    expect(none.stderr).not.toContain('done:');

    const empty = path.join(dataDir, 'empty.txt');
    await writeFile(empty, '# nothing yet\n\n');
    const fromFile = await spider(['run', '-f', empty]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain(`spider: no URLs given (${empty} has none)`);

    expect((await spider(['submit'])).code).toBe(1);
    // and work with nothing queued says so, besides its (empty) tally
    const idle = await spider(['work']);
    expect(idle.code).toBe(0);
    expect(idle.stderr).toContain(`spider: nothing queued in ${dataDir} (\`spider submit <url>\` queues URLs`);

    const missing = path.join(dataDir, 'no-such-list.txt');
    const unread = await spider(['run', '-f', missing]);
    expect(unread.code).toBe(1);
    expect(unread.stderr).toBe(`spider: cannot read the URL list ${missing}: no such file\n`);
  });

  it('reads one URL a line; the summary and --json tally count every rejected URL as a dead letter', { timeout: 60_000 }, async () => {
    const list = path.join(dataDir, 'urls.txt');
    await writeFile(list, '# one URL a line\n\n  not a url  \nftp://example.com/x\r\n');
    const tallyFile = path.join(dataDir, 'tally.json');
    const result = await spider(['run', '-f', list, '--json', tallyFile]);
    expect(result.code).toBe(1);
    expect(result.stderr.match(/^rejected /gm)).toHaveLength(2);
    expect(result.stderr).toContain('rejected "not a url": invalid message: url: not a valid absolute URL');
    expect(result.stderr).toMatch(/^done: 0 rendered, .*2 dead letters \(2 invalid-message\) of which 2 rejected at submission in /m);
    const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
    expect(tally).toMatchObject({ version: 5, urls: { done: 2, total: 2 }, outcomes: { deadLetters: 2, rejected: 2, deadLettersByQueue: { render: 2 } } });

    // `spider dead-letters` lists the same two.
    const dead = await spider(['dead-letters']);
    expect(dead.stdout.split('\n').filter((l) => l.startsWith('render'))).toHaveLength(2);

    const one = await spider(['run', 'not a url']);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/^done: .*, 1 dead letter \(1 invalid-message\)/m);
  });
});

describe('spider dead-letters and article', () => {
  it('lists dead letters one line each (queue, URL, reason), --json for scripts; article says why a URL has none', { timeout: 60_000 }, async () => {
    expect((await spider(['dead-letters'])).stdout).toBe('no dead letters\n');
    await spider(['submit', 'not a url', 'ftp://example.com/x']);
    const dead = await spider(['dead-letters']);
    expect(dead.code).toBe(0);
    expect(dead.stdout).toBe(
      '2 dead letters (queue, URL or site/page, reason; --json for the whole messages):\n' +
        'render  "not a url"  invalid message: url: not a valid absolute URL\n' +
        'render  ftp://example.com/x  invalid message: url: only http and https URLs are supported, not ftp:\n',
    );
    const json = (await spider(['dead-letters', '--json'])).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(json).toEqual([
      expect.objectContaining({ queue: 'render', body: expect.objectContaining({ url: 'not a url' }), reason: expect.stringContaining('not a valid absolute URL') }),
      expect.objectContaining({ queue: 'render', body: expect.objectContaining({ url: 'ftp://example.com/x' }) }),
    ]);

    const article = await spider(['article', 'ftp://example.com/x']);
    expect(article.code).toBe(1);
    expect(article.stderr).toContain('no article for ftp://example.com/x: it ended as a dead letter of the render queue: invalid message: url: only http and https URLs are supported');
  });
});

describe('spider relearn, its argument', () => {
  it('takes a URL for its site, refuses what is no site name, and a site with no stored pages, before queueing anything', { timeout: 60_000 }, async () => {
    const url = await spider(['relearn', 'http://127.0.0.1:8080/']);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('spider: the store has no pages of 127.0.0.1: nothing to learn from');

    const bad = await spider(['relearn', 'not a site']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('spider: "not a site" is not a site name');

    // --quiet leaves the steps' warnings out (the learn's quarantined file), as it says
    const badPage = async (dir: string) => {
      const store = new FsStore(path.join(dir, 'store'));
      await store.put(keys.features('bad.localhost', 'p1'), 'not json');
      return dir;
    };
    const [loud, quiet] = await Promise.all([
      runSpider(await badPage(await mkdtemp(path.join(os.tmpdir(), 'spider-usage-'))), ['relearn', 'bad.localhost']),
      runSpider(await badPage(await mkdtemp(path.join(os.tmpdir(), 'spider-usage-'))), ['--quiet', 'relearn', 'bad.localhost']),
    ]);
    expect(loud.stderr).toContain('warning: quarantined a bad feature document');
    expect(quiet.stderr).not.toContain('warning:');
    expect(quiet.stderr).toContain('spider: bad.localhost was not learned');

    const none = await spider(['relearn', 'nosuch.example']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('spider: the store has no pages of nosuch.example');
    // nothing was queued, so nothing was dead-lettered
    expect((await spider(['dead-letters'])).stdout).not.toMatch(/^learn/m);
  });
});

describe('spider rules, its argument and options', () => {
  it('takes a URL for its site, as relearn does; refuses the options it would not use', { timeout: 90_000 }, async () => {
    const rules: RulesDocument = {
      version: RULES_DOCUMENT_VERSION, site: 'news.localhost', rulesVersion: 3, learnedAt: '2026-03-14T00:00:00.000Z', learnedFrom: ['p1'],
      content: { selectors: ['article .body'], clean: ['.ad'] }, clusters: [], selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] }, params: {},
    };
    await putJson(new FsStore(path.join(dataDir, 'store')), keys.rules('news.localhost'), rules);

    const byUrl = await spider(['rules', 'http://news.localhost:8731/x.html']);
    expect(byUrl.code).toBe(0);
    expect(JSON.parse(byUrl.stdout)).toMatchObject({ site: 'news.localhost', rulesVersion: 3 });
    const postlight = await spider(['rules', 'http://www.News.localhost/x.html', '--format', 'postlight']);
    expect(postlight.code).toBe(0);
    expect(JSON.parse(postlight.stdout)).toMatchObject({ domain: 'news.localhost' });
    const bad = await spider(['rules', 'not a site']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('spider: "not a site" is not a site name');

    for (const [args, said] of [
      [['rules', 'news.localhost', '--pages', '2'], 'spider: --pages counts the pages --report draws: spider rules <site> --report out.html --pages 2'],
      [['rules', 'news.localhost', '--report', path.join(dataDir, 'f.html'), '--format', 'postlight'], 'spider: --report writes an HTML page, in no --format:'],
      [['rules', '--format', 'postlight'], 'spider: --format needs a site: spider rules <site> --format postlight'],
      [['rules', '--pages', '2'], 'spider: --pages goes with --report, which needs a site'],
    ] as const) {
      const refused = await spider([...args]);
      expect({ args, code: refused.code, stdout: refused.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(refused.stderr).toContain(said);
    }
    expect(existsSync(path.join(dataDir, 'f.html'))).toBe(false);
    // the list of sites, and the default format given explicitly, still go
    expect((await spider(['rules'])).stdout).toBe('news.localhost\n');
    expect((await spider(['rules', 'news.localhost', '--format', 'json'])).code).toBe(0);
  });
});

describe('a URL typed without its scheme', () => {
  it('is refused with a guess at what was meant, when http:// before it makes a URL', { timeout: 60_000 }, async () => {
    const submitted = await spider(['submit', 'www.example.com/page.html', 'localhost:8080/story', 'not a url']);
    expect(submitted.code).toBe(1);
    expect(submitted.stderr).toContain('rejected "www.example.com/page.html": invalid message: url: not a valid absolute URL; did you mean http://www.example.com/page.html?\n');
    expect(submitted.stderr).toContain('rejected "localhost:8080/story": invalid message: url: only http and https URLs are supported, not localhost:; did you mean http://localhost:8080/story?\n');
    expect(submitted.stderr).toContain('rejected "not a url": invalid message: url: not a valid absolute URL\n');

    const dead = await spider(['dead-letters']);
    expect(dead.stdout).toMatch(/^render {2}"www\.example\.com\/page\.html" {2}invalid message: url: not a valid absolute URL; did you mean http:\/\/www\.example\.com\/page\.html\?$/m);

    const extracted = await spider(['extract', 'www.example.com/page.html']);
    expect(extracted.code).toBe(1);
    expect(extracted.stderr).toMatch(/cannot read www\.example\.com\/page\.html: ENOENT.*; did you mean http:\/\/www\.example\.com\/page\.html\?$/m);
  });
});

describe('a very long URL', () => {
  it('is cut in the lines for people, with its length said, and kept whole in --json', { timeout: 60_000 }, async () => {
    const long = `http://news.localhost/${'x'.repeat(4200)}.html`;
    const tallyFile = path.join(dataDir, 'tally.json');
    const ran = await spider(['run', long, '--json', tallyFile]);
    expect(ran.code).toBe(1);
    const rejected = ran.stderr.split('\n').find((l) => l.startsWith('rejected '))!;
    expect(rejected).toBe(`rejected "http://news.localhost/${'x'.repeat(128)}…${'x'.repeat(25)}.html" (4,227 characters): invalid message: url: URL is longer than 2048 characters`);
    const tally = JSON.parse(await readFile(tallyFile, 'utf8'));
    expect(tally.deadLetterReasons[0].examples[0]).toContain(long);

    const dead = await spider(['dead-letters']);
    const line = dead.stdout.split('\n').find((l) => l.startsWith('render'))!;
    expect(line.length).toBeLessThan(300);
    expect(line).toContain(`${'x'.repeat(25)}.html (4,227 characters)  invalid message: url: URL is longer than 2048 characters`);
    const json = await spider(['dead-letters', '--json']);
    expect(JSON.parse(json.stdout.split('\n')[0]).body.url).toBe(long);
  });
});

describe('spider articles --site', () => {
  it('lists a site\'s articles (a URL stands for its site); says there are none for a site without, and exits 1', { timeout: 60_000 }, async () => {
    const article: ArticleDocument = {
      version: ARTICLE_DOCUMENT_VERSION, pageId: 'p1', url: 'http://news.localhost:8731/x.html', site: 'news.localhost', title: 'Harbour vote',
      text: 'The council voted.', html: '<p>The council voted.</p>', wordCount: 3, method: 'fallback', extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1,
    };
    await putJson(new FsStore(path.join(dataDir, 'store')), keys.article('news.localhost', 'p1'), article);

    for (const site of ['news.localhost', 'http://news.localhost:8731/other.html']) {
      const listed = await spider(['articles', '--site', site]);
      expect({ site, code: listed.code, stdout: listed.stdout }).toEqual({ site, code: 0, stdout: 'news.localhost\tp1\tfallback\t3 words\thttp://news.localhost:8731/x.html\tHarbour vote\n' });
    }
    const none = await spider(['articles', '--site', 'nosuch.example']);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toContain("spider: no articles of nosuch.example (`spider articles` lists every site's; `spider status` names the sites)");
    const bad = await spider(['articles', '--site', 'not a site']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('spider: "not a site" is not a site name');
  });
});

describe('spider article and articles, pages that gave no article', () => {
  it('mark a page with no words and a page flagged not an article; article says so on stderr and exits 1 for no words', { timeout: 60_000 }, async () => {
    const store = new FsStore(path.join(dataDir, 'store'));
    const base = { version: ARTICLE_DOCUMENT_VERSION, site: 'mess.localhost', html: '', method: 'fallback' as const, extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1 };
    const pages: ArticleDocument[] = [
      { ...base, pageId: 'a1', url: 'http://mess.localhost:18080/story', title: 'Harbour vote', text: 'The council voted.', wordCount: 3 },
      { ...base, pageId: pageIdOf('http://mess.localhost:18080/login'), url: 'http://mess.localhost:18080/login', title: 'Sign in', text: '', wordCount: 0 },
      { ...base, pageId: 'a3', url: 'http://mess.localhost:18080/', title: 'Mess news', text: 'Latest stories and more.', wordCount: 116, notArticle: true },
    ];
    for (const a of pages) await putJson(store, keys.article(a.site, a.pageId), a);

    const listed = await spider(['articles']);
    expect(listed.code).toBe(0);
    const words = new Map(listed.stdout.split('\n').filter(Boolean).map((l) => [l.split('\t')[4], l.split('\t')[3]]));
    expect(Object.fromEntries(words)).toEqual({ [pages[0].url]: '3 words', [pages[1].url]: '0 words, no article', [pages[2].url]: '116 words, not an article' });

    const story = await spider(['article', 'mess.localhost/a1']);
    expect(story).toMatchObject({ code: 0, stdout: 'Harbour vote\n\nThe council voted.\n', stderr: '' });

    const login = await spider(['article', 'http://mess.localhost:18080/login']);
    expect(login).toMatchObject({ code: 1, stdout: '' });
    expect(login.stderr).toBe('no article for http://mess.localhost:18080/login: the page gave an article with no words (its title: "Sign in")\n');
    const loginJson = await spider(['article', 'http://mess.localhost:18080/login', '--format', 'json']);
    expect(loginJson.code).toBe(1);
    expect(JSON.parse(loginJson.stdout)).toMatchObject({ url: 'http://mess.localhost:18080/login', wordCount: 0, title: 'Sign in' });
    expect(loginJson.stderr).toContain('no article for http://mess.localhost:18080/login: the page gave an article with no words (its title: "Sign in"); its stored document follows');

    const home = await spider(['article', 'mess.localhost/a3']);
    expect(home).toMatchObject({ code: 0, stdout: 'Mess news\n\nLatest stories and more.\n' });
    expect(home.stderr).toBe('mess.localhost/a3: the extractor flags this page as not an article (a home page or a listing): its text follows\n');
  });
});

describe('spider article, a URL with tracking parameters', () => {
  it('shows the article of the URL without them (the same page); other parameters name other pages', { timeout: 60_000 }, async () => {
    const url = 'http://news.localhost:8731/story.html?id=7&q=a%20b';
    const article: ArticleDocument = {
      version: ARTICLE_DOCUMENT_VERSION, pageId: pageIdOf(url), url, site: 'news.localhost', title: 'Harbour vote',
      text: 'The council voted.', html: '<p>The council voted.</p>', wordCount: 3, method: 'fallback', extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1,
    };
    await putJson(new FsStore(path.join(dataDir, 'store')), keys.article('news.localhost', pageIdOf(url)), article);

    const tracked = 'http://news.localhost:8731/story.html?utm_source=x&id=7&fbclid=abc&q=a%20b';
    const shown = await spider(['article', tracked]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('Harbour vote\n\nThe council voted.\n');
    expect(shown.stderr).toBe('');

    const other = await spider(['article', 'http://news.localhost:8731/story.html?id=8&utm_source=x']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('no article for http://news.localhost:8731/story.html?id=8&utm_source=x');
  });
});

describe('spider extract, standard input', () => {
  it('refuses - given twice: standard input can be read once', { timeout: 60_000 }, async () => {
    const result = await spider(['extract', '-', '-'], { stdin: '<p>Hello</p>' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('spider: - (standard input) is given more than once: standard input can be read only once');
  });
});
