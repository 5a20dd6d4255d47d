/** The bench's statistics: quantiles and means of timings, bootstrap deviations of the scores. */
import { aggregate, aggregateIndices, type Aggregate, type PageScore } from '../lib/metric/metric';

/** Quantile with linear interpolation between closest ranks (numpy's default); NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
}

/** Round for JSON output; NaN becomes null. */
export function round(x: number, digits = 4): number | null {
  if (!Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export interface AggregateWithStd extends Aggregate {
  /** Standard deviations over bootstrap resamples of the pages. */
  readonly std: { readonly precision: number; readonly recall: number; readonly f1: number; readonly accuracy: number };
  readonly resamples: number;
}

/** A seeded generator (mulberry32) for reproducible resamples. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function std(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / values.length);
}

/** The aggregate plus the population standard deviation of each figure over bootstrap resamples of the pages. */
export function aggregateWithBootstrap(scores: readonly PageScore[], options: { resamples?: number; seed?: number } = {}): AggregateWithStd {
  const resamples = options.resamples ?? 1000;
  const random = seededRandom(options.seed ?? 42);
  const base = aggregate(scores);
  const n = scores.length;
  const figures = { precision: [] as number[], recall: [] as number[], f1: [] as number[], accuracy: [] as number[] };
  if (n > 0) {
    const idx = new Uint32Array(n);
    for (let r = 0; r < resamples; r++) {
      for (let i = 0; i < n; i++) idx[i] = Math.floor(random() * n);
      const a = aggregateIndices(scores, idx);
      figures.precision.push(a.precision);
      figures.recall.push(a.recall);
      figures.f1.push(a.f1);
      figures.accuracy.push(a.accuracy);
    }
  }
  return {
    ...base,
    std: { precision: std(figures.precision), recall: std(figures.recall), f1: std(figures.f1), accuracy: std(figures.accuracy) },
    resamples,
  };
}
