/**
 * Block → feature vector, and the clustering of all blocks of a site's pages at once (Zhou & Sun §4).
 *
 * Discrete features are what the paper one-hot encodes: the block's tag, its parent and grandparent
 * (tag#id.class), its tag path, its ancestors' class path (tag#id.class per step), its own classes, and
 * computed CSS properties that differ from <body>'s. Two one-hot vectors differ in exactly the
 * dimensions of the features whose values differ, so the distance is computed on the values directly
 * (weighted Hamming, Jaccard for the class set) without materializing the dimensions. Continuous
 * features are the block's x and width as fractions of the viewport width (L1). Height and y are
 * left out: they vary with the text.
 *
 * Pages rendered without their stylesheets have almost no CSS differences and nearly equal geometry;
 * the structural features then still tell body paragraphs from comments or sidebars. Generated names
 * (post-12345, css-1dbjc4n) are ignored so the same element on different pages gets the same vector.
 */
import type { Block, FeatureDocument } from '../types/feature-document';
import { dbscan, NOISE } from './dbscan';
import { stableClasses, stepSignature } from './names';

export const CSS_FEATURES = [
  'font-size',
  'font-weight',
  'font-family',
  'font-style',
  'color',
  'text-align',
  'line-height',
  'text-decoration',
  'display',
  'background-color',
  'text-transform',
  'letter-spacing',
  'white-space',
  'float',
  'position',
  'list-style-type',
  'border-left-style',
] as const;

export const STRUCTURE_FEATURES = ['tag', 'parent', 'grandparent', 'tagPath', 'classPath'] as const;

/** Names of the categorical features, in the order of BlockVector.values. */
export const CATEGORICAL_FEATURES: readonly string[] = [...STRUCTURE_FEATURES, ...CSS_FEATURES];

export interface FeatureWeights {
  /** Per categorical feature (CATEGORICAL_FEATURES), the distance added when values differ. */
  readonly categorical: Readonly<Record<string, number>>;
  /** Multiplies the Jaccard distance of the block's own class sets. */
  readonly classes: number;
  /** Per unit of x / viewport width. */
  readonly x: number;
  /** Per unit of width / viewport width. */
  readonly width: number;
}

/**
 * Structure weighs 1 per feature (grandparent and class path 0.5, they repeat the others in part),
 * a CSS property 0.5 or 0.25 (the ones that vary inside content or say little), own classes 1 for
 * disjoint sets. With eps 0.5, blocks cluster together when they differ by one CSS property or a few
 * percent of the viewport in position, and apart when any structural feature differs.
 */
export const DEFAULT_WEIGHTS: FeatureWeights = {
  categorical: {
    tag: 1,
    parent: 1,
    grandparent: 0.5,
    tagPath: 1,
    classPath: 0.5,
    'font-size': 0.5,
    'font-weight': 0.5,
    'font-family': 0.5,
    'font-style': 0.5,
    color: 0.5,
    'text-align': 0.25,
    'line-height': 0.25,
    'text-decoration': 0.25,
    display: 0.5,
    'background-color': 0.5,
    'text-transform': 0.25,
    'letter-spacing': 0.25,
    'white-space': 0.25,
    float: 0.25,
    position: 0.25,
    'list-style-type': 0.25,
    'border-left-style': 0.25,
  },
  classes: 1,
  x: 2,
  width: 2,
};

export interface BlockVector {
  /** Categorical values in the order of CATEGORICAL_FEATURES ('' = absent / same as body). */
  readonly values: readonly string[];
  /** The block's own stable classes, sorted. */
  readonly classes: readonly string[];
  /** x and width as fractions of the viewport width, rounded to 0.01. */
  readonly x: number;
  readonly width: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

export function vectorizeBlock(block: Block, viewportWidth: number): BlockVector {
  const path = block.path;
  const n = path.length;
  const last = path[n - 1];
  const css = block.css;
  const cssValue = (p: string) => (p === 'text-decoration' ? (css['text-decoration-line'] ?? css[p]) : css[p]) ?? '';
  const values = [
    last?.tag ?? '',
    n >= 2 ? stepSignature(path[n - 2]) : '',
    n >= 3 ? stepSignature(path[n - 3]) : '',
    path.map((s) => s.tag).join('>'),
    path.slice(0, -1).map(stepSignature).join('>'),
    ...CSS_FEATURES.map(cssValue),
  ];
  const vw = viewportWidth > 0 ? viewportWidth : 1;
  return {
    values,
    classes: last ? stableClasses(last) : [],
    x: round2(block.bbox.x / vw),
    width: round2(block.bbox.width / vw),
  };
}

/** 1 − |a ∩ b| / |a ∪ b| of two sorted, duplicate-free lists; 0 for two empty ones. */
function jaccardDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return 1 - common / (a.length + b.length - common);
}

function categoricalWeights(weights: FeatureWeights): number[] {
  return CATEGORICAL_FEATURES.map((f) => weights.categorical[f] ?? 0);
}

/** Weighted Hamming on the categorical values + Jaccard on the classes + L1 on x and width. */
export function blockDistance(a: BlockVector, b: BlockVector, weights: FeatureWeights = DEFAULT_WEIGHTS): number {
  const w = categoricalWeights(weights);
  let d = 0;
  for (let i = 0; i < w.length; i++) if (a.values[i] !== b.values[i]) d += w[i];
  d += weights.classes * jaccardDistance(a.classes, b.classes);
  d += weights.x * Math.abs(a.x - b.x) + weights.width * Math.abs(a.width - b.width);
  return d;
}

export interface ClusterOptions {
  readonly eps: number;
  readonly minPts: number;
  /** Blocks with fewer words are not clustered (label NOISE). */
  readonly minWords: number;
  readonly weights?: FeatureWeights;
}

export interface ClusterResult {
  /** Per document, per block: cluster id (0, 1, ..., in the order of their smallest vector) or NOISE. */
  readonly labels: number[][];
  readonly clusters: number;
  /** Distinct vectors DBSCAN ran on (identical blocks are merged and counted). */
  readonly distinctVectors: number;
}

const EPSILON = 1e-9;

/** Whether two blocks this far apart are neighbours at `eps`: the clustering's test, with its rounding tolerance. */
export function withinEps(distance: number, eps: number): boolean {
  return distance <= eps + EPSILON;
}

/** Whether clustering takes the block (the learner's evidence): words enough, and text. */
export function isClusteredBlock(block: Block, minWords: number): boolean {
  return block.words >= minWords && block.text.trim() !== '';
}

/**
 * DBSCAN over every block of every page. Identical vectors are clustered once with their count as
 * weight; neighbours are found per distinct categorical signature (signature pairs farther apart than
 * eps are skipped) and, inside a signature pair, by a sweep over x.
 */
export function clusterBlocks(docs: readonly FeatureDocument[], options: ClusterOptions): ClusterResult {
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const catW = categoricalWeights(weights);
  const eps = options.eps;

  // distinct vectors, in first-seen order
  interface Point {
    sig: number;
    x: number;
    width: number;
  }
  const points: Point[] = [];
  const counts: number[] = [];
  const pointIndex = new Map<string, number>();
  const sigIndex = new Map<string, number>();
  const sigs: BlockVector[] = [];
  const sigKeys: string[] = [];
  const blockPoint: number[][] = docs.map((doc) =>
    doc.blocks.map((block) => {
      if (!isClusteredBlock(block, options.minWords)) return -1;
      const v = vectorizeBlock(block, doc.viewport.width);
      const sigKey = v.values.join('\u0001') + '\u0002' + v.classes.join(' ');
      let sig = sigIndex.get(sigKey);
      if (sig === undefined) {
        sig = sigs.length;
        sigs.push(v);
        sigKeys.push(sigKey);
        sigIndex.set(sigKey, sig);
      }
      const key = sig + '|' + v.x + '|' + v.width;
      let p = pointIndex.get(key);
      if (p === undefined) {
        p = points.length;
        points.push({ sig, x: v.x, width: v.width });
        counts.push(0);
        pointIndex.set(key, p);
      }
      counts[p]++;
      return p;
    }),
  );

  // Categorical distance between signatures, kept when within eps. Signatures that differ in a
  // feature weighing more than eps are never neighbours, so only signatures alike in all of those are
  // compared; when disjoint class sets alone are farther apart than eps, only signatures sharing a
  // class (or both without classes) are.
  const nf = catW.length;
  const codes = new Int32Array(sigs.length * nf);
  const dictionaries = catW.map(() => new Map<string, number>());
  sigs.forEach((v, s) => {
    for (let f = 0; f < nf; f++) {
      const dict = dictionaries[f];
      let code = dict.get(v.values[f]);
      if (code === undefined) dict.set(v.values[f], (code = dict.size));
      codes[s * nf + f] = code;
    }
  });
  const heavy = catW.map((w, i) => (w > eps + EPSILON ? i : -1)).filter((i) => i >= 0);
  const buckets = new Map<string, number[]>();
  sigs.forEach((v, i) => {
    const key = heavy.map((f) => codes[i * nf + f]).join(',');
    let list = buckets.get(key);
    if (!list) buckets.set(key, (list = []));
    list.push(i);
  });
  const classesApart = weights.classes > eps + EPSILON;
  const sigAdj: Array<Array<[number, number]>> = sigs.map(() => []);
  const seen = new Int32Array(sigs.length).fill(-1);
  const compare = (s: number, t: number) => {
    let d = 0;
    for (let f = 0; f < nf && d <= eps + EPSILON; f++) if (codes[s * nf + f] !== codes[t * nf + f]) d += catW[f];
    if (d > eps + EPSILON) return;
    d += weights.classes * jaccardDistance(sigs[s].classes, sigs[t].classes);
    if (d > eps + EPSILON) return;
    sigAdj[s].push([t, d]);
    sigAdj[t].push([s, d]);
  };
  for (const bucket of buckets.values()) {
    for (const s of bucket) sigAdj[s].push([s, 0]);
    if (!classesApart) {
      for (let a = 0; a < bucket.length; a++) for (let b = a + 1; b < bucket.length; b++) compare(bucket[a], bucket[b]);
      continue;
    }
    const withoutClasses: number[] = [];
    const byClass = new Map<string, number[]>();
    for (const s of bucket) {
      if (sigs[s].classes.length === 0) withoutClasses.push(s);
      for (const c of sigs[s].classes) {
        let list = byClass.get(c);
        if (!list) byClass.set(c, (list = []));
        list.push(s);
      }
    }
    for (let a = 0; a < withoutClasses.length; a++) {
      for (let b = a + 1; b < withoutClasses.length; b++) compare(withoutClasses[a], withoutClasses[b]);
    }
    for (const s of bucket) {
      for (const c of sigs[s].classes) {
        for (const t of byClass.get(c)!) {
          if (t <= s || seen[t] === s) continue;
          seen[t] = s;
          compare(s, t);
        }
      }
    }
  }
  // neighbour order must not depend on the buckets' order
  for (const adj of sigAdj) adj.sort((x, y) => x[0] - y[0]);

  // points of each signature sorted by x, for the sweep
  const bySig: number[][] = sigs.map(() => []);
  points.forEach((p, i) => bySig[p.sig].push(i));
  for (const list of bySig) list.sort((i, j) => points[i].x - points[j].x || i - j);

  const neighbors = (i: number): number[] => {
    const p = points[i];
    const out: number[] = [];
    for (const [t, d] of sigAdj[p.sig]) {
      const budget = eps + EPSILON - d;
      const list = bySig[t];
      let lo = 0;
      if (weights.x > 0) {
        const minX = p.x - budget / weights.x;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (points[list[mid]].x < minX) lo = mid + 1;
          else hi = mid;
        }
      }
      for (let k = lo; k < list.length; k++) {
        const q = points[list[k]];
        const dx = weights.x * Math.abs(q.x - p.x);
        if (weights.x > 0 && q.x > p.x && dx > budget) break;
        if (dx + weights.width * Math.abs(q.width - p.width) <= budget) out.push(list[k]);
      }
    }
    return out;
  };

  const found = dbscan(points, eps, options.minPts, () => Infinity, { weights: counts, neighbors });
  const pointLabels = canonicalLabels(found, (p) => sigKeys[points[p].sig] + '\u0003' + points[p].x + '\u0003' + points[p].width);
  let clusters = 0;
  for (const l of pointLabels) if (l + 1 > clusters) clusters = l + 1;
  return {
    labels: blockPoint.map((row) => row.map((p) => (p < 0 ? NOISE : pointLabels[p]))),
    clusters,
    distinctVectors: points.length,
  };
}

/**
 * The clusters numbered in the order of their smallest member vector (`key`), instead of DBSCAN's
 * order of discovery, which follows the order the pages come in: the same pages learned in another
 * order (rendered again, a retry among them) number their clusters the same.
 */
function canonicalLabels(labels: readonly number[], key: (point: number) => string): number[] {
  const least: string[] = [];
  labels.forEach((l, p) => {
    if (l === NOISE) return;
    const k = key(p);
    if (least[l] === undefined || k < least[l]) least[l] = k;
  });
  const order = least.map((_, l) => l).sort((a, b) => (least[a] < least[b] ? -1 : least[a] > least[b] ? 1 : a - b));
  const id: number[] = [];
  order.forEach((l, i) => (id[l] = i));
  return labels.map((l) => (l === NOISE ? NOISE : id[l]));
}
