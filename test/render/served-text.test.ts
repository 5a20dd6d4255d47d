import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { generateSite, pageHtml, pagesOf } from '../../lib/demo';
import { servedTextLength, textLength } from '../../lib/render/served';

/** What the page counts: the HTML parsed as a browser parses it (jsdom here), counted by the in-page function. */
const inPage = (html: string) => textLength(new JSDOM(html).window.document.body);

describe('the served HTML text length, counted outside the page', () => {
  it('equals what the page counts on the same HTML', () => {
    const odd = [
      '<!doctype html><html><head><title>T</title><style>p{}</style></head><body>  <p>One  two</p>\n<p>three&nbsp;four &amp; five</p>  </body></html>',
      '<p>No head or body tags, <b>bold</b> and <script>var x = "not text";</script>tail</p>',
      '<html><body><noscript>Enable JavaScript</noscript><template><p>later</p></template><div>Emoji 😀 and\tCJK 漢字</div></body></html>',
      '',
      '<html><body>   </body></html>',
    ];
    const site = generateSite({ seed: 'served-text', pagesPerTemplate: 2, templates: 4 });
    const generated = pagesOf(site, { kind: 'article' }).map((p) => pageHtml(site, p.path, 'http://news.example'));
    for (const html of [...odd, ...generated]) expect(servedTextLength(html), html.slice(0, 80)).toBe(inPage(html));
    expect(servedTextLength(odd[0])).toBe('One two three four & five'.length);
    expect(servedTextLength(odd[2])).toBe('Emoji 😀 and CJK 漢字'.length - 1); // the emoji is one character
  });

  it('counts a page nested deeper than a call stack goes', () => {
    const depth = 100_000;
    expect(servedTextLength(`<body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}</body>`)).toBe('deep text'.length);
  });
});
