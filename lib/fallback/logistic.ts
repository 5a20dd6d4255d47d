/**
 * Logistic regression: prediction, and training by Newton's method (IRLS) with an L2 penalty,
 * deterministic (no random initialisation, no shuffling). Features are standardised with the
 * training set's means and standard deviations, which the model keeps.
 */

export interface LogisticModel {
  /** Names of the features, in order (documentation; the vector order is what counts). */
  readonly features: readonly string[];
  readonly mean: readonly number[];
  readonly std: readonly number[];
  readonly weights: readonly number[];
  readonly bias: number;
}

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Log-odds of the positive class for one feature vector. */
export function logit(model: LogisticModel, x: ArrayLike<number>): number {
  let z = model.bias;
  const { mean, std, weights } = model;
  for (let j = 0; j < weights.length; j++) z += weights[j] * ((x[j] - mean[j]) / std[j]);
  return z;
}

export function predict(model: LogisticModel, x: ArrayLike<number>): number {
  return sigmoid(logit(model, x));
}

export interface TrainOptions {
  /** L2 penalty on the (standardised) weights; the bias is not penalised. Default 1. */
  readonly l2?: number;
  /** Newton iterations. Default 25. */
  readonly iterations?: number;
  /**
   * Sign of each feature's weight as general knowledge has it (1: more of it means more likely
   * positive, -1: less likely, 0: no constraint). A weight of the wrong sign is held at 0, so a
   * training set that is not the world (generated pages) cannot turn a feature's meaning around.
   */
  readonly signs?: ArrayLike<number>;
}

/** Solve A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const d = m[c][c];
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => (Math.abs(row[i]) < 1e-12 ? 0 : row[n] / row[i]));
}

/**
 * Fit on rows `x` with labels `y` (0/1) and optional sample weights. Returns the standardised model.
 */
export function trainLogistic(
  features: readonly string[],
  x: ReadonlyArray<ArrayLike<number>>,
  y: ArrayLike<number>,
  sampleWeight?: ArrayLike<number>,
  options: TrainOptions = {},
): LogisticModel {
  const n = x.length;
  const d = features.length;
  const l2 = options.l2 ?? 1;
  const iterations = options.iterations ?? 25;
  const sw = (i: number) => (sampleWeight ? sampleWeight[i] : 1);

  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  let wsum = 0;
  for (let i = 0; i < n; i++) {
    wsum += sw(i);
    for (let j = 0; j < d; j++) mean[j] += sw(i) * x[i][j];
  }
  for (let j = 0; j < d; j++) mean[j] /= wsum || 1;
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) std[j] += sw(i) * (x[i][j] - mean[j]) ** 2;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j] / (wsum || 1)) || 1;

  const z = x.map((row) => Array.from({ length: d }, (_, j) => (row[j] - mean[j]) / std[j]));
  // Parameters: [bias, w1..wd].
  const beta = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const h: number[][] = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    const g = new Array<number>(d + 1).fill(0);
    for (let i = 0; i < n; i++) {
      const zi = z[i];
      let s = beta[0];
      for (let j = 0; j < d; j++) s += beta[j + 1] * zi[j];
      const p = sigmoid(s);
      const w = sw(i);
      const r = w * (y[i] - p);
      const v = w * Math.max(p * (1 - p), 1e-9);
      g[0] += r;
      h[0][0] += v;
      for (let j = 0; j < d; j++) {
        const zj = zi[j];
        g[j + 1] += r * zj;
        h[0][j + 1] += v * zj;
        for (let k = j; k < d; k++) h[j + 1][k + 1] += v * zj * zi[k];
      }
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) h[j][k] = h[k][j];
    for (let j = 1; j <= d; j++) {
      h[j][j] += l2;
      g[j] -= l2 * beta[j];
    }
    const signs = options.signs;
    // Weights held at 0 by their sign leave the Newton system.
    const free = (j: number) => !(signs && j > 0 && beta[j] === 0 && signs[j - 1] !== 0 && Math.sign(g[j]) !== signs[j - 1]);
    const idx = Array.from({ length: d + 1 }, (_, j) => j).filter(free);
    const sub = solve(
      idx.map((a) => idx.map((b) => h[a][b])),
      idx.map((a) => g[a]),
    );
    let change = 0;
    idx.forEach((j, k) => {
      let next = beta[j] + sub[k];
      if (signs && j > 0 && signs[j - 1] !== 0 && Math.sign(next) === -signs[j - 1]) next = 0;
      change = Math.max(change, Math.abs(next - beta[j]));
      beta[j] = next;
    });
    if (change < 1e-6) break;
  }
  return { features: [...features], mean, std, weights: beta.slice(1), bias: beta[0] };
}
