/**
 * A binary Naive Bayes classifier over string features of several kinds ("in" vs "out"), as the
 * local classifier of maximum subsequence segmentation (Pasternack & Roth, WWW 2009). Counts are
 * kept (not probabilities), so models trained on different data add up; Laplace smoothing; a
 * feature the model has not seen (or pruned) counts as equally likely for both labels.
 */

/** Counts of one kind of feature. */
export interface FeatureCounts {
  /** Features seen with the "in" / "out" label, summed over all features of this kind. */
  total: [number, number];
  /** Distinct features seen before pruning (the smoothing's vocabulary size). */
  vocabulary: number;
  /** Feature → [count with "in", count with "out"]. */
  counts: Record<string, [number, number]>;
}

export interface NaiveBayesModel {
  /** Examples labelled "in" / "out". */
  prior: [number, number];
  kinds: Record<string, FeatureCounts>;
}

export function emptyNaiveBayes(kinds: readonly string[]): NaiveBayesModel {
  return { prior: [0, 0], kinds: Object.fromEntries(kinds.map((k) => [k, { total: [0, 0], vocabulary: 0, counts: {} }])) };
}

/** Count one example: its features by kind, and its label. */
export function addExample(model: NaiveBayesModel, features: Readonly<Record<string, string>>, inside: boolean): void {
  const c = inside ? 0 : 1;
  model.prior[c]++;
  for (const kind in features) {
    const fc = (model.kinds[kind] ??= { total: [0, 0], vocabulary: 0, counts: {} });
    const f = features[kind];
    let entry = fc.counts[f];
    if (!entry) {
      entry = fc.counts[f] = [0, 0];
      fc.vocabulary++;
    }
    entry[c]++;
    fc.total[c]++;
  }
}

/** Add another model's counts into `into`. */
export function mergeNaiveBayes(into: NaiveBayesModel, other: NaiveBayesModel): NaiveBayesModel {
  into.prior[0] += other.prior[0];
  into.prior[1] += other.prior[1];
  for (const kind in other.kinds) {
    const src = other.kinds[kind];
    const dst = (into.kinds[kind] ??= { total: [0, 0], vocabulary: 0, counts: {} });
    dst.total[0] += src.total[0];
    dst.total[1] += src.total[1];
    for (const f in src.counts) {
      const s = src.counts[f];
      const d = dst.counts[f];
      if (d) {
        d[0] += s[0];
        d[1] += s[1];
      } else {
        dst.counts[f] = [s[0], s[1]];
        dst.vocabulary++;
      }
    }
    dst.vocabulary = Math.max(dst.vocabulary, src.vocabulary, Object.keys(dst.counts).length);
  }
  return into;
}

/**
 * Keep, per kind, the features seen at least `minCount` times whose smoothed log-likelihood ratio
 * is at least `minLogRatio` away from 0, at most `maxFeatures` of them (the most frequent); the
 * totals and vocabulary size are kept, so the remaining features' probabilities do not change.
 */
export function pruneNaiveBayes(model: NaiveBayesModel, options: { minCount?: number; minLogRatio?: number; maxFeatures?: number } = {}): NaiveBayesModel {
  const minCount = options.minCount ?? 3;
  const minLogRatio = options.minLogRatio ?? 0;
  const maxFeatures = options.maxFeatures ?? Infinity;
  const kinds: Record<string, FeatureCounts> = {};
  for (const kind in model.kinds) {
    const fc = model.kinds[kind];
    const llr = logRatios(fc);
    const keep = Object.entries(fc.counts)
      .filter(([f, c]) => c[0] + c[1] >= minCount && Math.abs(llr(f)) >= minLogRatio)
      .sort((a, b) => b[1][0] + b[1][1] - (a[1][0] + a[1][1]) || (a[0] < b[0] ? -1 : 1))
      .slice(0, maxFeatures)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    kinds[kind] = { total: [fc.total[0], fc.total[1]], vocabulary: fc.vocabulary, counts: Object.fromEntries(keep.map(([f, c]) => [f, [c[0], c[1]]])) };
  }
  return { prior: [model.prior[0], model.prior[1]], kinds };
}

function logRatios(fc: FeatureCounts): (f: string) => number {
  const v = Math.max(1, fc.vocabulary);
  const denIn = Math.log(fc.total[0] + v);
  const denOut = Math.log(fc.total[1] + v);
  return (f: string) => {
    const c = fc.counts[f];
    if (!c) return 0;
    return Math.log(c[0] + 1) - denIn - (Math.log(c[1] + 1) - denOut);
  };
}

/** A fast scorer: per kind, feature → log-likelihood ratio (in over out), plus the prior log odds. */
export interface NaiveBayesScorer {
  readonly priorLogOdds: number;
  readonly ratios: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

export function compileNaiveBayes(model: NaiveBayesModel): NaiveBayesScorer {
  const ratios = new Map<string, Map<string, number>>();
  for (const kind in model.kinds) {
    const fc = model.kinds[kind];
    const llr = logRatios(fc);
    const m = new Map<string, number>();
    for (const f in fc.counts) m.set(f, llr(f));
    ratios.set(kind, m);
  }
  const [a, b] = model.prior;
  return { priorLogOdds: Math.log(a + 1) - Math.log(b + 1), ratios };
}

/** Log odds of "in" for one example (unknown features add nothing). */
export function naiveBayesLogOdds(scorer: NaiveBayesScorer, features: Readonly<Record<string, string>>): number {
  let z = scorer.priorLogOdds;
  for (const kind in features) {
    const r = scorer.ratios.get(kind)?.get(features[kind]);
    if (r !== undefined) z += r;
  }
  return z;
}

/** Probability of "in" for one example. */
export function naiveBayesProbability(scorer: NaiveBayesScorer, features: Readonly<Record<string, string>>): number {
  const z = naiveBayesLogOdds(scorer, features);
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}
