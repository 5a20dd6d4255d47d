/**
 * `spider replay <dataset>` as a user runs it: a real process, a dataset folder on disk (docs/datasets.md)
 * of generated pages, rendered from their archived copies in real Chromium.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { articlesOf, generateSite, pageHtml } from '../../lib/demo/index';
import { runSpider } from '../helpers/spider-cli';

const site = generateSite({ seed: 'cli-replay', pagesPerTemplate: 2, templates: 1 });
let dataset: string;

/** A dataset folder of the generated site's article pages: manifest.jsonl and pages/, no gold/; one page of another site has no URL. */
beforeAll(async () => {
  dataset = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-set-'));
  await mkdir(path.join(dataset, 'pages'));
  const lines: string[] = [];
  for (const [i, page] of articlesOf(site).entries()) {
    const id = `page-${i}`;
    const origin = 'http://replay-news.example';
    await writeFile(path.join(dataset, 'pages', `${id}.html`), pageHtml(site, page.path, origin));
    lines.push(JSON.stringify({ id, site: 'replay-news.example', url: `${origin}${page.path}`, html: `pages/${id}.html`, gold: `gold/${id}.txt` }));
  }
  // and a page of another site archived without its URL
  await writeFile(path.join(dataset, 'pages', 'no-url.html'), pageHtml(site, articlesOf(site)[0].path, 'http://nourl.example'));
  lines.push(JSON.stringify({ id: 'no-url', site: 'nourl.example', url: null, html: 'pages/no-url.html', gold: 'gold/no-url.txt' }));
  await writeFile(path.join(dataset, 'manifest.jsonl'), lines.join('\n') + '\n');
});

describe('spider replay', () => {
  it('extracts the archived pages and says plainly that it scores nothing against gold/, and what does', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-'));
    const replayed = await runSpider(dataDir, ['replay', dataset]);
    expect(replayed.code).toBe(0);
    expect(replayed.stderr).toContain(`queued 2 pages of ${path.basename(dataset)}; 1 without a URL skipped`);
    expect(replayed.stderr).toMatch(/^done: 2 rendered, /m);
    expect(replayed.stderr).toContain(`replay does not score the articles against ${dataset}/gold/: \`npm run bench -- ${dataset}\` does (bench/README.md)`);
    expect((await runSpider(dataDir, ['articles'])).stdout.trim().split('\n')).toHaveLength(2);

    const help = await runSpider(dataDir, ['replay', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('it does not score them against gold/: `npm run bench -- <dataset>` does');
    expect(help.stdout).toContain('Replay reads no gold/ and prints no score');
  });

  it('refuses a --site no page of the dataset is of, naming the sites it has, and queues nothing', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-site-'));
    const refused = await runSpider(dataDir, ['replay', dataset, '--site', 'replay-news.example', 'nosuch.example']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`spider: no page of ${path.basename(dataset)} is of nosuch.example (its sites: nourl.example, replay-news.example)`);
    expect(refused.stderr).not.toContain('queued');
    const status = JSON.parse((await runSpider(dataDir, ['status', '--json'])).stdout) as { queues: { render: { pending: number } } };
    expect(status.queues.render.pending).toBe(0);
  });

  it('refuses a folder with no manifest, and a manifest naming a page file the folder lacks, naming it, and queues nothing', { timeout: 60_000 }, async () => {
    // prepare: the dataset's manifest with one more page, whose file is missing
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-missing-'));
    const broken = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-broken-'));
    const manifest = await readFile(path.join(dataset, 'manifest.jsonl'), 'utf8');
    const missing = { id: 'gone', site: 'replay-news.example', url: 'http://replay-news.example/gone.html', html: path.join(dataset, 'pages', 'gone.html'), gold: 'gold/gone.txt' };
    await writeFile(path.join(broken, 'manifest.jsonl'), manifest.replace(/"html":"pages\//g, `"html":"${dataset}/pages/`) + JSON.stringify(missing) + '\n');

    // act
    const refused = await runSpider(dataDir, ['replay', broken]);
    const noDataset = await runSpider(dataDir, ['replay', path.join(broken, 'nothing-here')]);

    // assess
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`spider: 1 page file of ${path.basename(broken)}'s manifest cannot be read: ${path.relative(broken, missing.html)} (ENOENT); nothing queued`);
    expect(noDataset.code).toBe(1);
    expect(noDataset.stderr).toContain(`spider: no dataset at ${path.join(broken, 'nothing-here')}: it has no manifest.jsonl`);
    const status = JSON.parse((await runSpider(dataDir, ['status', '--json'])).stdout) as { queues: { render: { pending: number } } };
    expect(status.queues.render.pending).toBe(0);
  });

  it('refuses a --site whose pages all lack a URL, saying so rather than that the dataset has no page of it', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-replay-nourl-'));
    const refused = await runSpider(dataDir, ['replay', dataset, '--site', 'nourl.example']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`spider: no page of nourl.example in ${path.basename(dataset)} has a URL, and replay renders each page at its URL: 1 page without one, skipped`);
    expect(refused.stderr).not.toContain('queued');
  });
});
