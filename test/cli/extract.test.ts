/** `spider extract` as a user runs it: a real process, real Chromium, a generated site on 127.0.0.1, files and stdin. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesOf, generateSite, pageHtml, serveSite, type ServedSite } from '../../lib/demo/index';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { readInputs } from '../../lib/cli/extract';
import { tokenF1 } from '../helpers/articles';
import { runSpider } from '../helpers/spider-cli';

const site = generateSite({ seed: 'cli-extract', pagesPerTemplate: 3, templates: 1 });
let served: ServedSite;
let dataDir: string;

const spider = (args: string[], stdin?: string) => runSpider(dataDir, args, stdin);

beforeAll(async () => {
  served = await serveSite(site, { hostname: 'extract.localhost' });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-extract-'));
});
afterAll(() => served?.close());

describe('spider extract', () => {
  it('prints the article of a URL in markdown, and stores what it rendered', { timeout: 180_000 }, async () => {
    const [page] = articlesOf(site);
    const url = served.url(page.path);
    const result = await spider(['extract', url, '--format', 'markdown']);
    expect(result.stderr).not.toContain('no article');
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(`# ${page.title}\n`)).toBe(true);
    const body = result.stdout.split('\n').filter((l) => !l.startsWith('#') && !l.startsWith('*')).join('\n');
    expect(tokenF1(body, page.bodyText)).toBeGreaterThan(0.8);

    const store = new FsStore(path.join(dataDir, 'store'));
    expect(await store.get(keys.snapshot(siteOf(url), pageIdOf(url)))).toBeDefined();
    expect(await store.get(keys.features(siteOf(url), pageIdOf(url)))).toBeDefined();
  });

  it('reads a file and standard input as archived pages; jsonl gives one article a line; an input with no article is exit 1 with the reason', { timeout: 180_000 }, async () => {
    const [, second, third] = articlesOf(site);
    const file = path.join(dataDir, 'saved.html');
    await writeFile(file, pageHtml(site, second.path, 'http://saved.localhost'));
    const result = await spider(
      ['extract', file, '-', path.join(dataDir, 'missing.html'), '--format', 'jsonl', '--url', 'http://saved.localhost/from-stdin.html'],
      pageHtml(site, third.path, 'http://saved.localhost'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no article from .*missing\.html: cannot read/);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    const [fromFile, fromStdin] = lines.map((l) => ArticleDocumentSchema.parse(JSON.parse(l)));
    expect(fromFile.title).toBe(second.title);
    expect(tokenF1(fromFile.text, second.bodyText)).toBeGreaterThan(0.8);
    expect(fromStdin.url).toBe('http://saved.localhost/from-stdin.html');
    expect(fromStdin.title).toBe(third.title);
    expect(tokenF1(fromStdin.text, third.bodyText)).toBeGreaterThan(0.8);
  });

  it('gives HTML with no URL of its own a URL with its content hash: two pages of one name never replace each other', { timeout: 180_000 }, async () => {
    // No canonical link, no og:url: the page states no URL.
    const unstated = (p: { path: string }) => pageHtml(site, p.path, 'http://saved.localhost').replace(/^.*(rel="canonical"|property="og:url").*$/gm, '');
    const [first, second, third] = articlesOf(site);
    const one = await spider(['extract', '-', '--format', 'jsonl'], unstated(first));
    const two = await spider(['extract', '-', '--format', 'jsonl'], unstated(second));
    for (const folder of ['a', 'b']) await mkdir(path.join(dataDir, folder), { recursive: true });
    await writeFile(path.join(dataDir, 'a', 'page.html'), unstated(third));
    await writeFile(path.join(dataDir, 'b', 'page.html'), unstated(first));
    const files = await spider(['extract', path.join(dataDir, 'a', 'page.html'), path.join(dataDir, 'b', 'page.html'), '--format', 'jsonl']);
    for (const r of [one, two, files]) {
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('replaced');
    }
    const [a1, a2] = [one, two].map((r) => ArticleDocumentSchema.parse(JSON.parse(r.stdout)));
    const [f1, f2] = files.stdout.trim().split('\n').map((l) => ArticleDocumentSchema.parse(JSON.parse(l)));
    expect(a1.url).toMatch(/^http:\/\/file\.localhost\/[0-9a-f]{12}\/stdin\.html$/);
    expect(a2.url).toMatch(/^http:\/\/file\.localhost\/[0-9a-f]{12}\/stdin\.html$/);
    expect(f1.url).toMatch(/^http:\/\/file\.localhost\/[0-9a-f]{12}\/page\.html$/);
    expect(new Set([a1.url, a2.url, f1.url, f2.url]).size).toBe(4);
    expect([a1.title, a2.title, f1.title, f2.title]).toEqual([first.title, second.title, third.title, first.title]);
    // Each is stored at its own URL: none replaced another.
    const listed = (await spider(['articles', '--site', 'file.localhost'])).stdout;
    for (const a of [a1, a2, f1, f2]) expect(listed).toContain(a.url);

    const help = await spider(['extract', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('http://file.localhost/<content hash>/<file name>');
  });

  it('says why a URL gave no article', { timeout: 120_000 }, async () => {
    const result = await spider(['extract', served.url('/no-such-page.html'), '--format', 'text']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no article from .*no-such-page\.html: render: HTTP 404/);
  });
});

describe('readInputs', () => {
  const noStdin = { readStdin: async () => '' };
  it('refuses --url when it would name no input (only URLs, or several files)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-inputs-'));
    const [a, b] = [path.join(dir, 'a.html'), path.join(dir, 'b.html')];
    await writeFile(a, '<p>A</p>');
    await writeFile(b, '<p>B</p>');
    await expect(readInputs([a, b], { ...noStdin, baseUrl: 'https://news.example/a' })).rejects.toThrow(/--url is the URL of standard input or of the only file, and 2 files are given/);
    await expect(readInputs(['https://news.example/x'], { ...noStdin, baseUrl: 'https://news.example/a' })).rejects.toThrow(/no file is given/);
    const [one] = await readInputs([a], { ...noStdin, baseUrl: 'https://news.example/a' });
    expect(one.submission?.url).toBe('https://news.example/a');
  });

  it('says a file that is plainly no HTML (a PDF, binary) is not an HTML page, as a URL of one is', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-inputs-'));
    const png = path.join(dir, 'pixel.png');
    const pdf = path.join(dir, 'doc.pdf');
    await writeFile(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    await writeFile(pdf, '%PDF-1.4\n%%EOF');
    const [p, d] = await readInputs([png, pdf], noStdin);
    expect(p).toMatchObject({ arg: png, error: `${png} is not an HTML page (binary content)` });
    expect(d).toMatchObject({ arg: pdf, error: `${pdf} is not an HTML page (a PDF)` });
  });

  it('says an empty file or standard input is no page, rather than rendering and storing nothing as a page with no words', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-inputs-'));
    const empty = path.join(dir, 'empty.html');
    const blank = path.join(dir, 'blank.html');
    await writeFile(empty, '');
    await writeFile(blank, ' \n\t\n');
    const [e, b, stdin] = await readInputs([empty, blank, '-'], noStdin);
    expect(e).toEqual({ arg: empty, error: `${empty} is not an HTML page (empty)` });
    expect(b).toEqual({ arg: blank, error: `${blank} is not an HTML page (only white space)` });
    expect(stdin).toEqual({ arg: '-', error: 'standard input is not an HTML page (empty)' });
  });
});
