import { describe, expect, it } from 'vitest';
import { buildSelectors, measureSelectors } from '../../lib/learn/self-check';
import { parseSelector } from '../../lib/learn/consolidate';
import { makeBlock, makeDoc } from './factory';

/** A page of blocks given as [path, words, chosen, computed CSS]. */
function site(pages: Array<Array<[string, number, boolean, Record<string, string>?]>>) {
  const docs = pages.map((blocks, i) =>
    makeDoc({ pageId: `p${i}`, blocks: blocks.map(([p, words, , css]) => makeBlock({ text: Array(words).fill('w').join(' '), path: p, ...(css ? { css } : {}) })) }),
  );
  const chosen = pages.map((blocks) => blocks.map(([, , c]) => c));
  return { docs, chosen };
}
const options = { minSelectorPrecision: 0.5, maxSelectors: 200 };
type Spec = [string, number, boolean, Record<string, string>?];

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

  describe('blocks named apart at their own element', () => {
    const withKinds = { ...options, kindDistance: 0.5 };
    // a story's subhead, byline and body are named apart in one spot of the template, and look apart
    const SUBHEAD = { 'font-size': '20px', 'font-weight': '700' };
    const BYLINE = { 'font-size': '12px', color: 'rgb(102, 102, 102)' };
    const TIMESTAMP = { 'font-size': '11px', 'text-transform': 'uppercase', color: 'rgb(153, 153, 153)' };
    const story = (extra: (i: number) => Spec[] = () => []) => (i: number): Spec[] => [
      ['div#center:1 > div:1 > div.subhead:1', 20, true, SUBHEAD],
      ['div#center:1 > div:1 > div.byline:2', 5, true, BYLINE],
      ['div#center:1 > div:1 > div.body:3', 300, true],
      ...extra(i),
      ['div#rail:2 > ul > li', 4, false],
    ];
    const nameless = 'body > div#center > div > div';

    it('keeps a selector per name, and drops a nameless block chosen on one page that looks like none of them', () => {
      // intersected, `div#center > div > div` would take whatever the next page puts in that spot,
      // though it took nothing else on these pages
      const { docs, chosen } = site([0, 1, 2].map(story((i) => (i === 0 ? [['div#center:1 > div:1 > div:4', 6, true, TIMESTAMP]] : []))));
      const rules = buildSelectors(docs, chosen, withKinds);
      expect([...rules.selectors].sort()).toEqual([`${nameless}.body`, `${nameless}.byline`, `${nameless}.subhead`]);
      expect(rules.selfCheck.adjusted).toContain(`dropped: ${nameless} (chosen on one page, like no named block, with no name at its own element)`);
      expect(rules.selfCheck.precision).toBe(1);
      expect(rules.selfCheck.recall).toBeCloseTo(975 / 981, 4);
      // without a distance to tell kinds apart, the selector stays nameless
      expect(buildSelectors(docs, chosen, options).selectors).toEqual([nameless]);
    });

    it('keeps the nameless selector where a nameless block there is much of its page\'s, looks like a named one, or is chosen on several pages', () => {
      // a page's body without its class, and without the class's style: most of what its page shows there
      const body = site([0, 1, 2].map(story((i) => (i === 2 ? [['div#center:1 > div:1 > div:3', 280, true, TIMESTAMP]] : []))));
      expect(buildSelectors(body.docs, body.chosen, withKinds).selectors).toEqual([nameless]);
      // a short nameless line styled as the bylines
      const byline = site([0, 1, 2].map(story((i) => (i === 0 ? [['div#center:1 > div:1 > div:4', 6, true, BYLINE]] : []))));
      expect(buildSelectors(byline.docs, byline.chosen, withKinds).selectors).toEqual([nameless]);
      const twice = site([0, 1, 2].map(story((i) => (i < 2 ? [['div#center:1 > div:1 > div:4', 6, true, TIMESTAMP]] : []))));
      expect(buildSelectors(twice.docs, twice.chosen, withKinds).selectors).toEqual([nameless]);
    });

    it('needs two training pages to tell names apart', () => {
      const { docs, chosen } = site([story()(0)]);
      expect(buildSelectors(docs, chosen, withKinds).selectors).toEqual([nameless]);
    });

    it('does not split one kind of block that its names tell by position or by page', () => {
      // Drupal's li.first and li.last, and a longer list's nameless middle item: one kind of item
      const list = site([2, 2, 3].map((n) => [
        ['div.story:1 > ul:1 > li.first:1', 10, true],
        ...(n === 3 ? [['div.story:1 > ul:1 > li:2', 9, true] as Spec] : []),
        [`div.story:1 > ul:1 > li.last:${n}`, 12, true],
      ]));
      expect(buildSelectors(list.docs, list.chosen, withKinds).selectors).toEqual(['body > div.story > ul > li']);
      // a table's columns side by side: one kind of cell at different x
      const table = site([0, 1].map(() => [1, 2].map((n): Spec => [`div.entry:1 > table:1 > tbody:1 > tr.row-2:2 > td.column-${n}:${n}`, 6, true])));
      table.docs.forEach((d) => d.blocks.forEach((b, k) => (b.bbox = { x: 100 + 600 * k, y: 300, width: 580, height: 24 })));
      expect(buildSelectors(table.docs, table.chosen, withKinds).selectors).toEqual(['body > div.entry > table > tbody > tr.row-2 > td']);
      // a heading's id made from its text: h2#methods on one page is that page's
      const headings = site([[['div.entry:1 > h2#conclusion:1', 3, true, SUBHEAD]], [['div.entry:1 > h2#conclusion:1', 3, true, SUBHEAD]], [['div.entry:1 > h2#methods:1', 3, true, BYLINE]]]);
      expect(buildSelectors(headings.docs, headings.chosen, withKinds).selectors).toEqual(['body > div.entry > h2']);
    });

    it('splits on ids as on classes', () => {
      const { docs, chosen } = site([0, 1].map((): Spec[] => [
        ['main:1 > div#dek:1', 30, true, SUBHEAD],
        ['main:1 > div#story:2', 300, true],
      ]));
      expect([...buildSelectors(docs, chosen, withKinds).selectors].sort()).toEqual(['body > main > div#dek', 'body > main > div#story']);
    });
  });

  describe('chosen blocks named apart at every step (two layouts)', () => {
    // three pages of one layout, the first page of a redesign: the story's paragraphs are named at
    // every step, differently; a promo box sits at the same depth
    const old = (extra = ''): Spec[] => [[`div#content-container${extra}:1 > div.story-text:1 > p:1`, 60, true], ['div.rail:2 > div.promo:1 > p:1', 8, false]];
    const redesign = (): Spec[] => [['div#section-content:1 > div.article-text:1 > p:1', 70, true], ['div.sidebar:2 > div.latest:1 > p:1', 8, false]];
    const body = { ...options, kindDistance: 0.5 };
    const twoLayouts = ['body > div#content-container > div.story-text > p', 'body > div#section-content > div.article-text > p'];

    it('keeps a selector per layout, even one seen on a single page, not a nameless one', () => {
      const { docs, chosen } = site([old(), old(), old(), redesign()]);
      expect(buildSelectors(docs, chosen, body).selectors).toEqual(twoLayouts);
      // with nothing else at that depth on these pages, the nameless selector would still take
      // whatever the next page puts there
      const alone = site([old().slice(0, 1), old().slice(0, 1), redesign().slice(0, 1)]);
      expect(buildSelectors(alone.docs, alone.chosen, body).selectors).toEqual(twoLayouts);
      // a class some of the old layout's pages add does not part that layout
      const optional = site([old('.has-video'), old(), old('.has-video'), redesign()]);
      expect(buildSelectors(optional.docs, optional.chosen, body).selectors).toEqual(twoLayouts);
      // header and dek selectors (no kinds to compare) and a single judged page: the nameless selector as before
      expect(buildSelectors(docs, chosen, options).selectors).toEqual(['body > div:nth-child(1) > div > p']);
      const one = site([[old()[0], ['div#section-content:3 > div.article-text:1 > p:1', 70, true]]]);
      expect(buildSelectors(one.docs, one.chosen, body).selectors).toEqual(['body > div > div > p']);
    });

    it('keeps the nameless selector where a layout names nothing there, and a shared name where there is one', () => {
      const bare = site([old(), old(), [['div:1 > div:1 > p:1', 70, true]]]);
      expect(buildSelectors(bare.docs, bare.chosen, body).selectors).toEqual(['body > div:nth-child(1) > div > p']);
      const shared = site([old(), old(), [['div#content-container:1 > div.article-text:1 > p:1', 70, true]]]);
      expect(buildSelectors(shared.docs, shared.chosen, body).selectors).toEqual(['body > div#content-container > div > p']);
      // the blocks' own names under elements that name nothing are not this split's: a table's columns
      const table = site([0, 1].map(() => [1, 2].map((n): Spec => [`div:1 > table:1 > tbody:1 > tr:2 > td.column-${n}:${n}`, 6, true])));
      table.docs.forEach((d) => d.blocks.forEach((b, k) => (b.bbox = { x: 100 + 600 * k, y: 300, width: 580, height: 24 })));
      expect(buildSelectors(table.docs, table.chosen, body).selectors).toEqual(['body > div > table > tbody > tr > td']);
    });
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
