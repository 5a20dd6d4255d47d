import { describe, expect, it } from 'vitest';
import { dbscan, NOISE } from '../../lib/learn/dbscan';

type P = readonly [number, number];
const euclid = (a: P, b: P) => Math.hypot(a[0] - b[0], a[1] - b[1]);

describe('dbscan', () => {
  // two tight groups, a chain, and an outlier
  const points: P[] = [
    [0, 0], [0, 1], [1, 0], [1, 1], // cluster A (each has 4 within 1.5, itself included)
    [10, 10], [10, 11], [11, 10], [11, 11], [12, 11], // cluster B, (12,11) is core too
    [50, 50], // noise
    [3, 0], // border? 2 from (1,0): out of eps 1.5 -> noise
  ];

  it('finds the clusters and the noise of known points', () => {
    expect(dbscan(points, 1.5, 4, euclid)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, NOISE, NOISE]);
  });

  it('adds border points (not core themselves) to the cluster reaching them', () => {
    // (2,0) has (1,0),(1,1) within 1.5 plus itself = 3 < 4: not core, but (1,0) is core and reaches it
    const withBorder: P[] = [[0, 0], [0, 1], [1, 0], [1, 1], [2.4, 0]];
    expect(dbscan(withBorder, 1.5, 4, euclid)).toEqual([0, 0, 0, 0, 0]);
  });

  it('labels everything noise when minPts is out of reach', () => {
    expect(dbscan(points.slice(0, 4), 1.5, 5, euclid)).toEqual([NOISE, NOISE, NOISE, NOISE]);
  });

  it('with minPts 1 every point is a core point', () => {
    expect(dbscan([[0, 0], [5, 5]] as P[], 1, 1, euclid)).toEqual([0, 1]);
  });

  it('weights stand for identical copies', () => {
    const copies: P[] = [[0, 0], [0, 0], [0, 0], [0, 0], [9, 9]];
    const deduped: P[] = [[0, 0], [9, 9]];
    expect(dbscan(copies, 0.5, 4, euclid)).toEqual([0, 0, 0, 0, NOISE]);
    expect(dbscan(deduped, 0.5, 4, euclid, { weights: [4, 1] })).toEqual([0, NOISE]);
  });

  it('uses a neighbour function instead of the O(n²) scan when given', () => {
    const neighbors = (i: number) => points.map((_, j) => j).filter((j) => euclid(points[i], points[j]) <= 1.5);
    const never = () => {
      throw new Error('distance called');
    };
    expect(dbscan(points, 1.5, 4, never, { neighbors })).toEqual(dbscan(points, 1.5, 4, euclid));
  });
});
