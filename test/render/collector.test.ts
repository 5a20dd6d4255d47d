import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { cssEscape } from '../../lib/html/selector';
import { extractMetadata } from '../../lib/html/metadata';
import { META_NAMES } from '../../lib/html/meta-names';
import { parseHtml } from '../../lib/html/parse';
import { collectPage, type CollectOptions, type LayoutSeam } from '../../lib/render/collector';
import { BlockSchema, MAX_PATH_STEPS, MAX_SELECTOR_CHARS } from '../../lib/types/feature-document';

const OPTIONS: CollectOptions = { maxBlocks: 100, maxPathSteps: MAX_PATH_STEPS, maxSelectorChars: MAX_SELECTOR_CHARS, metaNames: META_NAMES };

/** jsdom has no layout: a seam that reads display from tag names and invents boxes. */
const BLOCK = new Set(['div', 'p', 'h1', 'h2', 'ul', 'li', 'blockquote', 'article', 'nav', 'body', 'footer', 'section']);
const seam: LayoutSeam = {
  rect: (el) => ({ x: 0, y: Array.from(el.ownerDocument.querySelectorAll('*')).indexOf(el) * 10, width: 800, height: 10 }),
  style: (el, p) => {
    if (p === 'display') return BLOCK.has(el.tagName.toLowerCase()) ? 'block' : 'inline';
    if (p === 'font-style') return el.tagName === 'BLOCKQUOTE' ? 'italic' : 'normal';
    return '';
  },
  visible: (el) => !(el as HTMLElement).hidden,
  cssEscape, // jsdom has no CSS.escape
};

const html = `<!doctype html><html lang="en"><head><title>A Headline | News</title>
<meta property="og:title" content="A Headline"><meta name="description" content="What happened">
<link rel="alternate" type="application/rss+xml" href="/feed.xml" title="Feed">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle","headline":"A Headline","author":{"@type":"Person","name":"Jane Doe"},"datePublished":"2026-03-14"}]}</script>
</head><body>
<nav id="top"><a href="/">Home</a> <a href="/world">World</a></nav>
<div id="main" class="story wide"><h1>A Headline</h1>
<p>First <b>paragraph</b> with <a href="/x">a link</a>.</p>
<p>Second line<br>after a break</p>
<blockquote>Quoted words</blockquote>
<div hidden>hidden text</div>
<script>var x = "not text";</script>
</div></body></html>`;

describe('collectPage', () => {
  const { window } = new JSDOM(html);
  const page = collectPage(window.document, seam, OPTIONS);

  it('splits text into blocks at the closest block-level ancestor, in DOM order', () => {
    expect(page.blocks.map((b) => b.text)).toEqual([
      'Home World',
      'A Headline',
      'First paragraph with a link.',
      'Second line\nafter a break',
      'Quoted words',
    ]);
    expect(page.blocks.map((b) => b.order)).toEqual([0, 1, 2, 3, 4]);
  });

  it('records tag paths with ids, classes and positions, and a selector', () => {
    const p = page.blocks[2];
    expect(p.path).toEqual([
      { tag: 'div', id: 'main', classes: ['story', 'wide'], index: 2 },
      { tag: 'p', classes: [], index: 2 },
    ]);
    expect(p.selector).toBe('body > div#main.story.wide > p');
  });

  it('counts words and link text', () => {
    expect(page.blocks[2]).toMatchObject({ words: 5, linkWords: 2, linkChars: 6 });
    expect(page.blocks[0]).toMatchObject({ words: 2, linkWords: 2 });
  });

  it('keeps only CSS that differs from body', () => {
    expect(page.blocks[4].css).toEqual({ 'font-style': 'italic' });
    expect(page.blocks[2].css).toEqual({});
  });

  it('reads page metadata: titles, descriptions, JSON-LD in @graph, feeds, language', () => {
    expect(page.page).toMatchObject({
      title: 'A Headline | News',
      ogTitle: 'A Headline',
      description: 'What happened',
      lang: 'en',
      jsonLd: [{ type: 'NewsArticle', headline: 'A Headline', author: ['Jane Doe'], datePublished: '2026-03-14' }],
    });
    expect(page.page.feeds).toHaveLength(1);
    expect(page.page.feeds[0].title).toBe('Feed');
  });

  it('reads meta names whatever their case, as browsers do', () => {
    const upper = new JSDOM(`<!doctype html><html><head><title>T</title><META NAME="Description" CONTENT="What happened, told in one line">
      <meta name="AUTHOR" content="Jane Doe"><meta property="OG:TITLE" content="A Headline"></head><body><p>Text.</p></body></html>`);
    expect(collectPage(upper.window.document, seam, OPTIONS).page).toMatchObject({ description: 'What happened, told in one line', author: 'Jane Doe', ogTitle: 'A Headline' });
    // an empty one is passed over, whatever its case
    const empty = new JSDOM(`<!doctype html><html><head><meta name="Description" content=" "><meta name="description" content="The real summary"></head><body></body></html>`);
    expect(collectPage(empty.window.document, seam, OPTIONS).page.description).toBe('The real summary');
  });

  it('reads the author and date under every name the apply step\'s metadata reads', () => {
    const html = `<!doctype html><html><head><title>T</title><meta name="parsely-author" content="Jane Doe">
      <meta name="DC.date.issued" content="2012-11-06"></head><body><p>Text.</p></body></html>`;
    const collected = collectPage(new JSDOM(html).window.document, seam, OPTIONS).page;
    expect(collected).toMatchObject({ author: 'Jane Doe', published: '2012-11-06' });
    expect(extractMetadata(parseHtml(html))).toMatchObject({ byline: 'Jane Doe', published: '2012-11-06' });
    // a meta keyed by its property before its name, as the metadata keys it
    const both = `<!doctype html><html><head><meta property="og:title" name="title" content="A Headline"></head><body></body></html>`;
    expect(collectPage(new JSDOM(both).window.document, seam, OPTIONS).page).toMatchObject({ ogTitle: 'A Headline' });
    expect(collectPage(new JSDOM(both).window.document, seam, OPTIONS).page.metaTitle).toBeUndefined();
  });

  it('stops at the block cap', () => {
    expect(collectPage(window.document, seam, { ...OPTIONS, maxBlocks: 2 }).blocks).toHaveLength(2);
  });
});

describe('collectPage on a page nested deeper than the path cap', () => {
  // 300 nested divs around the article: the page is kept, the recorded path is cut to its deepest steps.
  const depth = 300;
  const deep = `<!doctype html><html><head><title>Deep</title></head><body>${'<div class="n">'.repeat(depth)}<p id="story">Deep article text.</p>${'</div>'.repeat(depth)}</body></html>`;
  const { window } = new JSDOM(deep);
  const page = collectPage(window.document, seam, OPTIONS);
  const block = page.blocks.find((b) => b.text === 'Deep article text.')!;

  it('records the block with a valid path and a selector that still finds it', () => {
    expect(() => BlockSchema.parse(block)).not.toThrow();
    expect(block.path).toHaveLength(MAX_PATH_STEPS);
    expect(block.path.at(-1)).toMatchObject({ tag: 'p', id: 'story' });
    expect(block.selector.startsWith('body div.n > ')).toBe(true);
    expect(window.document.querySelectorAll(block.selector)).toHaveLength(1);
    expect(window.document.querySelector(block.selector)?.id).toBe('story');
  });

  it('escapes ids, classes and tags, so the selector finds its block', () => {
    const names = ['-1col', '2up', '-', 'a:b', 'w-1/2', 'café', 'x\u00a0y', 'a\u0001', 'a\u007f', 'a\nb'];
    for (const name of names) {
      const { window: w } = new JSDOM(`<body><div id="${name}" class="${name}"><p>Text.</p></div></body>`);
      const [b] = collectPage(w.document, seam, OPTIONS).blocks;
      const classes = [...w.document.querySelector('div')!.classList].map((c) => '.' + cssEscape(c)).join('');
      expect(b.selector).toBe(`body > div#${cssEscape(name)}${classes} > p`);
      expect(w.document.querySelector(b.selector)?.textContent, JSON.stringify(name)).toBe('Text.');
    }
    // a tag with a colon (Word's o:p)
    const { window: w } = new JSDOM(`<body><div><o:p><p>Text.</p></o:p></div></body>`);
    const [b] = collectPage(w.document, seam, OPTIONS).blocks;
    expect(b.selector).toBe('body > div > o\\:p > p');
    expect(w.document.querySelector(b.selector)?.textContent).toBe('Text.');
  });

  it('keeps a selector within its cap when the steps carry long class names', () => {
    const long = 'c'.repeat(200);
    const { window: w } = new JSDOM(`<body>${`<div class="${long}">`.repeat(60)}<p>Text.</p>${'</div>'.repeat(60)}</body>`);
    const [b] = collectPage(w.document, seam, OPTIONS).blocks;
    expect(() => BlockSchema.parse(b)).not.toThrow();
    expect(b.selector.length).toBeLessThanOrEqual(MAX_SELECTOR_CHARS);
    expect(w.document.querySelector(b.selector)?.textContent).toBe('Text.');
  });
});
