import { describe, expect, it, vi } from 'vitest';
import { formatArticle, stderrLogger } from '../../lib/cli/format';
import type { ArticleDocument } from '../../lib/types/article-document';

const article: ArticleDocument = {
  version: 1, pageId: 'p', url: 'https://news.example/a', site: 'news.example', title: 'Harbour vote', byline: 'Jane Doe',
  published: '2012-11-06', text: 'First paragraph.\nSecond paragraph.', html: '<p>First paragraph.</p><p>Second paragraph.</p>',
  wordCount: 4, method: 'rules', extractedAt: '2012-11-07T00:00:00Z', elapsedMs: 1,
};

describe('formatArticle', () => {
  it('puts a line of byline and date between title and body', () => {
    expect(formatArticle(article, 'text')).toBe('Harbour vote\nJane Doe · 2012-11-06\n\nFirst paragraph.\nSecond paragraph.');
    expect(formatArticle(article, 'markdown')).toBe('# Harbour vote\n\n*Jane Doe · 2012-11-06*\n\nFirst paragraph.\n\nSecond paragraph.');
  });

  it('shows the header as the page does when the rules gave one', () => {
    const withHeader = { ...article, header: 'The council voted at midnight\nBy Jane Doe, November 6, 2012' };
    expect(formatArticle(withHeader, 'text')).toBe('Harbour vote\nThe council voted at midnight\nBy Jane Doe, November 6, 2012\n\nFirst paragraph.\nSecond paragraph.');
    expect(formatArticle(withHeader, 'html')).toContain('<h1>Harbour vote</h1>\n<header><p>The council voted at midnight</p><p>By Jane Doe, November 6, 2012</p></header>\n<p>First');
  });

  it('prints the title once when the body starts with a heading that shows it (the single-page extractor keeps the headline)', () => {
    const headed = {
      ...article,
      title: 'Harbour Vote',
      text: 'Politics\nHarbour vote\nFirst paragraph.\nSecond paragraph.',
      html: '<p><a href="/politics">Politics</a></p><h1>Harbour  vote</h1><p>First paragraph.</p><p>Second paragraph.</p>',
    };
    expect(formatArticle(headed, 'text')).toBe('Harbour Vote\nJane Doe · 2012-11-06\n\nPolitics\nFirst paragraph.\nSecond paragraph.');
    expect(formatArticle(headed, 'markdown')).toBe('# Harbour Vote\n\n*Jane Doe · 2012-11-06*\n\n[Politics](/politics)\n\nFirst paragraph.\n\nSecond paragraph.');
    expect(formatArticle(headed, 'html')).toBe('<article>\n<h1>Harbour Vote</h1>\n<header><p>Jane Doe · 2012-11-06</p></header>\n<p><a href="/politics">Politics</a></p><p>First paragraph.</p><p>Second paragraph.</p>\n</article>');
    // The stored document is as extracted, and a heading further down or of other words stays.
    expect(JSON.parse(formatArticle(headed, 'json')).text).toBe(headed.text);
    const later = { ...headed, text: 'One.\nTwo.\nThree.\nHarbour vote', html: '<p>One.</p><p>Two.</p><p>Three.</p><h2>Harbour vote</h2>' };
    expect(formatArticle(later, 'html')).toContain('<h2>Harbour vote</h2>');
    expect(formatArticle(later, 'text')).toContain('Three.\nHarbour vote');
  });

  it('keeps headings, lists, quotes and captions in Markdown', () => {
    const structured = {
      ...article,
      html: '<p>Lead.</p><h2>The vote</h2><ul><li>Yes: 5</li><li>No: 2</li></ul><blockquote><p>We did it.</p></blockquote><figure><img src="https://news.example/a.jpg" alt="Hall"><figcaption>The council hall</figcaption></figure><ol><li>First</li></ol>',
    };
    const md = formatArticle(structured, 'markdown');
    expect(md).toContain('\n\nLead.\n\n## The vote\n\n-   Yes: 5\n-   No: 2\n\n> We did it.\n\n![Hall](https://news.example/a.jpg)\n\n*The council hall*\n\n1.  First');
    expect(formatArticle(structured, 'html')).toContain('<h2>The vote</h2><ul><li>Yes: 5</li>');
  });

  it('fences preformatted text, and gives data tables and struck text as GitHub Markdown', () => {
    const code = { ...article, html: '<p>Call it:</p><pre>fetch("/a").then((r) => {\n  use(`${r}`);\n});</pre><pre><code>x = 1</code></pre>' };
    expect(formatArticle(code, 'markdown')).toContain('Call it:\n\n```\nfetch("/a").then((r) => {\n  use(`${r}`);\n});\n```\n\n```\nx = 1\n```');
    // the language the clean HTML names, on the <code> or on the <pre>
    const named = { ...article, html: '<pre class="language-js"><code>let a;</code></pre><pre><code class="language-ts">let b: number;</code></pre>' };
    expect(formatArticle(named, 'markdown')).toContain('```js\nlet a;\n```\n\n```ts\nlet b: number;\n```');
    // a backtick run as long as the fence inside: the fence grows past it
    const ticks = { ...article, html: '<pre>a ``` b</pre>' };
    expect(formatArticle(ticks, 'markdown')).toContain('````\na ``` b\n````');
    const table = {
      ...article,
      html: '<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2012</td><td>5</td></tr></table><p><del>Old</del> figure.</p><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>',
    };
    // a table without a header row stays HTML: a GitHub table needs one
    expect(formatArticle(table, 'markdown')).toContain('| Year | Sales |\n| --- | --- |\n| 2012 | 5   |\n\n~~Old~~ figure.\n\n<table><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></tbody></table>');
    // a bar in a cell is escaped; a list in a cell, merged cells or a caption keep the table HTML; a table of no rows is no error
    const hard = {
      ...article,
      html:
        '<table><tr><th>A</th><th>B</th></tr><tr><td>a | b</td><td>or</td></tr></table>' +
        '<table><tr><th>A</th><th>B</th></tr><tr><td><ul><li>x</li></ul></td><td>z</td></tr></table>' +
        '<table><tr><th colspan="2">A</th></tr><tr><td>a</td><td>b</td></tr></table>' +
        '<table><caption>Sales</caption><tr><th>Year</th></tr><tr><td>2012</td></tr></table><table></table><p>After.</p>',
    };
    expect(formatArticle(hard, 'markdown').split('\n\n').slice(2)).toEqual([
      '| A   | B   |\n| --- | --- |\n| a \\| b | or  |',
      '<table><tbody><tr><th>A</th><th>B</th></tr><tr><td><ul><li>x</li></ul></td><td>z</td></tr></tbody></table>',
      '<table><tbody><tr><th colspan="2">A</th></tr><tr><td>a</td><td>b</td></tr></tbody></table>',
      '<table><caption>Sales</caption><tbody><tr><th>Year</th></tr><tr><td>2012</td></tr></tbody></table>',
      '<table></table>',
      'After.',
    ]);
    // the line breaks of a <pre> written as <br>, and every <code> in it
    const broken = { ...article, html: '<pre>line 1<br>  line 2</pre><pre><code>first</code>\nsecond</pre>' };
    expect(formatArticle(broken, 'markdown')).toContain('```\nline 1\n  line 2\n```\n\n```\nfirst\nsecond\n```');
  });

  it('prints no control characters a page put in its text, in any format', () => {
    const hostile = { ...article, title: 'Owned\x1b]0;retitled\x07', text: 'First\x1b[2J paragraph.\u009b31m\nSecond paragraph.', html: '<p>First\x1b[2J paragraph.</p>' };
    for (const format of ['text', 'markdown', 'html', 'json'] as const) {
      const out = formatArticle(hostile, format);
      expect(out, format).not.toMatch(/[\x1b\x07\u009b]/);
    }
    expect(formatArticle(hostile, 'text')).toContain('First[2J paragraph.31m\nSecond paragraph.');
    expect(JSON.parse(formatArticle(hostile, 'json'))).toEqual(hostile); // the same data, escaped
  });

  it('shows the steps\' warnings on stderr, one safe line each, and keeps info quiet', () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      stderrLogger.info('applied', { site: 'news.example' });
      stderrLogger.warn('article replaced by a much shorter one', { site: 'news.example', url: 'https://news.example/a\x1b[2J', wordsBefore: 900, wordsAfter: 12 });
    } finally {
      spy.mockRestore();
    }
    expect(written).toEqual(['warning: article replaced by a much shorter one site=news.example url=https://news.example/a[2J wordsBefore=900 wordsAfter=12\n']);
  });
});
