import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config/config';
import { Renderer } from '../../lib/render/browser';
import { isNonRetryable } from '../../lib/util/errors';
import { BlockSchema, MAX_PATH_STEPS } from '../../lib/types/feature-document';
import { z } from 'zod';
import { gzipSync } from 'node:zlib';
import { createSinglebyteEncoder } from '@exodus/bytes/single-byte.js';
import { serveRoutes, type TestServer } from '../helpers/http-server';
import { extractWithRules } from '../../lib/apply/extract-with-rules';
import { parseHtml } from '../../lib/html/parse';
import { extractMetadata } from '../../lib/html/metadata';
import { renderStep, type RenderContext } from '../../lib/render/render-step';
import type { Queues } from '../../lib/queue/queue';
import { silentLogger } from '../../lib/step/context';
import { keys, pageIdOf } from '../../lib/store/keys';
import { MemoryStore } from '../../lib/store/memory-store';
import { decodeBytes } from '../../lib/text/encoding';
import { ENCODED_PAGES, UNDECLARED_SHIFT_JIS, type EncodedPage } from '../helpers/encoded-pages';

const page = `<!doctype html><html lang="en"><head><title>Live page</title>
<link rel="stylesheet" href="/style.css"></head>
<body><div id="main" class="story"><h1>Live headline</h1><p>Some body text here.</p>
<blockquote style="font-style: italic; font-size: 22px">A quote.</blockquote></div>
<img src="/pixel.png"></body></html>`;

/** Pages in legacy encodings, one of each way to name it (test/helpers/encoded-pages.ts), and one that names none. */
const ENCODED = [
  ...['shift_jis-meta', 'windows-1251-http-equiv', 'gbk-header', 'gb18030-meta', 'utf8-bom-wrong-meta', 'utf8-bom-wrong-header'].map((name) => ENCODED_PAGES.find((p) => p.name === name)!),
  UNDECLARED_SHIFT_JIS,
];
const SHIFT_JIS_META = ENCODED[0];
const WINDOWS_1251_META = ENCODED_PAGES.find((p) => p.name === 'windows-1251-meta')!;

/** A page in UTF-8 that names no encoding (Content-Type `text/html`, no <meta>, no BOM): Chromium reads such bytes as windows-1252. */
const UTF8_TITLE = 'Café naïve — “quoted”';
const UTF8_PARAGRAPHS = ['Le café était naïf — “cité” à la française.', 'Ещё один абзац, и 東京 тоже.'];
const utf8Page = (paragraphs: readonly string[]) =>
  `<!doctype html><html><head><title>${UTF8_TITLE}</title></head><body><article><h1>${UTF8_TITLE}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
const UNDECLARED_UTF8 = Buffer.from(utf8Page(UTF8_PARAGRAPHS));
/** An undeclared page in windows-1252 (not valid UTF-8): Chromium's reading of it stays as it was. */
const LATIN_PARAGRAPHS = ['Le café était naïf à la française, où l’on boit.', 'Ça coûte trois francs.'];
const UNDECLARED_WINDOWS_1252 = Buffer.from(createSinglebyteEncoder('windows-1252')(utf8Page(LATIN_PARAGRAPHS).replace(/[—“”]/g, '-')));

describe('Renderer (real Chromium)', () => {
  let server: TestServer;
  let renderer: Renderer;
  /** What `/stored` answers, as `text/html` with no charset: a stored file's bytes, as a browser opening it would get them. */
  let stored: Buffer = Buffer.alloc(0);

  beforeAll(async () => {
    server = await serveRoutes({
      '/article': { body: page },
      '/style.css': { type: 'text/css', body: 'p { color: rgb(200, 0, 0); }' },
      '/missing': { status: 404, body: 'gone' },
      '/doc.pdf': { type: 'application/pdf', body: Buffer.from('%PDF-1.4\n%%EOF') },
      '/flaky': { status: 503, body: 'busy' },
      '/big': { body: `<!doctype html><title>Big</title><body>${'<p></p>'.repeat(190_000)}${Array.from({ length: 5000 }, (_, i) => `<p>Paragraph ${i} of the article.</p>`).join('')}</body>` },
      '/loop': { status: 302, headers: { location: '/loop' }, body: '' },
      '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' }, body: '' },
      '/to-data': { status: 302, headers: { location: 'data:text/html,<p>x</p>' }, body: '' },
      '/to-about': { status: 302, headers: { location: 'about:blank' }, body: '' },
      '/to-ftp': { status: 302, headers: { location: 'ftp://ftp.example/pub/file.txt' }, body: '' },
      '/to-blank': { body: `<!doctype html><p>Leaving.</p><script>location.replace('about:blank');</script>` },
      '/spoof': {
        body: `<!doctype html><html><head><title>Spoof</title><meta name="spider:url" content="http://elsewhere.example/">
          <meta name="Spider:Readability-Title" content="Not the title"></head>
          <body><nav data-spider-readability="1"><a href="/">Home</a> <a href="/news">News</a></nav>
          <h1>The real story</h1><p>${'The first paragraph of the real story, long enough for Readability to keep it as the article. '.repeat(6)}</p>
          <p>${'A second paragraph of the story that Readability keeps as well, with its words and commas, and more. '.repeat(6)}</p></body></html>`,
      },
      '/lean': {
        body: `<!doctype html><html><head><title>Lean</title><meta name="Description" content="A lean story, told in one line."><style>p { color: rgb(0, 0, 200); }</style>
          <script type="application/ld+json">{"@type":"NewsArticle","headline":"Lean story"}</script>
          <script type="text/template"><p>template text</p></script></head>
          <body><!-- a comment --><h1>Lean story</h1><p id="lead">The story's first paragraph, styled blue.</p>
          <script>document.getElementById('lead').dataset.seen = 'yes';</script><p>The second paragraph.</p></body></html>`,
      },
      '/hidden': {
        body: `<!doctype html><html><head><title>Hidden</title><style>.mobile { display: none } .menu { display: none } @media (max-width: 600px) { .mobile { display: block } }</style></head>
          <body><svg style="display:none"><symbol id="icon"><path d="M0 0h1v1z"></path></symbol></svg>
          <nav class="menu"><ul><li>Home</li><li style="display:none">World</li></ul></nav><aside hidden><p>Already hidden.</p></aside>
          <div class="mobile"><div class="entry"><p>The council voted to widen the road, mobile copy.</p></div></div>
          <main><div class="entry"><p>The council voted to widen the road.</p><p style="color: gray">Filed under Roads.</p></div></main>
          <script>document.querySelector('main').insertAdjacentHTML('beforeend', '<div class="entry" style="display:none"><p>Shown on a click.</p></div>');</script></body></html>`,
      },
      '/object': {
        body: `<!doctype html><html><head><title>Object</title></head><body><main><p>The council voted to widen the road.</p>
          <object classid="clsid:d27cdb6e-ae6d-11cf-96b8-444553540000" width="320" height="180"><param name="movie" value="/player.swf">
          <object data="/player.swf" type="application/x-shockwave-flash" width="320" height="180"><param name="autoplay" value="false">
          <div class="caption"><p>The video shows the vote on the road.</p></div></object></object>
          <object data="/dot.png" type="image/png" width="10" height="10"><p class="alt">A picture of the road.</p></object></main></body></html>`,
      },
      '/object-bare': {
        body: `<!doctype html><html><head><title>Bare</title></head><body><main><p>The council voted to widen the road.</p>
          <p>Watch:<object data="/dot.png" type="image/png" width="10" height="10"> </object>the vote.</p>
          <object data="/dot.png" type="image/png" width="10" height="10">A picture of the road. <a href="/dot.png">Download it</a></object>
          <object data="/player.swf" type="application/x-shockwave-flash" width="320" height="180"><div style="display: contents"><p>The video shows the vote on the road.</p></div></object>
          <object data="/missing.png" type="image/png" width="10" height="10"><p>A picture of the road, missing.</p></object></main></body></html>`,
      },
      '/dot.png': { type: 'image/png', body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64') },
      '/idents': { body: `<!doctype html><title>Idents</title><body><div id="2up" class="-1col a:b"><o:p><p>Escaped text.</p></o:p></div></body>` },
      '/deep': { body: `<!doctype html><title>Deep</title><body>${'<div class="n">'.repeat(300)}<p>Deep article text.</p>${'</div>'.repeat(300)}</body>` },
      ...Object.fromEntries([...ENCODED, WINDOWS_1251_META].map((p) => [`/${p.name}`, { type: p.contentType, body: p.bytes }])),
      '/stored': () => ({ type: 'text/html', body: stored }),
      '/utf8-undeclared': { type: 'text/html', body: UNDECLARED_UTF8 },
      '/utf8-undeclared-gzip': { type: 'text/html', headers: { 'content-encoding': 'gzip' }, body: gzipSync(UNDECLARED_UTF8) },
      '/windows-1252-undeclared': { type: 'text/html', body: UNDECLARED_WINDOWS_1252 },
    });
    renderer = new Renderer(loadConfig({ navigationTimeoutMs: 10_000, renderTimeoutMs: 20_000 }));
  });
  afterAll(async () => {
    await renderer?.close();
    await server?.close();
  });

  it('renders a live page: blocks with boxes and CSS that differs from body, snapshot, metadata', async () => {
    const result = await renderer.render({ url: `${server.origin}/article` });
    const texts = result.collected.blocks.map((b) => b.text);
    expect(texts).toEqual(['Live headline', 'Some body text here.', 'A quote.']);
    const [h1, p, quote] = result.collected.blocks;
    expect(h1.bbox.width).toBeGreaterThan(1000); // 1600 px viewport
    expect(p.bbox.y).toBeGreaterThan(h1.bbox.y);
    expect(p.css.color).toBe('rgb(200, 0, 0)'); // the external stylesheet applied
    expect(quote.css['font-style']).toBe('italic');
    expect(h1.css['font-weight']).toBe('700');
    expect(result.collected.page.title).toBe('Live page');
    expect(result.snapshot).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta name="spider:url"/);
    expect(result.status).toBe(200);
    expect(server.hits.get('/style.css')).toBe(1);
  });

  it('leaves script code and comments out of the snapshot, keeping the elements, the JSON-LD and the style sheets', async () => {
    const result = await renderer.render({ url: `${server.origin}/lean` });
    const lead = result.collected.blocks.find((b) => b.text.startsWith("The story's first"));
    expect(result.collected.page.description).toBe('A lean story, told in one line.'); // a meta name read whatever its case
    expect(lead?.css.color).toBe('rgb(0, 0, 200)'); // the style applied while the page was rendered
    const snap = result.snapshot;
    expect(snap).toContain('data-seen="yes"'); // the page's script ran
    expect(snap).toContain('<script type="application/ld+json">{"@type":"NewsArticle","headline":"Lean story"}</script>');
    expect(snap).toContain('<style>p { color: rgb(0, 0, 200); }</style>'); // the report draws the snapshot with its styles
    expect(snap).toContain('<script type="text/template"></script>');
    expect(snap).toMatch(/<script><\/script><p[^>]*>The second paragraph\.<\/p>/);
    expect(snap).not.toMatch(/getElementById|template text|<!--/);
  });

  it("keeps spider's own <meta>s and Readability marks alone in the snapshot: a page's of the same names go", async () => {
    const url = `${server.origin}/spoof`;
    const result = await renderer.render({ url });
    const meta = extractMetadata(parseHtml(result.snapshot));
    expect(meta.spiderUrl).toBe(url);
    expect(result.snapshot.match(/name="spider:url"/gi)).toHaveLength(1);
    expect(result.snapshot).not.toMatch(/Not the title/);
    expect(result.snapshot).toMatch(/<nav>/); // its own data-spider-readability removed; Readability did not keep the nav
    expect(result.snapshot).toMatch(/<p data-spider-readability="1">The first paragraph/);
  });

  it('marks what the page lays out as display:none hidden in the snapshot, so apply leaves it out as the collector did', async () => {
    const result = await renderer.render({ url: `${server.origin}/hidden` });
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['The council voted to widen the road.', 'Filed under Roads.']);
    const doc = parseHtml(result.snapshot);
    // the stylesheet's mobile copy and menu, and what a script hid, are marked; what is shown is not
    expect(result.snapshot).toMatch(/<nav class="menu" hidden="">/);
    // only the outermost: what it holds, an element hidden already and an svg sprite are as they were
    expect(result.snapshot).toMatch(/<li style="display:none">World<\/li>/);
    expect(result.snapshot).toMatch(/<aside hidden="">/);
    expect(result.snapshot).toMatch(/<svg style="display:none">/);
    expect(result.snapshot).toMatch(/<div class="mobile" hidden="">/);
    expect(result.snapshot).toMatch(/<div class="entry" style="display:none" hidden="">/);
    expect(result.snapshot).toMatch(/<main[^>]*><div class="entry"[^>]*>/);
    expect(result.snapshot).not.toMatch(/<main[^>]*hidden|<div class="entry" hidden/);
    const taken = extractWithRules(doc, { selectors: ['div.entry > p'], clean: [] }).text;
    expect(taken).toBe('The council voted to widen the road.\nFiled under Roads.');
  });

  it("reads the fallback content of an <object> the browser cannot play, and marks hidden that of one showing its resource", async () => {
    const result = await renderer.render({ url: `${server.origin}/object` });
    // a Flash player inside an ActiveX one: neither plays, so the page shows the caption in their place
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['The council voted to widen the road.', 'The video shows the vote on the road.']);
    // the image is shown, its fallback text is not: marked, so apply leaves it out as the collector did
    expect(result.snapshot).toMatch(/<p class="alt" hidden="">/);
    expect(result.snapshot).not.toMatch(/<object[^>]*hidden|<div class="caption" hidden|<param[^>]*hidden/);
    const taken = extractWithRules(parseHtml(result.snapshot), { selectors: ['main p'], clean: [] }).text;
    expect(taken).toBe('The council voted to widen the road.\nThe video shows the vote on the road.');
  });

  it("reads an <object>'s fallback as the page shows it: not the bare text of a shown image; through a display: contents wrapper; an image that fails to load", async () => {
    const result = await renderer.render({ url: `${server.origin}/object-bare` });
    const shown = 'The council voted to widen the road.\nWatch: the vote.\nThe video shows the vote on the road.\nA picture of the road, missing.';
    expect(result.collected.blocks.map((b) => b.text).join('\n')).toBe(shown);
    // apply, which reads no layout, reads the same: the shown image's bare text is gone from the snapshot
    expect(result.snapshot).not.toContain('A picture of the road.');
    expect(result.snapshot).toContain('<a href="/dot.png" hidden="">Download it</a>');
    expect(extractWithRules(parseHtml(result.snapshot), { selectors: ['main'], clean: [] }).text).toBe(shown);
  });

  it('keeps a page nested deeper than the path cap: every block a valid feature-document block', async () => {
    const result = await renderer.render({ url: `${server.origin}/deep` });
    const blocks = z.array(BlockSchema).parse(result.collected.blocks);
    const deep = blocks.find((b) => b.text === 'Deep article text.')!;
    expect(deep.path).toHaveLength(MAX_PATH_STEPS);
    expect(deep.selector).toMatch(/^body div\.n > /);
  });

  it("writes block selectors with the page's CSS.escape: ids, classes and tags a selector cannot hold bare", async () => {
    const result = await renderer.render({ url: `${server.origin}/idents` });
    const block = result.collected.blocks.find((b) => b.text === 'Escaped text.')!;
    expect(block.selector).toBe('body > div#\\32 up.-\\31 col.a\\:b > o\\:p > p');
    expect(extractWithRules(parseHtml(result.snapshot), { selectors: [block.selector], clean: [] }).text).toBe('Escaped text.');
  });

  it('answers the document with archived HTML at the page URL and aborts other requests', async () => {
    const before = server.hits.get('/style.css') ?? 0;
    const archived = page.replace('Live headline', 'Archived headline');
    const result = await renderer.render({ url: `${server.origin}/never-fetched`, archivedHtml: archived });
    expect(result.collected.blocks[0].text).toBe('Archived headline');
    expect(result.finalUrl).toBe(`${server.origin}/never-fetched`);
    expect(server.hits.get('/never-fetched')).toBeUndefined();
    expect(server.hits.get('/style.css') ?? 0).toBe(before); // subresources aborted
    expect(result.collected.blocks[1].css.color).toBeUndefined();
  });

  it('an archived replay opens no live WebSocket (issue 18, item 4)', async () => {
    const archived = page.replace('Live headline', 'Archived headline').replace('</body>', `<script>new WebSocket('${server.origin.replace('http', 'ws')}/live-ws');</script></body>`);
    const result = await renderer.render({ url: `${server.origin}/never-fetched`, archivedHtml: archived });
    expect(result.collected.blocks[0].text).toBe('Archived headline');
    await renderer.render({ url: `${server.origin}/article` }); // a later render: any handshake has reached the server by then
    expect(server.hits.get('/live-ws')).toBeUndefined();
  });

  it('an archived replay opens no live WebSocket from a blob: worker either: the replay has no network at all (issue 18, item 4)', async () => {
    const ws = `${server.origin.replace('http', 'ws')}/worker-ws`;
    const worker = `<script>new Worker(URL.createObjectURL(new Blob([${JSON.stringify(`new WebSocket(${JSON.stringify(ws)});`)}], { type: 'text/javascript' })));</script>`;
    const archived = page.replace('Live headline', 'Archived headline').replace('</body>', `${worker}</body>`);
    const result = await renderer.render({ url: `${server.origin}/never-fetched`, archivedHtml: archived });
    expect(result.collected.blocks[0].text).toBe('Archived headline');
    await renderer.render({ url: `${server.origin}/article` }); // a later render: any handshake has reached the server by then
    expect(server.hits.get('/worker-ws')).toBeUndefined();
  });

  it('redirects to file:, data:, about:, ftp: and a redirect loop are non-retryable at once, each with its own reason (issue 18, item 9)', async () => {
    for (const [path, reason] of [['/loop', /redirect loop/], ['/to-file', /redirect to a non-http\(s\) URL/], ['/to-data', /redirect to a non-http\(s\) URL/], ['/to-about', /redirect to a non-http\(s\) URL/], ['/to-ftp', /redirect to a non-http\(s\) URL/]] as const) {
      const error = await renderer.render({ url: `${server.origin}${path}` }).then(() => undefined, (e: unknown) => e);
      expect(isNonRetryable(error), `${path}: ${String(error)}`).toBe(true);
      expect((error as Error).message).toMatch(reason);
    }
  });

  it('a page whose script takes it to about:blank is rendered as served, without its scripts (issue 14)', async () => {
    const result = await renderer.render({ url: `${server.origin}/to-blank` });
    expect(result.renderMode).toBe('no-script');
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['Leaving.']);
  });

  it('keeps the HTML as served of a page in a legacy encoding as the fetch path reads it: the encoding its <meta>, its Content-Type or a BOM names', async () => {
    const blockTexts = (blocks: readonly { text: string }[]) => blocks.map((b) => b.text).join('\n');
    for (const page of ENCODED) {
      const result = await renderer.render({ url: `${server.origin}/${page.name}` });
      // Chromium reads each page right (it guesses the undeclared one)
      for (const paragraph of page.paragraphs) expect(blockTexts(result.collected.blocks), page.name).toContain(paragraph);
      // the HTML as served: the text the fetch path reads from the same bytes
      expect(result.served, page.name).toBe(decodeBytes(page.bytes, page.contentType));
      if (page !== UNDECLARED_SHIFT_JIS) for (const paragraph of page.paragraphs) expect(result.served, page.name).toContain(paragraph);
    }
  });

  it('reads a page in UTF-8 that names no encoding as UTF-8, as the fetch path does: not as windows-1252, as Chromium would', async () => {
    for (const path of ['/utf8-undeclared', '/utf8-undeclared-gzip']) {
      const result = await renderer.render({ url: `${server.origin}${path}` });
      expect(result.collected.page.title, path).toBe(UTF8_TITLE);
      expect(result.collected.blocks.map((b) => b.text), path).toEqual([UTF8_TITLE, ...UTF8_PARAGRAPHS]);
      for (const text of [UTF8_TITLE, ...UTF8_PARAGRAPHS]) expect(result.snapshot, path).toContain(text);
      expect(result.served, path).toBe(decodeBytes(UNDECLARED_UTF8, 'text/html'));
    }
    // the pages it leaves alone: an undeclared legacy page (Chromium guesses it), and declared ones
    for (const page of [UNDECLARED_SHIFT_JIS, WINDOWS_1251_META]) {
      const result = await renderer.render({ url: `${server.origin}/${page.name}` });
      expect(result.collected.page.title, page.name).toBe(page.title);
      for (const paragraph of page.paragraphs) expect(result.collected.blocks.map((b) => b.text), page.name).toContain(paragraph);
    }
    const latin = await renderer.render({ url: `${server.origin}/windows-1252-undeclared` });
    expect(latin.collected.blocks.map((b) => b.text)).toEqual([UTF8_TITLE.replace(/[—“”]/g, '-'), ...LATIN_PARAGRAPHS]);
  });

  it("stores a legacy page's served.html and snapshot.html as UTF-8 that a browser reading the files' bytes reads right, its <meta charset> notwithstanding", async () => {
    const store = new MemoryStore();
    const queues = { apply: { send: async () => undefined }, learn: { send: async () => undefined }, render: { send: async () => undefined } } as unknown as Queues;
    const ctx: RenderContext = { store, queues, config: loadConfig({}), logger: silentLogger, renderer, feeds: { enabled: false } };
    const page: EncodedPage = SHIFT_JIS_META;
    const url = `${server.origin}/${page.name}`;
    await renderStep({ v: 1, url }, ctx);
    for (const key of [keys.served('127.0.0.1', pageIdOf(url)), keys.snapshot('127.0.0.1', pageIdOf(url))]) {
      stored = (await store.get(key))!.body;
      const result = await renderer.render({ url: `${server.origin}/stored` });
      for (const paragraph of page.paragraphs) expect(result.collected.blocks.map((b) => b.text), key).toContain(paragraph);
    }
  });

  it('a 1.4 MB page of 190,000 empty <p> then 5,000 paragraphs renders, its blocks found (issue 18, item 12)', async () => {
    const result = await renderer.render({ url: `${server.origin}/big` });
    expect(result.collected.blocks.some((b) => b.text === 'Paragraph 4999 of the article.')).toBe(true);
    expect(result.collected.blocks[result.collected.blocks.length - 1].path.at(-1)?.index).toBe(195_000);
  }, 60_000);

  it('dismisses alert, confirm and prompt dialogs instead of waiting on them', async () => {
    const dialogs = `<!doctype html><html><head><title>Dialogs</title><script>
      alert('hello'); const ok = confirm('sure?'); const name = prompt('name?');
      document.addEventListener('DOMContentLoaded', () => {
        document.getElementById('out').textContent = 'After the dialogs: confirm ' + ok + ', prompt ' + name + '.';
      });
    </script></head><body><p id="out">Never replaced.</p></body></html>`;
    const result = await renderer.render({ url: `${server.origin}/dialogs`, archivedHtml: dialogs });
    expect(result.collected.blocks.map((b) => b.text)).toEqual(['After the dialogs: confirm false, prompt null.']);
  });

  it('reuses one browser across renders and relaunches it when it dies', async () => {
    await renderer.render({ url: `${server.origin}/article` });
    const first = await renderer.browserPid();
    await renderer.render({ url: `${server.origin}/article` });
    expect(first).toBeDefined();
    expect(await renderer.browserPid()).toBe(first);
    process.kill(first!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const result = await renderer.render({ url: `${server.origin}/article` });
    expect(result.collected.blocks).toHaveLength(3);
    const relaunched = await renderer.browserPid();
    expect(relaunched).toBeDefined();
    expect(relaunched).not.toBe(first);
  });

  it('leaves no listener on the browser after a render (each one held its render result: memory grew per page)', async () => {
    await renderer.render({ url: `${server.origin}/article` });
    const { browser } = await (renderer as unknown as { browser: Promise<{ browser: import('puppeteer-core').Browser }> }).browser;
    const before = browser.listenerCount('disconnected');
    for (let i = 0; i < 3; i++) await renderer.render({ url: `${server.origin}/article` });
    await renderer.render({ url: `${server.origin}/missing` }).catch(() => undefined);
    expect(browser.listenerCount('disconnected')).toBe(before);
  });

  it('gives non-retryable errors for 4xx and non-HTML, retryable for 5xx', async () => {
    const missing = await renderer.render({ url: `${server.origin}/missing` }).catch((e) => e);
    expect(isNonRetryable(missing)).toBe(true);
    expect(String(missing.message)).toContain('HTTP 404');
    const flaky = await renderer.render({ url: `${server.origin}/flaky` }).catch((e) => e);
    expect(flaky).toBeInstanceOf(Error);
    expect(isNonRetryable(flaky)).toBe(false);
    const pdf = await renderer.render({ url: `${server.origin}/doc.pdf` }).catch((e) => e);
    expect(pdf).toBeInstanceOf(Error);
    expect(isNonRetryable(pdf)).toBe(true);
  });
});
