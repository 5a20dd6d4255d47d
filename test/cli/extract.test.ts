/** `spider extract` as a user runs it: a real process, real Chromium, a generated site on 127.0.0.1, files and stdin. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesOf, generateSite, pageHtml, serveSite, type ServedSite } from '../../lib/demo/index';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
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

  it('says why a URL gave no article', { timeout: 120_000 }, async () => {
    const result = await spider(['extract', served.url('/no-such-page.html'), '--format', 'text']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no article from .*no-such-page\.html: render: HTTP 404/);
  });
});
