import { describe, expect, it } from 'vitest';
import { buildSelectors, measureSelectors } from '../../lib/learn/self-check';
import { parseSelector } from '../../lib/learn/consolidate';
import { makeBlock, makeDoc } from './factory';

/** A page of blocks given as [path, words, chosen]. */
function site(pages: Array<Array<[string, number, boolean]>>) {
  const docs = pages.map((blocks, i) =>
    makeDoc({ pageId: `p${i}`, blocks: blocks.map(([p, words]) => makeBlock({ text: Array(words).fill('w').join(' '), path: p })) }),
  );
  const chosen = pages.map((blocks) => blocks.map(([, , c]) => c));
  return { docs, chosen };
}
const options = { minSelectorPrecision: 0.5, maxSelectors: 200 };

describe('buildSelectors', () => {
  it('keeps a consolidated selector that matches only chosen blocks', () => {
    const { docs, chosen } = site([
      [['div.body:1 > p:1', 30, true], ['div.body:1 > p:2', 20, true], ['div.nav:2 > ul > li', 2, false]],
      [['div.body.x:1 > p:1', 40, true], ['div.nav:2 > ul > li', 2, false]],
    ]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > div.body > p']);
    expect(rules.selfCheck).toEqual({ pages: 2, recall: 1, precision: 1, adjusted: [] });
  });

  it('keeps one class per step where one separates as well as all (the posts shared a category)', () => {
    const post = 'article.post.hentry.category-web-tools:1 > div.entry-content.clearfix:1';
    const { docs, chosen } = site([
      [[`${post} > p:1`, 30, true], ['aside.sidebar:2 > div > p:1', 5, false]],
      [[`${post} > p:1`, 40, true], ['aside.sidebar:2 > div > p:1', 5, false]],
    ]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > article.post > div.entry-content > p']);
  });

  it('keeps the class that tells content from the rest, however rare', () => {
    const { docs, chosen } = site([
      [['div.box.story:1 > p:1', 30, true], ['div.box.promo:2 > p:1', 20, false]],
      [['div.box.story:1 > p:1', 40, true], ['div.box.promo:2 > p:1', 20, false]],
    ]);
    expect(buildSelectors(docs, chosen, options).selectors).toEqual(['body > div.story > p']);
  });

  it('tightens by splitting on the classes that separate content from the rest', () => {
    // body paragraphs and a pull quote share the tag sequence div > p with the comments;
    // intersected they give `body > div > p`, which would select the comments too
    const page: Array<[string, number, boolean]> = [
      ['div.article-body:1 > p:1', 50, true],
      ['div.article-body:1 > p:2', 40, true],
      ['div.pullquote:2 > p:1', 15, true],
      ['div.comments:3 > p:1', 30, false],
      ['div.comments:3 > p:2', 30, false],
    ];
    const { docs, chosen } = site([page, page]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > div.article-body > p', 'body > div.pullquote > p']);
    expect(rules.selfCheck.adjusted).toEqual([
      'tightened: body > div > p → body > div.article-body > p | body > div.pullquote > p',
    ]);
    expect(rules.selfCheck.precision).toBe(1);
    expect(rules.selfCheck.recall).toBe(1);
  });

  it('tightens with :nth-child where the chosen blocks share a position and classes cannot help', () => {
    const page: Array<[string, number, boolean]> = [
      ['div:1 > div:1 > p:1', 10, false],
      ['div:1 > div:2 > p:1', 50, true],
      ['div:1 > div:2 > p:2', 50, true],
      ['div:1 > div:3 > p:1', 20, false],
    ];
    const { docs, chosen } = site([page, page, page]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > div > div:nth-child(2) > p']);
    expect(rules.selfCheck.adjusted).toEqual(['tightened: body > div > div > p → body > div > div:nth-child(2) > p']);
    expect(parseSelector(rules.selectors[0])).not.toBeNull();
  });

  it('drops a selector that still selects mostly non-content', () => {
    const { docs, chosen } = site([
      [['div:1 > p:1', 5, true], ['div:1 > p:2', 50, false], ['main:2 > p:1', 40, true]],
      [['div:1 > p:1', 50, false], ['div:1 > p:2', 50, false], ['main:2 > p:1', 40, true]],
    ]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > main > p']);
    expect(rules.selfCheck.adjusted).toEqual(['dropped: body > div > p:nth-child(1) (from body > div > p) (precision 0.0909)']);
    // chosen words 85, selected 80 of them
    expect(rules.selfCheck.recall).toBeCloseTo(80 / 85, 4);
    expect(rules.selfCheck.precision).toBe(1);
  });

  it('does not tighten to leave out uncertain blocks, but counts them against precision', () => {
    const { docs, chosen } = site([
      [['div.body:1 > p:1', 30, true], ['div.body:1 > p:2', 10, false]],
      [['div.body:1 > p:1', 30, true]],
    ]);
    const uncertain = [[false, true], [false]];
    const rules = buildSelectors(docs, chosen, { ...options, uncertain });
    expect(rules.selectors).toEqual(['body > div.body > p']);
    expect(rules.selfCheck.adjusted).toEqual([]);
    expect(rules.selfCheck.precision).toBe(0.8571); // 60 of 70 words
    // without the flag, the other paragraph would pin the selector to :nth-child(1)
    expect(buildSelectors(docs, chosen, options).selectors).toEqual(['body > div.body > p:nth-child(1)']);
  });

  it('leaves pages where nothing was chosen out of the check', () => {
    const { docs, chosen } = site([
      [['div.body:1 > p:1', 30, true]],
      [['div.body:1 > p:1', 30, false]], // the learner found nothing on this page
    ]);
    const rules = buildSelectors(docs, chosen, options);
    expect(rules.selectors).toEqual(['body > div.body > p']);
    expect(rules.selfCheck.pages).toBe(1);
  });
});

describe('measureSelectors', () => {
  it('counts words: recall over chosen words, precision over selected words', () => {
    const { docs, chosen } = site([[['div.a > p', 60, true], ['div.b > p', 40, true], ['div.c > p', 20, false]]]);
    const m = measureSelectors(docs, chosen, [parseSelector('body > div.a > p')!, parseSelector('body > div.c > p')!]);
    expect(m).toEqual({ recall: 0.6, precision: 0.75, chosenWords: 100, selectedWords: 80 });
  });
});
