import { describe, expect, it } from 'vitest';
import { elementText, ownText } from '../../lib/html/element-text';
import { elements, parseHtml } from '../../lib/html/parse';

const first = (html: string, tag: string) => [...elements(parseHtml(html))].find((e) => e.name === tag)!;

describe('elementText', () => {
  it('parts block-level elements and <br> with a space, not inline ones', () => {
    expect(elementText(first('<div class="by"><p>Jane</p><p>Doe</p></div>', 'div'))).toBe('Jane Doe');
    expect(elementText(first('<div><span>Jane</span><span>Doe</span><br>March 3</div>', 'div'))).toBe('JaneDoe March 3');
    expect(elementText(first('<h1>Council <em>votes</em>\n  yes</h1>', 'h1'))).toBe('Council votes yes');
  });

  it('with lines, parts them with a line break, and reads the text\'s own line breaks as spaces', () => {
    expect(elementText(first('<div class="by"><p>Jane</p><p>Doe</p></div>', 'div'), Infinity, true)).toBe('Jane\nDoe');
    expect(elementText(first('<div>By <a>Jane\n Doe</a>\n\t<br> March 3, 2012\n</div>', 'div'), Infinity, true)).toBe('By Jane Doe\nMarch 3, 2012');
    expect(elementText(first(`<div>${'word<br>'.repeat(500)}</div>`, 'div'), 100, true).length).toBeGreaterThan(100);
  });

  it('leaves out scripts and form controls, and stops past maxChars', () => {
    expect(elementText(first('<div>Jane<script>var x = 1;</script><button>Follow</button> Doe</div>', 'div'))).toBe('Jane Doe');
    expect(elementText(first(`<div>${'word '.repeat(500)}</div>`, 'div'), 100).length).toBeGreaterThan(100);
  });

  it('ownText takes the element\'s own text nodes only', () => {
    expect(ownText(first('<h1>Title <span>March 3</span></h1>', 'h1'))).toBe('Title');
  });
});
