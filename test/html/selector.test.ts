import { describe, expect, it } from 'vitest';
import { parseDocument } from 'htmlparser2';
import { compileSelector, cssEscape } from '../../lib/html/selector';

describe('cssEscape', () => {
  it('escapes like CSS.escape', () => {
    expect(cssEscape('article-body')).toBe('article-body');
    expect(cssEscape('1col')).toBe('\\31 col');
    expect(cssEscape('-2x')).toBe('-\\32 x');
    expect(cssEscape('-')).toBe('\\-');
    expect(cssEscape('md:flex')).toBe('md\\:flex');
    expect(cssEscape('w-1/2')).toBe('w-1\\/2');
    expect(cssEscape('a b')).toBe('a\\ b');
    expect(cssEscape('café_ü')).toBe('café_ü');
    expect(cssEscape('a\u0001')).toBe('a\\1 ');
  });

  it('writes identifiers css-select reads back: a tag with a colon, a class starting with a digit', () => {
    const doc = parseDocument('<div class="1col"><o:p>Office</o:p></div>');
    const div = doc.children[0] as import('domhandler').Element;
    expect(compileSelector(`.${cssEscape('1col')}`)!(div)).toBe(true);
    expect(compileSelector(`${cssEscape('o:p')}`)!(div.children[0] as import('domhandler').Element)).toBe(true);
  });
});
