import { describe, expect, it } from 'vitest';
import { aggregateWithBootstrap } from '../../bench/stats';
import { aggregate, scorePage } from '../../lib/metric/metric';

describe('aggregateWithBootstrap', () => {
  const scores = [
    scorePage('a b c d e f', 'a b c d e f'),
    scorePage('a b c d x', 'a b c d e'),
    scorePage('', 'a b c d'),
    scorePage('q r s t u v', 'a b c d'),
    scorePage('a b c d e f g', 'a b c d'),
  ];
  it('is seeded: the same seed gives the same deviations', () => {
    const a = aggregateWithBootstrap(scores, { seed: 7 });
    const b = aggregateWithBootstrap(scores, { seed: 7 });
    expect(a.std).toEqual(b.std);
    expect(a.resamples).toBe(1000);
    expect(a.f1).toBe(aggregate(scores).f1);
    expect(a.std.f1).toBeGreaterThan(0);
    expect(a.std.f1).toBeLessThan(0.5);
  });
  it('has zero deviation when every page scores the same', () => {
    const same = Array.from({ length: 10 }, () => scorePage('a b c d', 'a b c d'));
    expect(aggregateWithBootstrap(same, { resamples: 50 }).std).toEqual({ precision: 0, recall: 0, f1: 0, accuracy: 0 });
  });
});
