import { describe, expect, it } from 'vitest';
import { parseRuleSelector, parseSelector } from '../../lib/learn/consolidate';
import { selectorTakes, shortestSelectors } from '../../lib/learn/shorten';
import { extractWithRules } from '../../lib/html/extract-with-rules';
import { parseHtml } from '../../lib/html/parse';
import { makeBlock, makeDoc, path } from './factory';

const STORY = 'div#page > main.content > article.post > div.entry > p';
const steps = (selector: string) => parseSelector(selector)!;
const shortest = (selector: string, docs: Parameters<typeof shortestSelectors>[1]) => shortestSelectors([steps(selector)], docs)[0];

/** A page of the blocks at these paths (one block each). */
const page = (pageId: string, ...paths: string[]) => makeDoc({ pageId, blocks: paths.map((p, i) => makeBlock({ text: `block ${i} of ${pageId}`, path: p }, i)) });

describe('shortestSelectors', () => {
  it('writes a selector from the named container of what it takes, as a person would', () => {
    const docs = [page('a', STORY, 'div#page > nav.menu > ul > li', 'div#page > aside.related > p'), page('b', STORY, 'div#page > footer > p')];
    expect(shortest(`body > ${STORY}`, docs)).toBe('div.entry > p');
  });

  it('keeps a longer tail where a shorter one takes another element on a page it was learned from', () => {
    // a sidebar with its own div.entry paragraphs: `div.entry > p` would take them; the article's does not
    const docs = [page('a', STORY), page('b', STORY, 'div#page > aside.sidebar > div.entry > p')];
    expect(shortest(`body > ${STORY}`, docs)).toBe('article.post > div.entry > p');
    // and with another article's div.entry inside a box of the content: a longer tail still
    const inside = [...docs, page('c', STORY, 'div#page > main.content > aside.box > article.post > div.entry > p')];
    expect(shortest(`body > ${STORY}`, inside)).toBe('main.content > article.post > div.entry > p');
  });

  it('keeps the whole selector when no step above the element is named; from its first named step, it matches at any depth', () => {
    expect(shortest('body > div > main > p.lead', [page('a', 'div > main > p.lead')])).toBe('body > div > main > p.lead');
    const other = [page('a', 'div#page > div.entry > p', 'div#other > div.entry > p')];
    expect(shortest('body > div#page > div.entry > p', other)).toBe('div#page > div.entry > p');
  });

  it('counts a block as taken when the selector matches an ancestor of its element, as apply does', () => {
    // `div.main > div.entry` takes the list inside the footer's div.entry on page b, which the rules left out
    const docs = [page('a', 'div#page > div.main > div.entry > p'), page('b', 'div#page > div.main > div.entry > p', 'div#foot > div.main > div.entry > ul > li')];
    expect(shortest('body > div#page > div.main > div.entry', docs)).toBe('div#page > div.main > div.entry');
    expect(shortest('body > div#page > div.main > div.entry', docs.slice(0, 1))).toBe('div.main > div.entry');
  });

  it('writes each selector once, in order; the same content at two depths is one text', () => {
    // the article at two depths (a page with a wrapper more) is one selector once written from its container
    const docs = [page('a', STORY), page('b', `div.wrapper > ${STORY}`)];
    expect(shortestSelectors([steps(`body > ${STORY}`), steps(`body > div.wrapper > ${STORY}`), steps('body > div#page > main.content > article.post > div.entry > ul > li')], docs)).toEqual([
      'div.entry > p',
      'div.entry > ul > li',
    ]);
  });
});

describe('parseRuleSelector and selectorTakes', () => {
  it('reads a selector from body and a tail that matches at any depth', () => {
    expect(parseRuleSelector('body > div#page > p')).toEqual({ rooted: true, steps: steps('body > div#page > p') });
    expect(parseRuleSelector('div.entry > p:nth-child(2)')).toEqual({ rooted: false, steps: [{ tag: 'div', classes: ['entry'] }, { tag: 'p', classes: [], nthChild: 2 }] });
    for (const bad of ['div.entry p', 'div > body > p', 'p, div', '']) expect(parseRuleSelector(bad), bad).toBeNull();
    const tail = parseRuleSelector('div.entry > p')!;
    expect(selectorTakes(tail, path('div#page > div.entry > p'))).toBe(true);
    expect(selectorTakes(tail, path('div.entry > p > span'))).toBe(true);
    expect(selectorTakes(tail, path('div.entry > div > p'))).toBe(false);
    const rooted = parseRuleSelector('body > div.entry > p')!;
    expect(selectorTakes(rooted, path('div.entry > p'))).toBe(true);
    expect(selectorTakes(rooted, path('div#page > div.entry > p'))).toBe(false);
  });
});

describe('a shortened selector at apply', () => {
  it('takes the article on a page whose layout adds a wrapper above its container, which the selector from body misses', () => {
    const docs = [page('a', STORY, 'div#page > aside.related > p'), page('b', STORY)];
    const short = shortest(`body > ${STORY}`, docs);
    const html = `<html><body><div id="page"><div class="promo-wrapper"><main class="content"><article class="post"><div class="entry">
      <p>The council voted on Tuesday to widen the road.</p><p>Work starts in May.</p></div></article></main></div>
      <aside class="related"><p>Other stories</p></aside></div></body></html>`;
    const take = (selector: string) => extractWithRules(parseHtml(html), { selectors: [selector], clean: [] }).text;
    expect(take(`body > ${STORY}`)).toBe('');
    expect(take(short)).toBe('The council voted on Tuesday to widen the road.\nWork starts in May.');
  });
});
