import { describe, expect, it } from 'vitest';
import { blockSimilarities, cosine, idfTable, referenceTexts, termCounts, tfidf } from '../../lib/learn/tfidf';
import { makeBlock, makeDoc } from './factory';

describe('idf', () => {
  it('is log(N/df), exactly 0 for a term on every page', () => {
    const table = idfTable([
      ['apple', 'banana', 'footer'],
      ['apple', 'cherry', 'footer', 'footer'],
      ['durian', 'footer'],
    ]);
    expect(table.documents).toBe(3);
    expect(table.idf('footer')).toBe(0);
    expect(table.idf('apple')).toBeCloseTo(Math.log(3 / 2), 12);
    expect(table.idf('banana')).toBeCloseTo(Math.log(3), 12);
    expect(table.idf('unknown')).toBe(0);
  });

  it('is 1 for every term when there is a single page', () => {
    expect(idfTable([['apple', 'apple']]).idf('apple')).toBe(1);
  });
});

describe('tfidf and cosine', () => {
  it('weighs raw counts by idf and drops zero weights', () => {
    const table = idfTable([['a', 'b'], ['a']]);
    expect([...tfidf(termCounts(['a', 'b', 'b']), table)]).toEqual([['b', 2 * Math.log(2)]]);
  });

  it('cosine of hand-computed vectors', () => {
    expect(cosine(new Map([['x', 1], ['y', 1]]), new Map([['x', 1]]))).toBeCloseTo(1 / Math.SQRT2, 12);
    expect(cosine(new Map([['x', 3]]), new Map([['x', 1]]))).toBeCloseTo(1, 12);
    expect(cosine(new Map([['x', 1]]), new Map([['y', 1]]))).toBe(0);
    expect(cosine(new Map(), new Map([['y', 1]]))).toBe(0);
  });
});

describe('referenceTexts', () => {
  it('takes titles and descriptions once each, ignoring case and whitespace', () => {
    const doc = makeDoc({ pageId: 'p', title: 'Big  News', description: 'What happened', blocks: [] });
    doc.page.ogTitle = 'big news';
    doc.page.twitterDescription = 'Told briefly';
    doc.page.jsonLd = [{ headline: 'Big News', description: 'JSON-LD says' }];
    // the page's titles (JSON-LD's first) then its descriptions: one of the three spellings of the title
    expect(referenceTexts(doc.page)).toEqual(['Big News', 'JSON-LD says', 'Told briefly', 'What happened']);
  });
});

describe('blockSimilarities', () => {
  // Three pages; the footer is on every page, so it scores 0 wherever it appears.
  const page = (id: string, title: string, texts: string[]) =>
    makeDoc({ pageId: id, title, blocks: texts.map((text) => makeBlock({ text, path: 'div > p' })) });
  const docs = [
    page('a', 'banana', ['apple banana', 'footer']),
    page('b', 'cherry', ['apple cherry', 'footer']),
    page('c', 'durian', ['durian', 'footer']),
  ];
  const { similarity, vectors } = blockSimilarities(docs);

  it('scores a block against its own page reference with the site-wide idf', () => {
    // page a: block (apple: ln 1.5, banana: ln 3), reference (banana: ln 3)
    const expected = Math.log(3) / Math.hypot(Math.log(1.5), Math.log(3));
    expect(similarity[0][0]).toBeCloseTo(expected, 12);
    expect(similarity[0][0]).toBeCloseTo(0.93815, 5);
    expect(similarity[2][0]).toBeCloseTo(1, 12);
  });

  it('gives a term on every page score 0', () => {
    expect(similarity.map((s) => s[1])).toEqual([0, 0, 0]);
    expect(vectors.map((v) => v[1].size)).toEqual([0, 0, 0]);
    expect(vectors.map((v) => v[0].size)).toEqual([2, 2, 1]);
  });
});

/** Three recipe pages, each listing the titles of all three in a sidebar (as links, or as headings a script makes clickable). */
function listingSite(listing: { path: string; link?: boolean }) {
  const titles = ['apple pie', 'cherry tart', 'durian cake'];
  return titles.map((title, i) =>
    makeDoc({
      pageId: String(i),
      title,
      blocks: [makeBlock({ text: `${title} recipe`, path: 'main > p' }), ...titles.map((t) => makeBlock({ text: t, ...listing }))],
    }),
  );
}

describe('blockSimilarities and link lists', () => {
  it('leaves blocks that are mostly links out of the document frequencies', () => {
    // each page links the titles of all three pages: counted, every title word would have idf 0
    const docs = listingSite({ path: 'aside > ul > li', link: true });
    const { similarity, idf } = blockSimilarities(docs);
    expect(idf.df.get('appl')).toBe(1);
    expect(idf.idf('recip')).toBe(0);
    expect(similarity.map((s) => s[0])).toEqual([1, 1, 1].map(() => expect.closeTo(1, 12)));
  });

  it('leaves blocks found word for word on other pages out too, and scores them 0 (a listing of headings, not links)', () => {
    const docs = listingSite({ path: 'aside > ul > li > h3' });
    const { similarity, idf } = blockSimilarities(docs);
    expect(idf.df.get('appl')).toBe(1);
    expect(similarity.map((s) => s[0])).toEqual([1, 1, 1].map(() => expect.closeTo(1, 12)));
    // the listing's "apple pie" on page 0 is the site's, though it is page 0's title
    expect(similarity[0].slice(1)).toEqual([0, 0, 0]);
  });
});

describe('blockSimilarities over some of a site\'s pages', () => {
  // Two pages of one template, each with a teaser of the other's story (its words, not word for
  // word, and not as links), among the site's five pages.
  const story = (id: string, title: string, body: string, teaser: string) =>
    makeDoc({ pageId: id, title, blocks: [makeBlock({ text: body, path: 'div > p' }), makeBlock({ text: teaser, path: 'aside > p' })] });
  const template = [
    story('iran', 'clarkson in iran', 'viewers in iran love clarkson and his cars', 'why the class survey counts stately homes'),
    story('class', 'the class survey', 'the class survey asks about stately homes and wealth', 'how clarkson won viewers in iran'),
  ];
  const others = ['apples', 'harbour', 'orbit'].map((w) => story(w, `${w} news`, `the ${w} story told at length`, 'more news'));

  it('alone, the teasers give every title word idf 0: the stories score 0', () => {
    const { similarity } = blockSimilarities(template);
    expect(similarity.map((s) => s[0])).toEqual([0, 0]);
  });

  it('takes idf from the site\'s pages: each story scores against its own title', () => {
    const { similarity, idf } = blockSimilarities(template, [...template, ...others]);
    expect(idf.documents).toBe(5);
    expect(similarity).toHaveLength(2);
    for (const [body, teaser] of similarity) {
      expect(body).toBeGreaterThan(0.3);
      expect(body).toBeGreaterThan(teaser);
    }
  });
});
