import { describe, expect, it } from 'vitest';
import { addExample, compileNaiveBayes, emptyNaiveBayes, mergeNaiveBayes, naiveBayesLogOdds, naiveBayesProbability, pruneNaiveBayes } from '../../lib/fallback/naive-bayes';
import { predict, trainLogistic } from '../../lib/fallback/logistic';

function toy() {
  const nb = emptyNaiveBayes(['tri', 'tag']);
  // "in": words in paragraphs; "out": links in list items.
  for (let i = 0; i < 30; i++) addExample(nb, { tri: 'w w w', tag: 'p' }, true);
  for (let i = 0; i < 10; i++) addExample(nb, { tri: 'w w .', tag: 'p' }, true);
  for (let i = 0; i < 30; i++) addExample(nb, { tri: '<a> w </a>', tag: 'li' }, false);
  for (let i = 0; i < 10; i++) addExample(nb, { tri: 'w w w', tag: 'li' }, false);
  return nb;
}

describe('Naive Bayes', () => {
  it('counts and predicts, with Laplace smoothing', () => {
    const nb = toy();
    expect(nb.prior).toEqual([40, 40]);
    expect(nb.kinds.tri.counts['w w w']).toEqual([30, 10]);
    expect(nb.kinds.tag.vocabulary).toBe(2);
    const s = compileNaiveBayes(nb);
    // P(www|in) = 31/(40+3), P(www|out) = 11/(40+3); P(p|in) = 41/42, P(p|out) = 1/42.
    expect(naiveBayesLogOdds(s, { tri: 'w w w', tag: 'p' })).toBeCloseTo(Math.log(41 / 41) + Math.log(31 / 11) + Math.log(41 / 1), 6);
    expect(naiveBayesProbability(s, { tri: '<a> w </a>', tag: 'li' })).toBeLessThan(0.01);
    expect(naiveBayesProbability(s, { tri: 'w w .', tag: 'p' })).toBeGreaterThan(0.99);
  });

  it('treats unseen features as equally likely', () => {
    const s = compileNaiveBayes(toy());
    expect(naiveBayesLogOdds(s, { tri: 'never seen', tag: 'nope' })).toBeCloseTo(0);
  });

  it('prunes rare and uninformative features without changing the others', () => {
    const nb = toy();
    addExample(nb, { tri: 'x y z', tag: 'p' }, true);
    const pruned = pruneNaiveBayes(nb, { minCount: 5, minLogRatio: 0.1 });
    expect(Object.keys(pruned.kinds.tri.counts).sort()).toEqual(['<a> w </a>', 'w w .', 'w w w']);
    const a = compileNaiveBayes(nb);
    const b = compileNaiveBayes(pruned);
    expect(naiveBayesLogOdds(b, { tri: 'w w w', tag: 'li' })).toBeCloseTo(naiveBayesLogOdds(a, { tri: 'w w w', tag: 'li' }), 9);
  });

  it('adds up models trained apart', () => {
    const merged = mergeNaiveBayes(toy(), toy());
    expect(merged.prior).toEqual([80, 80]);
    expect(merged.kinds.tri.counts['w w w']).toEqual([60, 20]);
  });
});

describe('logistic regression', () => {
  it('fits a separable toy set and keeps weights to their known signs', () => {
    const x = [[0], [1], [2], [3], [4], [5], [6], [7]];
    const y = [0, 0, 0, 0, 1, 1, 1, 1];
    const m = trainLogistic(['f'], x, y, undefined, { l2: 0.1 });
    expect(predict(m, [0])).toBeLessThan(0.1);
    expect(predict(m, [7])).toBeGreaterThan(0.9);
    const held = trainLogistic(['f'], x, y, undefined, { l2: 0.1, signs: [-1] });
    expect(held.weights[0]).toBe(0);
  });
});
