/**
 * `spider rules <site> --report` and `--format postlight` as a user runs them, on a generated site
 * learned in the embedded pipeline (real Chromium, 127.0.0.1). The report is opened in Chromium from
 * disk, and its boxes are checked against what the render recorded (the feature documents' block
 * boxes) and what the generator wrote (the article's paragraphs, its headline): each body paragraph
 * is inside a body box, a body box holds article paragraphs and nothing else but cleaned-out parts,
 * the title box holds the headline. The Postlight export printed by the command is loaded into
 * Postlight Parser and run on pages the learner never saw.
 */
import { execFile, spawn } from 'node:child_process';
import { access, lstat, mkdtemp, readdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../../lib/demo/index';
import { EmbeddedPipeline } from '../../lib/pipeline/embedded';
import { FsStore } from '../../lib/store/fs-store';
import { keys, pageIdOf, siteOf } from '../../lib/store/keys';
import { getJson, getText } from '../../lib/store/store';
import { ArticleDocumentSchema } from '../../lib/types/article-document';
import { FeatureDocumentSchema, type BoundingBox } from '../../lib/types/feature-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import { BARE_PROSE_RULE, type Mark } from '../../lib/report/marks';
import { pickPages } from '../../lib/report/site-report';
import { parseWithPostlight, tokenF1 } from '../helpers/articles';
import { killGroup, processes } from '../helpers/processes';
import { CLI_COMMAND, runSpider, spiderArgs } from '../helpers/spider-cli';

const site = generateSite({ seed: 'cli-report', pagesPerTemplate: 8, templates: 1 });
const pages = articlesOf(site);
const learned = pages.slice(0, 5);
const unseen = pages.slice(5);
let served: ServedSite;
let dataDir: string;
let host: string;
let browser: Browser | undefined;

beforeAll(async () => {
  served = await serveSite(site, { hostname: 'report.localhost' });
  host = siteOf(served.url('/'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-report-'));
  const pipeline = await new EmbeddedPipeline(loadConfig({ dataDir, relearnAfter: 1000, retryBaseMs: 10 })).open();
  try {
    await pipeline.submit(learned.map((p) => ({ url: served.url(p.path) })));
    await pipeline.run();
    await pipeline.submit(unseen.map((p) => ({ url: served.url(p.path) })));
    await pipeline.run();
  } finally {
    await pipeline.close();
  }
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

const store = () => new FsStore(path.join(dataDir, 'store'));
const normal = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether `inner` lies inside `outer`, give or take `tolerance` pixels on each side. */
function inside(inner: BoundingBox, outer: BoundingBox, tolerance = 2): boolean {
  return (
    inner.x >= outer.x - tolerance &&
    inner.y >= outer.y - tolerance &&
    inner.x + inner.width <= outer.x + outer.width + tolerance &&
    inner.y + inner.height <= outer.y + outer.height + tolerance
  );
}

interface DrawnBox extends BoundingBox {
  readonly kind: string;
}

/** Each page section of the report as Chromium lays it out: its page id, and its boxes in the drawn page's CSS pixels. */
async function boxesInReport(file: string): Promise<{ pageId: string; boxes: DrawnBox[] }[]> {
  browser ??= await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: 'shell' });
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 1800, height: 1000 });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    return await page.evaluate(() =>
      [...document.querySelectorAll('section.page')].map((section) => {
        const img = section.querySelector('.shot img') as HTMLImageElement;
        const at = img.getBoundingClientRect();
        // the picture may be drawn scaled: back to the page's own pixels
        const scale = img.naturalWidth / at.width;
        const boxes = [...section.querySelectorAll('.shot .box')].map((b) => {
          const r = b.getBoundingClientRect();
          return { kind: (b as HTMLElement).dataset.kind!, x: (r.left - at.left) * scale, y: (r.top - at.top) * scale, width: r.width * scale, height: r.height * scale };
        });
        return { pageId: (section as HTMLElement).dataset.pageId!, boxes };
      }),
    );
  } finally {
    await page.close();
  }
}

describe('spider rules --report', () => {
  it('writes a page whose boxes land on the blocks the rules take: the dek and body paragraphs, the headline', { timeout: 240_000 }, async () => {
    const file = path.join(dataDir, 'report.html');
    const result = await runSpider(dataDir, ['rules', host, '--report', file, '--pages', '2']);
    expect(result.stderr).toMatch(/wrote .*report\.html: 2 pages drawn/);
    expect(result.code).toBe(0);
    const rules = await getJson(store(), keys.rules(host), (v) => RulesDocumentSchema.parse(v));
    expect(rules?.fields?.title?.rules.length, 'a title rule was learned').toBeGreaterThan(0);
    // the generated pages' standfirst is their description: the dek
    expect(rules?.content.dek?.length, 'a dek was learned').toBeGreaterThan(0);

    const sections = await boxesInReport(file);
    expect(sections).toHaveLength(2);
    for (const { pageId, boxes } of sections) {
      expect(rules!.learnedFrom).toContain(pageId);
      const features = await getJson(store(), keys.features(host, pageId), (v) => FeatureDocumentSchema.parse(v));
      const truth = pages.find((p) => pageIdOf(served.url(p.path)) === pageId)!;
      // the dek (standfirst) is the body's head when the rules tell it (docs/rules-document.md#dek)
      const dek = rules!.content.dek?.length ? [truth.description] : [];
      const paragraphs = new Set([...dek, ...truth.bodyText.split('\n')].map(normal).filter(Boolean));
      const blocks = features!.blocks.filter((b) => b.words > 0 && b.bbox.width > 0 && b.bbox.height > 0);
      const bodyBlocks = blocks.filter((b) => paragraphs.has(normal(b.text)));
      expect(bodyBlocks.length, 'blocks of the article body found').toBeGreaterThanOrEqual(paragraphs.size * 0.9);
      const body = boxes.filter((b) => b.kind === 'body');
      const clean = boxes.filter((b) => b.kind === 'clean');
      expect(body.length).toBeGreaterThan(0);

      // every paragraph of the article is inside a body box
      const missed = bodyBlocks.filter((b) => !body.some((box) => inside(b.bbox, box)));
      expect(missed.map((b) => b.text.slice(0, 60)), 'article blocks outside every body box').toEqual([]);
      // every body box holds an article paragraph, and no block but those and cleaned-out ones
      for (const box of body) {
        const within = blocks.filter((b) => inside(b.bbox, box));
        expect(within.some((b) => bodyBlocks.includes(b)), `body box at ${Math.round(box.x)},${Math.round(box.y)} holds an article paragraph`).toBe(true);
        const stray = within.filter((b) => !bodyBlocks.includes(b) && !clean.some((c) => inside(b.bbox, c)));
        expect(stray.map((b) => b.text.slice(0, 60)), 'blocks in a body box that are not the article').toEqual([]);
      }

      // the title box: one, on the headline, and not much larger
      const titles = boxes.filter((b) => b.kind === 'title');
      expect(titles).toHaveLength(1);
      const headline = blocks.find((b) => normal(b.text) === normal(truth.title));
      expect(headline, 'the headline block').toBeDefined();
      expect(inside(headline!.bbox, titles[0])).toBe(true);
      expect(titles[0].height).toBeLessThan(headline!.bbox.height * 1.5 + 4);
      expect(body.some((box) => inside(headline!.bbox, box)), 'the headline is not in the body').toBe(false);
    }
  });
});

describe('spider rules --report stopped', () => {
  it('on SIGTERM while it draws stops as the other commands do: exit 143, Chromium closed, no report file', { timeout: 180_000 }, async () => {
    // puppeteer's own SIGTERM handler closed the browser under the report, which failed on it: exit 1.
    const file = path.join(dataDir, 'stopped.html');
    const child = spawn(CLI_COMMAND, spiderArgs('--data-dir', dataDir, 'rules', host, '--report', file, '--pages', String(learned.length)), {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let ended = false;
    void exited.then(() => (ended = true));
    let chromium: number | undefined;
    try {
      // Once a page is seen drawn, the command is held (SIGSTOP) and looked at again, and stays held if
      // it still draws, so that the signal lands on what was seen whatever the machine's speed (a look
      // taken while it ran could see the last page drawn and the report be written before the signal).
      // Chromium leads a process group of its own, a child of the command; a page is being drawn once
      // a renderer runs in it beside the one of the browser's first blank page.
      const drawingNow = async () => {
        const all = await processes();
        chromium ??= all.find((p) => p.ppid === child.pid && p.pgid === p.pid)?.pid;
        return chromium !== undefined && all.filter((p) => p.pgid === chromium && p.args.includes('--type=renderer')).length >= 2;
      };
      let drawing = false;
      const lookUntil = Date.now() + 150_000; // short of the test's timeout, to say why
      while (!ended && !drawing && Date.now() < lookUntil) {
        if (await drawingNow()) {
          process.kill(child.pid!, 'SIGSTOP');
          drawing = await drawingNow();
          if (!drawing) process.kill(child.pid!, 'SIGCONT');
        }
        if (!drawing) await new Promise((r) => setTimeout(r, 50));
      }
      expect(ended, `the report ended before it was seen drawing: ${stderr}`).toBe(false);
      expect(drawing, `no page was seen drawn in 150 s (Chromium ${chromium ?? 'not seen'}): ${stderr}`).toBe(true);
      child.kill('SIGTERM');
      process.kill(child.pid!, 'SIGCONT');
      expect(await exited).toBe(143);
      expect(stderr).toContain('SIGTERM: stopping; the browser closes, no report is written');
      expect(stderr).not.toContain('wrote ');
      const left = (await processes()).filter((p) => p.pgid === chromium && !p.stat.startsWith('Z'));
      expect(left.map((p) => p.args.slice(0, 120)), 'Chromium left running').toEqual([]);
      // nothing written, not even in part under another name
      expect((await readdir(dataDir)).filter((name) => name.startsWith('stopped.html'))).toEqual([]);
    } finally {
      // a failed look leaves nothing running: the command (held or not) and its Chromium
      if (!ended) child.kill('SIGKILL');
      if (chromium !== undefined) killGroup(chromium);
    }
  });
});

describe('spider rules --report to a link, standard output, a folder that is not there', () => {
  it('writes through a link to standard output, as to any file it can open, and leaves the link', { timeout: 120_000 }, async () => {
    // 44b21f4 wrote <link>.<pid>.partial and renamed it over the link: nothing reached standard
    // output, and the link was replaced by a file (as root, --report /dev/stdout replaced /dev/stdout).
    const dir = await mkdtemp(path.join(os.tmpdir(), 'spider-report-out-'));
    const link = path.join(dir, 'out.html');
    await symlink('/dev/stdout', link);
    // its standard output a pipe, as in a shell (Node gives a child a socket, which /dev/stdout cannot open)
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', '"$@" | cat', 'sh', CLI_COMMAND, ...spiderArgs('--data-dir', dataDir, 'rules', host, '--report', link)], {
      env: { ...process.env, CI: 'true', SPIDER_BUCKET: '', SPIDER_STACK_OUTPUTS: '' },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr).toContain('1 page drawn');
    expect(stdout.startsWith('<!doctype html>'), 'the report on standard output').toBe(true);
    expect((await lstat(link)).isSymbolicLink(), 'the link left as it was').toBe(true);
    expect(await readdir(dir)).toEqual(['out.html']);
  });

  it('in a folder that does not exist: names the file asked for before drawing, exit 1, nothing made', { timeout: 120_000 }, async () => {
    const file = path.join(dataDir, 'no-such-folder', 'report.html');
    const result = await runSpider(dataDir, ['rules', host, '--report', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`'${file}'`);
    // said before a page is drawn: no browser started, no drawing's line
    expect(result.stderr).toContain('is not there (nothing drawn)');
    expect(result.stderr).not.toContain('.partial');
    await expect(access(path.dirname(file))).rejects.toThrow(/ENOENT/);
  });
});

describe('spider rules --report without a site', () => {
  it('says a site is needed and exits 1, writing nothing', { timeout: 60_000 }, async () => {
    const file = path.join(dataDir, 'no-site.html');
    const result = await runSpider(dataDir, ['rules', '--report', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--report needs a site');
    await expect(access(file)).rejects.toThrow();
  });
});

describe('spider rules --format postlight', () => {
  it("prints an extractor that Postlight Parser loads and that extracts the article of pages the learner never saw", { timeout: 120_000 }, async () => {
    const result = await runSpider(dataDir, ['rules', host, '--format', 'postlight']);
    expect(result.code).toBe(0);
    const extractor = JSON.parse(result.stdout);
    expect(extractor.domain).toBe(host);
    for (const p of unseen) {
      const url = served.url(p.path);
      const ours = await getJson(store(), keys.article(host, pageIdOf(url)), (v) => ArticleDocumentSchema.parse(v));
      expect(ours?.method).toBe('rules');
      const html = (await getText(store(), keys.snapshot(host, pageIdOf(url)))) ?? (await getText(store(), keys.served(host, pageIdOf(url))));
      const theirs = await parseWithPostlight(url, html!, extractor);
      expect(tokenF1(theirs.text, p.bodyText), `Postlight with the export on ${p.path}, against the generator's text`).toBeGreaterThan(0.9);
      expect(tokenF1(theirs.text, ours!.text), `against our article of ${p.path}`).toBeGreaterThanOrEqual(0.95);
      expect(theirs.title).toBe(p.title);
    }
  });
});

describe('the pages a report draws', () => {
  const mark = (kind: Mark['kind'], rule: string): Mark => ({ kind, rule, path: ':root', text: '' });
  const page = (id: string, ...marks: Mark[]) => ({ id, marks, invalidSelectors: [] });

  it('are each the page showing the most rules not shown yet, the newer of a tie: one of each template first', () => {
    const classic = [mark('body', 'article > p'), mark('header', 'p.dek'), mark('title', 'h1')];
    const blog = [mark('body', 'div.entry > p'), mark('title', 'h1')];
    const candidates = [page('classic-new', ...classic), page('classic-old', ...classic), page('blog', ...blog)];
    expect(pickPages(candidates, 1).map((p) => p.id)).toEqual(['classic-new']);
    expect(pickPages(candidates, 2).map((p) => p.id)).toEqual(['classic-new', 'blog']);
    expect(pickPages(candidates, 5).map((p) => p.id)).toEqual(['classic-new', 'blog', 'classic-old']);
  });

  it('count no rule for prose written bare between body elements: no selector takes it', () => {
    const bare: Mark = { kind: 'body', rule: BARE_PROSE_RULE, path: ':root', until: ':root', text: '' };
    const candidates = [page('bare', mark('body', 'article > p'), bare), page('header', mark('body', 'article > p'), mark('header', 'p.dek'))];
    expect(pickPages(candidates, 1).map((p) => p.id)).toEqual(['header']);
  });
});

describe('spider relearn', () => {
  it('learns the site again and says how many pages it extracted again and how many it left, their article the same', { timeout: 120_000 }, async () => {
    const url = served.url(pages[0].path);
    // A URL stands for its site.
    const first = await runSpider(dataDir, ['relearn', url]);
    expect(first.code).toBe(0);
    const said = /^relearned report\.localhost: rules v(\d+) from (\d+) pages?.*; (\d+) pages? extracted again, (\d+) not \(their article would not change\)$/m.exec(first.stdout);
    expect(said).not.toBeNull();
    expect(Number(said![3]) + Number(said![4])).toBe(pages.length);
    // The same pages again: the same rules, so no article would change and none is extracted again.
    const again = await runSpider(dataDir, ['relearn', 'report.localhost']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`relearned report.localhost: rules v${Number(said![1]) + 1} from ${said![2]} pages (they extract what v`);
    expect(again.stdout).toContain(`; 0 pages extracted again, ${pages.length} not (their article would not change)`);
    expect(again.stderr).toMatch(/^done: 0 rendered, 1 learn, 0 articles from 0 extractions, /m);

    const help = await runSpider(dataDir, ['relearn', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('then extract again its pages whose article the new rules may change');
  });
});
