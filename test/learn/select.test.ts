import { describe, expect, it } from 'vitest';
import { NOISE } from '../../lib/learn/dbscan';
import { articleRegion, contains, mainContainer, selectClusters, type SelectOptions } from '../../lib/learn/select';
import type { FeatureDocument } from '../../lib/types/feature-document';
import { makeBlock, makeDoc } from './factory';

interface Spec {
  path: string;
  bbox: [number, number, number, number];
  words: number;
  link?: boolean;
  label: number;
  sim: number;
  /** The block's TF-IDF terms (weight 1 each); default: 'topic' when sim > 0, else none. */
  terms?: string[];
}

function page(id: string, specs: Spec[]) {
  const doc = makeDoc({
    pageId: id,
    blocks: specs.map((s, k) =>
      makeBlock({
        text: Array(s.words).fill(`${id}w${k}`).join(' '),
        path: s.path,
        link: s.link,
        bbox: { x: s.bbox[0], y: s.bbox[1], width: s.bbox[2], height: s.bbox[3] },
      }),
    ),
  });
  const vectors = specs.map((s) => new Map((s.terms ?? (s.sim > 0 ? ['topic'] : [])).map((t) => [t, 1] as [string, number])));
  return { doc, labels: specs.map((s) => s.label), sim: specs.map((s) => s.sim), vectors };
}

function run(pages: ReturnType<typeof page>[], options: Partial<SelectOptions> = {}) {
  const docs: FeatureDocument[] = pages.map((p) => p.doc);
  return selectClusters(
    docs,
    pages.map((p) => p.labels),
    pages.map((p) => p.sim),
    { minWords: 1, bboxTolerance: 4, bboxMinShare: 0.5, minClusterScore: 0.001, minScoringShare: 0.5, ...options },
    pages.map((p) => p.vectors),
  );
}

// The article box spans x 100..900, y 100..250.
const article: Spec[] = [
  { path: 'main:1 > div.body:1 > p:1', bbox: [100, 100, 800, 50], words: 10, label: 0, sim: 0.5 },
  { path: 'main:1 > div.body:1 > p:2', bbox: [100, 200, 800, 50], words: 10, label: 0, sim: 0.3 },
  { path: 'main:1 > div.body:1 > blockquote:3 > p:1', bbox: [140, 160, 720, 30], words: 10, label: 1, sim: 0.1 },
  { path: 'main:1 > div.comments:2 > p:1', bbox: [100, 400, 800, 50], words: 10, label: 2, sim: 0.2 },
  { path: 'nav:2 > a:1', bbox: [100, 10, 100, 20], words: 10, link: true, label: 3, sim: 0.4 },
];

describe('selectClusters', () => {
  it('scores a cluster by its mean share of each page’s relevance (similarity × words not in links)', () => {
    // relevance per block: 5, 3, 1, 2, 0 — total 11 on each page
    const s = run([page('a', article), page('b', article)]);
    const score = Object.fromEntries(s.clusters.map((c) => [c.id, c.score]));
    expect(score[0]).toBeCloseTo(8 / 11, 12);
    expect(score[1]).toBeCloseTo(1 / 11, 12);
    expect(score[2]).toBeCloseTo(2 / 11, 12);
    expect(score[3]).toBe(0);
    expect(s.clusters.map((c) => c.id)).toEqual([0, 2, 1, 3]);
  });

  it('chooses the top cluster and the clusters inside its bounding box, not the ones outside', () => {
    const s = run([page('a', article), page('b', article)]);
    const chosen = Object.fromEntries(s.clusters.map((c) => [c.id, c.chosen]));
    expect(chosen).toEqual({ 0: true, 1: true, 2: false, 3: false });
    expect(s.clusters.find((c) => c.id === 0)!.reason).toBe('top-scoring cluster');
    expect(s.clusters.find((c) => c.id === 1)!.reason).toMatch(/^inside the top cluster's bounding box \(2 of 2 blocks\)$/);
    expect(s.chosen).toEqual([
      [true, true, true, false, false],
      [true, true, true, false, false],
    ]);
  });

  it('takes blocks under the element holding the top cluster even outside its box (a lede above)', () => {
    const lede: Spec = { path: 'main:1 > div.body:1 > p.lede:4', bbox: [100, 40, 800, 40], words: 10, label: 4, sim: 0.3 };
    const s = run([page('a', [...article, lede]), page('b', [...article, lede])]);
    expect(s.clusters.find((c) => c.id === 4)!.chosen).toBe(true);
  });

  it('takes zero-score blocks inside the box sharing the article’s words (subheads), not inline ads', () => {
    const subhead: Spec = { path: 'main:1 > div.body:1 > h2:5', bbox: [100, 152, 800, 6], words: 3, label: 5, sim: 0, terms: ['topic', 'x'] };
    const boiler: Spec = { path: 'main:1 > div.body:1 > div.ad:6', bbox: [100, 170, 800, 6], words: 1, label: 6, sim: 0, terms: ['refinance'] };
    const pages = [page('a', [...article, subhead, boiler]), page('b', [...article, subhead, boiler])];
    const s = run(pages);
    expect(s.clusters.find((c) => c.id === 5)!.chosen).toBe(true);
    expect(s.clusters.find((c) => c.id === 6)!.chosen).toBe(false);
    const strict = run(pages, { acceptUnscoredProse: false });
    expect(strict.clusters.find((c) => c.id === 5)!.chosen).toBe(false);
  });

  it('leaves out a scoring cluster inside the region that the page-level extractor leaves out (an inset), on evidence not names', () => {
    // an unnamed related-story inset inside the article's body: scores (shares the title's words)
    const inset: Spec = { path: 'main:1 > div.body:1 > div:4 > p:1', bbox: [100, 152, 800, 6], words: 6, label: 7, sim: 0.2 };
    const pages = [page('a', [...article, inset]), page('b', [...article, inset])];
    expect(run(pages).clusters.find((c) => c.id === 7)!.chosen).toBe(true);
    // the weak labels: the extractor kept the article's paragraphs and quote, not the inset
    const kept = (p: ReturnType<typeof page>) => p.doc.blocks.map((_, k) => k <= 2);
    const withLabels = (weak: Array<boolean[] | undefined>) =>
      selectClusters(
        pages.map((p) => p.doc),
        pages.map((p) => p.labels),
        pages.map((p) => p.sim),
        { minWords: 1, bboxTolerance: 4, bboxMinShare: 0.5, minClusterScore: 0.001, minScoringShare: 0.5 },
        pages.map((p) => p.vectors),
        weak,
      );
    expect(withLabels(pages.map(kept)).clusters.find((c) => c.id === 7)!.chosen).toBe(false);
    // a label that missed the article (kept nothing of the top cluster) does not judge
    expect(withLabels(pages.map((p) => p.doc.blocks.map((_, k) => k === 5))).clusters.find((c) => c.id === 7)!.chosen).toBe(true);
    // nor does a page without a label
    expect(withLabels([undefined, undefined]).clusters.find((c) => c.id === 7)!.chosen).toBe(true);
  });

  it('lets the page-level labels break a near tie for the top cluster: a short story over the comments quoting its title', () => {
    // the story: one block per page; the comments: many blocks scoring a little more in all
    const story: Spec = { path: 'main:1 > div.story:1 > p:1', bbox: [100, 100, 800, 50], words: 30, label: 0, sim: 0.5 };
    const comment = (k: number): Spec => ({ path: `main:1 > ul.comments:2 > li:${k} > p:1`, bbox: [100, 300 + 60 * k, 800, 50], words: 8, label: 1, sim: 0.5 });
    const specs = [story, ...[1, 2, 3, 4].map(comment)];
    const pages = [page('a', specs), page('b', specs), page('c', specs)];
    const select = (weak?: Array<boolean[] | undefined>, topLabelWeight?: number) =>
      selectClusters(
        pages.map((p) => p.doc),
        pages.map((p) => p.labels),
        pages.map((p) => p.sim),
        { minWords: 1, bboxTolerance: 4, bboxMinShare: 0.5, minClusterScore: 0.001, minScoringShare: 0.5, ...(topLabelWeight === undefined ? {} : { topLabelWeight }) },
        pages.map((p) => p.vectors),
        weak,
      );
    const top = (s: ReturnType<typeof select>) => s.clusters.find((c) => c.reason === 'top-scoring cluster')!.id;
    // relevance: the story 15, the comments 4 × 4 = 16 on each page
    expect(top(select())).toBe(1);
    // the single-page extractor kept the story on every page, none of the comments
    const labels = pages.map((p) => p.doc.blocks.map((_, k) => k === 0));
    expect(top(select(labels))).toBe(0);
    expect(top(select(labels, 0))).toBe(1);
    // a label that kept the comments as well decides nothing
    expect(top(select(pages.map((p) => p.doc.blocks.map(() => true))))).toBe(1);
  });

  it('does not take text found word for word on another page as the article’s (a rotating ad)', () => {
    const ad = (_id: string): Spec => ({ path: 'main:1 > div.body:1 > h3.ad:5', bbox: [100, 152, 800, 6], words: 3, label: 9, sim: 0, terms: ['topic'] });
    const pages = [page('a', [...article, ad('a')]), page('b', [...article, ad('b')])];
    // the same text on both pages
    pages[1].doc.blocks[5].text = pages[0].doc.blocks[5].text;
    expect(run(pages).clusters.find((c) => c.id === 9)!.chosen).toBe(false);
  });

  it('takes noise blocks inside the box that score, with text of their own page', () => {
    const quote: Spec = { path: 'main:1 > div.body:1 > blockquote.rare:8 > p:1', bbox: [140, 152, 720, 6], words: 6, label: NOISE, sim: 0.1, terms: ['elsewhere'] };
    const s = run([page('a', [...article, quote]), page('b', article)]);
    expect(s.chosen[0][5]).toBe(true);
    expect(s.uncertain[0][5]).toBe(false);
  });

  it('marks noise inside the box it did not take as uncertain', () => {
    const odd: Spec = { path: 'main:1 > div.body:1 > div.odd:8', bbox: [140, 152, 720, 6], words: 6, label: NOISE, sim: 0, terms: ['elsewhere'] };
    const s = run([page('a', [...article, odd]), page('b', article)]);
    expect(s.chosen[0][5]).toBe(false);
    expect(s.uncertain[0][5]).toBe(true);
    expect(s.uncertain[0].slice(0, 5)).toEqual([false, false, false, false, false]);
  });

  it('takes noise blocks inside the box sharing the article’s words, not the ones outside', () => {
    const inside: Spec = { path: 'main:1 > div.body:1 > div.note:7 > p:1', bbox: [100, 152, 800, 6], words: 4, label: NOISE, sim: 0.2 };
    const outside: Spec = { path: 'aside:3 > p:1', bbox: [1000, 120, 300, 40], words: 8, label: NOISE, sim: 0.2 };
    const s = run([page('a', [...article, inside, outside]), page('b', article)]);
    expect(s.chosen[0].slice(5)).toEqual([true, false]);
    expect(s.noise?.chosen).toBe(true);
    expect(run([page('a', [...article, inside])], { acceptNoiseInBox: false }).chosen[0][5]).toBe(false);
  });

  it('leaves out blocks inside the box named like boilerplate: captions, inline ads', () => {
    const caption: Spec = { path: 'main:1 > div.body:1 > figure:7 > figcaption:1', bbox: [100, 152, 800, 6], words: 4, label: NOISE, sim: 0.2 };
    const ad: Spec = { path: 'main:1 > div.body:1 > div.ad-inline:8 > p:1', bbox: [100, 160, 800, 6], words: 6, label: NOISE, sim: 0.1 };
    const s = run([page('a', [...article, caption, ad]), page('b', article)]);
    expect(s.chosen[0].slice(5)).toEqual([false, false]);
  });

  it('chooses another top cluster for pages of a second layout', () => {
    const feature: Spec[] = [
      { path: 'div.feature:1 > section:1 > p:1', bbox: [0, 300, 1200, 80], words: 40, label: 7, sim: 0.4 },
      { path: 'div.feature:1 > section:1 > p:2', bbox: [0, 400, 1200, 80], words: 40, label: 7, sim: 0.4 },
      { path: 'nav:2 > a:1', bbox: [100, 10, 100, 20], words: 10, link: true, label: 3, sim: 0.4 },
      { path: 'div.feature:1 > aside:2 > p:1', bbox: [0, 900, 1200, 40], words: 10, label: 8, sim: 0.05 },
    ];
    const s = run([page('a', article), page('b', article), page('c', feature)]);
    const c7 = s.clusters.find((c) => c.id === 7)!;
    expect(c7.chosen).toBe(true);
    expect(c7.reason).toMatch(/^top-scoring cluster on the 1 page\(s\)/);
    expect(s.clusters.find((c) => c.id === 8)!.chosen).toBe(false);
    expect(s.chosen[2]).toEqual([true, true, false, false]);
  });

  it('chooses nothing when nothing scores', () => {
    const flat = article.map((b) => ({ ...b, sim: 0 }));
    const s = run([page('a', flat)]);
    expect(s.clusters.every((c) => !c.chosen)).toBe(true);
    expect(s.chosen[0].every((c) => !c)).toBe(true);
  });
});

describe('regions', () => {
  const b = (p: string, words: number, y = 0) => makeBlock({ text: Array(words).fill('w').join(' '), path: p, bbox: { x: 0, y, width: 10, height: 10 } });

  it('mainContainer is the deepest element with the required share of words', () => {
    const blocks = [b('div:1 > main:2 > div:1 > p:1', 50), b('div:1 > main:2 > div:1 > p:2', 45), b('div:1 > footer:3 > p:1', 5)];
    expect(mainContainer(blocks, 0.9)).toEqual({ depth: 3, key: 'div:1>main:2>div:1' });
    expect(mainContainer(blocks, 0.99)).toEqual({ depth: 1, key: 'div:1' });
    expect(mainContainer([b('p:1', 5), b('p:2', 5)], 0.9)).toBeUndefined();
  });

  it('articleRegion ignores a stray block outside the container for the box', () => {
    const region = articleRegion([b('main:1 > p:1', 50, 100), b('main:1 > p:2', 50, 200), b('footer:2 > p:1', 5, 900)], 0.9);
    expect(region.box).toEqual({ x: 0, y: 100, width: 10, height: 110 });
  });

  it('contains allows the tolerance on every side', () => {
    const outer = { x: 100, y: 100, width: 100, height: 100 };
    expect(contains(outer, { x: 97, y: 100, width: 106, height: 100 }, 4)).toBe(true);
    expect(contains(outer, { x: 95, y: 100, width: 10, height: 10 }, 4)).toBe(false);
  });
});
