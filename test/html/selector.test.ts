import { describe, expect, it } from 'vitest';
import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { compileSelector, cssEscape, indexSelectors, selectOutermost } from '../../lib/html/selector';
import { elementOrder, parseHtml } from '../../lib/html/parse';

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

describe('indexSelectors and selectOutermost', () => {
  it('index a rules document\'s selector list once, naming the selectors that do not compile on every call', () => {
    const selectors = ['div.story > p', 'p[', 'h2'];
    const first: string[] = [];
    const index = indexSelectors(selectors, first);
    const again: string[] = [];
    expect(indexSelectors(selectors, again)).toBe(index);
    expect(first).toEqual(['p[']);
    expect(again).toEqual(['p[']);
    expect(index.size).toBe(2);
    // another list of the same selectors is indexed apart
    expect(indexSelectors([...selectors])).not.toBe(index);
  });

  it('take the outermost matches in document order, never inside what the collector skips or a hidden element, before `until`', () => {
    const doc = parseHtml(
      '<html><body><div class="s" id="a"><p class="s" id="in-a">x</p></div><noscript><div class="s" id="ns">y</div></noscript>' +
        '<div hidden><p class="s" id="hid">z</p></div><section><p class="s" id="b">w</p><p id="stop">v</p><p class="s" id="c">u</p></section></body></html>',
    );
    const index = indexSelectors(['.s']);
    const ids = (els: Element[]) => els.map((el) => el.attribs.id);
    expect(ids(selectOutermost(doc, index))).toEqual(['a', 'b', 'c']);
    const stop = elementOrder(doc).elements.find((el) => el.attribs.id === 'stop')!;
    expect(ids(selectOutermost(doc, index, stop))).toEqual(['a', 'b']);
    // under one element: its own matches
    const section = elementOrder(doc).elements.find((el) => el.name === 'section')!;
    expect(ids(selectOutermost(section, index))).toEqual(['b', 'c']);
    // a match holding `until` ends the walk before it
    const inA = elementOrder(doc).elements.find((el) => el.attribs.id === 'in-a')!;
    expect(ids(selectOutermost(doc, index, inA))).toEqual([]);
  });
});
