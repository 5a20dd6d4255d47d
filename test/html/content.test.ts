import { describe, expect, it } from 'vitest';
import type { Element } from 'domhandler';
import { renderContent } from '../../lib/html/content';
import { headAndBody, parseHtml } from '../../lib/html/parse';

describe('renderContent', () => {
  it('collapses white space of every kind to one space, in the text and the HTML, and keeps a <pre> as written', () => {
    // single spaces (left as they are), tabs, line breaks, no-break and wide spaces, runs of them, around inline elements
    const html =
      '<div><p>One two three</p><p>\n  Four\tfive\u00a0six  seven\n</p><p>eight <b>nine</b> ten <i> eleven </i>twelve</p>\n' +
      '<p>\u2003em\u2003space\u3000wide</p><pre>  keep\n\t as  is </pre><p>a&nbsp;&nbsp;b</p></div>';
    const { body } = headAndBody(parseHtml(html));
    const out = renderContent([body!.children[0] as Element]);
    expect(out.text).toBe('One two three\nFour five six seven\neight nine ten eleven twelve\nem space wide\nkeep\nas is\na b');
    expect(out.html).toBe(
      '<p>One two three</p><p>Four five six seven</p><p>eight <strong>nine</strong> ten <em>eleven </em>twelve</p><p>em space wide</p><pre>  keep\n\t as  is </pre><p>a b</p>',
    );
    expect(out.wordCount).toBe(20);
  });
});
