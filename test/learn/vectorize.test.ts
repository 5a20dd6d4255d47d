import { describe, expect, it } from 'vitest';
import { dbscan, NOISE } from '../../lib/learn/dbscan';
import { blockDistance, CATEGORICAL_FEATURES, clusterBlocks, DEFAULT_WEIGHTS, vectorizeBlock } from '../../lib/learn/vectorize';
import { makeBlock, makeDoc } from './factory';

const bodyCss = { 'font-size': '18px', 'line-height': '28px' };
const block = (p: string, css: Record<string, string> = bodyCss, x = 100, width = 800) =>
  makeBlock({ text: 'some words here', path: p, css, bbox: { x, y: 0, width, height: 20 } });

describe('vectorizeBlock', () => {
  it('takes structure without positions or generated names, CSS values, and geometry per viewport width', () => {
    const v = vectorizeBlock(
      block('div#main.wrap:2 > article.post-123:1 > div.body:3 > p.lead.x:4', { 'font-size': '18px', 'text-decoration-line': 'underline' }, 160, 800),
      1600,
    );
    const byName = Object.fromEntries(CATEGORICAL_FEATURES.map((f, i) => [f, v.values[i]]));
    expect(byName).toMatchObject({
      tag: 'p',
      parent: 'div.body',
      grandparent: 'article',
      tagPath: 'div>article>div>p',
      classPath: 'div#main.wrap>article>div.body',
      'font-size': '18px',
      'font-weight': '',
      'text-decoration': 'underline',
    });
    expect(v.classes).toEqual(['lead', 'x']);
    expect(v.x).toBe(0.1);
    expect(v.width).toBe(0.5);
  });
});

describe('blockDistance', () => {
  const vec = (p: string, css?: Record<string, string>, x?: number, w?: number) => vectorizeBlock(block(p, css, x, w), 1000);

  it('is 0 for the same element on another page, generated names and positions aside', () => {
    expect(blockDistance(vec('div.body.entry-1001:1 > p:2'), vec('div.body.entry-2002:3 > p:7'))).toBe(0);
  });

  it('adds the weight of each differing CSS property', () => {
    const d = blockDistance(vec('div.body > p'), vec('div.body > p', { ...bodyCss, 'font-style': 'italic', color: 'red' }));
    expect(d).toBeCloseTo(DEFAULT_WEIGHTS.categorical['font-style'] + DEFAULT_WEIGHTS.categorical.color, 12);
  });

  it('adds Jaccard distance of own classes and L1 of geometry', () => {
    expect(blockDistance(vec('div > p.a.b'), vec('div > p.a'))).toBeCloseTo(0.5 * DEFAULT_WEIGHTS.classes, 12);
    expect(blockDistance(vec('div > p', bodyCss, 100, 800), vec('div > p', bodyCss, 150, 700))).toBeCloseTo(2 * 0.05 + 2 * 0.1, 12);
  });

  it('keeps body paragraphs and comments apart when there is no CSS at all', () => {
    const d = blockDistance(vec('main > div.article > p', {}), vec('main > div.comment > p', {}));
    expect(d).toBeGreaterThan(0.5);
  });
});

describe('clusterBlocks', () => {
  const page = (id: string, withQuote: boolean) =>
    makeDoc({
      pageId: id,
      blocks: [
        ...['Home', 'News', 'Sport', 'About'].map((t, i) =>
          makeBlock({ text: t, path: `nav:1 > ul:1 > li:${i + 1}`, bbox: { x: 100 + 150 * i, y: 10, width: 140, height: 20 } }),
        ),
        ...[1, 2, 3].map((i) => block(`main:2 > div.article:1 > p:${i}`)),
        ...(withQuote ? [block('main:2 > div.article:1 > blockquote:4 > p:1', { 'font-style': 'italic' }, 140, 720)] : []),
        makeBlock({ text: '', path: 'main:2 > div.article:1 > p:5' }),
      ],
    });

  it('clusters across pages, dedupes identical vectors, leaves rare and empty blocks as noise', () => {
    const docs = [page('a', true), page('b', false), page('c', false)];
    const result = clusterBlocks(docs, { eps: 0.5, minPts: 4, minWords: 1 });
    // nav items: each li has its own x, 150px (0.09 of the viewport, distance 0.19) from the next: chained
    const labels = result.labels;
    const nav = labels.map((l) => l.slice(0, 4));
    const paragraphs = labels.map((l) => l.slice(4, 7));
    // every paragraph of every page in one cluster
    const p = paragraphs[0][0];
    expect(p).not.toBe(NOISE);
    expect(paragraphs.flat().every((l) => l === p)).toBe(true);
    // nav items cluster together, apart from the paragraphs
    expect(new Set(nav.flat()).size).toBe(1);
    expect(nav[0][0]).not.toBe(p);
    // one blockquote on one page: noise; the empty block: noise
    expect(labels[0][7]).toBe(NOISE);
    expect(labels[0][8]).toBe(NOISE);
    expect(result.clusters).toBe(2);
    // 4 nav positions + 1 paragraph vector + 1 blockquote vector
    expect(result.distinctVectors).toBe(6);
  });

  it('numbers the clusters alike whatever the order of the pages', () => {
    // the blockquote kind first in one order, after the nav and paragraphs in the other
    const quoted = (id: string) => makeDoc({ ...page(id, true), blocks: [page(id, true).blocks[7], ...page(id, true).blocks] });
    const docs = [page('a', false), page('b', false), quoted('c'), quoted('d'), quoted('e'), quoted('f')];
    const forward = clusterBlocks(docs, { eps: 0.5, minPts: 4, minWords: 1 });
    const backward = clusterBlocks([...docs].reverse(), { eps: 0.5, minPts: 4, minWords: 1 });
    expect(forward.clusters).toBe(3);
    expect([...backward.labels].reverse()).toEqual(forward.labels);
  });

  it('does not depend on how often a vector repeats being passed one by one', () => {
    const docs = [page('a', true), page('b', true), page('c', true), page('d', true)];
    const result = clusterBlocks(docs, { eps: 0.5, minPts: 4, minWords: 1 });
    const quotes = result.labels.map((l) => l[7]);
    expect(quotes.every((l) => l === quotes[0] && l !== NOISE)).toBe(true);
  });
});

/** `labels` with each cluster renamed to the label `like` gives its first block (NOISE kept). */
function renamedLike(labels: readonly number[], like: readonly number[]): number[] {
  const name = new Map<number, number>();
  labels.forEach((l, i) => l !== NOISE && !name.has(l) && name.set(l, like[i]));
  return labels.map((l) => (l === NOISE ? NOISE : name.get(l)!));
}

describe('clusterBlocks against plain DBSCAN', () => {
  // random blocks from a small vocabulary, so that many are alike and some are near
  function randomDocs(seed: number) {
    let a = seed;
    const rand = () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const parents = ['main:1 > div.body:1', 'main:1 > div.body.wide:1', 'main:1 > aside.side:2', 'nav:1 > ul:1'];
    const leaves = ['p', 'p.a', 'p.a.b', 'p.c', 'li', 'li.a'];
    const csses: Record<string, string>[] = [{}, { 'font-style': 'italic' }, { color: 'red' }, { color: 'red', 'font-size': '20px' }];
    return [0, 1, 2].map((d) =>
      makeDoc({
        pageId: `r${d}`,
        blocks: Array.from({ length: 60 }, (_, i) =>
          makeBlock({
            text: 'a few words',
            path: `${pick(parents)} > ${pick(leaves)}:${i + 1}`,
            css: pick(csses),
            bbox: { x: pick([100, 110, 140, 400]), y: 0, width: pick([800, 780, 300]), height: 20 },
          }),
        ),
      }),
    );
  }

  for (const classes of [1, 0.5]) {
    it(`gives the labels DBSCAN gives on every block (own classes weight ${classes})`, () => {
      const weights = { ...DEFAULT_WEIGHTS, classes };
      for (const seed of [1, 2, 3]) {
        const docs = randomDocs(seed);
        const fast = clusterBlocks(docs, { eps: 0.55, minPts: 3, minWords: 1, weights });
        const vectors = docs.flatMap((d) => d.blocks.map((b) => vectorizeBlock(b, d.viewport.width)));
        const plain = dbscan(vectors, 0.55, 3, (x, y) => blockDistance(x, y, weights));
        // the same clusters, numbered apart (clusterBlocks numbers them by their smallest vector)
        expect(renamedLike(fast.labels.flat(), plain)).toEqual(plain);
        expect(fast.distinctVectors).toBeLessThan(vectors.length);
        expect(fast.clusters).toBeGreaterThan(10);
        expect(plain.filter((l) => l === NOISE).length).toBeGreaterThan(10);
      }
    });
  }
});
