/**
 * DBSCAN (Ester, Kriegel, Sander, Xu 1996): density-based clustering with noise, unknown number
 * and shape of clusters (Zhou & Sun §4).
 *
 * A point is a core point when the points within eps of it (itself included) weigh at least minPts;
 * clusters are the core points connected through each other's neighbourhoods plus the border points
 * they reach. Deterministic: points are visited in index order and clusters numbered 0, 1, ... in
 * that order; a border point reachable from two clusters joins the first.
 */

export const NOISE = -1;
const UNVISITED = -2;

export interface DbscanOptions {
  /**
   * Multiplicity of each point, default 1: identical points can be passed once with their count,
   * which gives the same clusters as passing each copy.
   */
  readonly weights?: readonly number[];
  /**
   * The points within eps of point i (whether i itself is listed does not matter), replacing the
   * O(n²) scan with `distance`, e.g. from a spatial index.
   */
  readonly neighbors?: (i: number) => readonly number[];
}

/** Cluster label of each point: 0, 1, ... or NOISE (-1). */
export function dbscan<T>(
  points: readonly T[],
  eps: number,
  minPts: number,
  distance: (a: T, b: T) => number,
  options: DbscanOptions = {},
): number[] {
  const n = points.length;
  const weight = (i: number) => options.weights?.[i] ?? 1;
  const region =
    options.neighbors ??
    ((i: number): number[] => {
      const out: number[] = [];
      for (let j = 0; j < n; j++) if (j === i || distance(points[i], points[j]) <= eps) out.push(j);
      return out;
    });
  /** The neighbourhood of i if i is a core point, else undefined. */
  const coreRegion = (i: number): readonly number[] | undefined => {
    const nb = region(i);
    let mass = weight(i);
    for (const j of nb) if (j !== i) mass += weight(j);
    return mass >= minPts ? nb : undefined;
  };

  const labels: number[] = new Array(n).fill(UNVISITED);
  let cluster = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i] !== UNVISITED) continue;
    const nb = coreRegion(i);
    if (!nb) {
      labels[i] = NOISE;
      continue;
    }
    labels[i] = cluster;
    const queue: number[] = [...nb];
    for (let k = 0; k < queue.length; k++) {
      const q = queue[k];
      if (labels[q] === NOISE) labels[q] = cluster; // border point
      if (labels[q] !== UNVISITED) continue;
      labels[q] = cluster;
      const nbq = coreRegion(q);
      if (nbq) for (const r of nbq) if (labels[r] === UNVISITED || labels[r] === NOISE) queue.push(r);
    }
    cluster++;
  }
  return labels;
}
