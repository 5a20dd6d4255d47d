import { describe, expect, it } from 'vitest';
import { aggregate, pageF1, scorePage, shingles, tokenize } from '../../lib/metric/metric';

describe('tokenize (Python re.findall(r"\\w+"))', () => {
  it('splits on everything but letters, numbers and underscore, case kept', () => {
    expect(tokenize("Hello, World! it's 2012 — snake_case x²")).toEqual(['Hello', 'World', 'it', 's', '2012', 'snake_case', 'x²']);
  });
  it('keeps accented letters (precomposed) and non-Latin scripts', () => {
    expect(tokenize('café naïve Ελλάδα 東京')).toEqual(['café', 'naïve', 'Ελλάδα', '東京']);
  });
  it('splits at combining marks, as Python re does', () => {
    // Python: re.findall(r'\w+', 'हिन्दी') == ['ह', 'न', 'द']
    expect(tokenize('हिन्दी')).toEqual(['ह', 'न', 'द']);
    // A decomposed é (e + U+0301) splits too.
    expect(tokenize('cafe\u0301 ok')).toEqual(['cafe', 'ok']);
  });
  it('counts other numerics (½, Ⅻ) as word characters', () => {
    expect(tokenize('½ Ⅻ')).toEqual(['½', 'Ⅻ']);
  });
});

describe('shingles', () => {
  it('gives none for an empty text and one for 1-3 tokens', () => {
    expect(shingles([]).size).toBe(0);
    expect([...shingles(['a']).values()]).toEqual([1]);
    expect([...shingles(['a', 'b', 'c']).values()]).toEqual([1]);
  });
  it('gives the 4-gram multiset otherwise', () => {
    const s = shingles(tokenize('a b c d a b c d'));
    expect([...s.values()].reduce((x, y) => x + y, 0)).toBe(5);
    expect(s.get(['a', 'b', 'c', 'd'].join('\u0000'))).toBe(2);
  });
});

describe('pageF1', () => {
  it('is the harmonic mean of the page precision and recall, 1 for two texts without a word', () => {
    const gold = 'one two three four five six seven eight';
    expect(pageF1(scorePage(gold, gold))).toBe(1);
    const half = scorePage('one two three four five', gold); // 2 of the gold's 5 shingles, none extra
    expect(pageF1(half)).toBeCloseTo((2 * 1 * 0.4) / 1.4, 10);
    expect(pageF1(scorePage('', gold))).toBe(0);
    expect(pageF1(scorePage('Page not found', 'Page not found'))).toBe(1);
    expect(pageF1(scorePage('Hello', 'Page not found'))).toBe(0);
    expect(pageF1(scorePage('', ''))).toBe(1);
  });
});

describe('scorePage', () => {
  it('scores an exact match tp = 1', () => {
    expect(scorePage('one two three four five', 'one two three four five')).toEqual({ tp: 1, fp: 0, fn: 0, exact: true });
  });
  it('compares tokens, not punctuation or spacing', () => {
    expect(scorePage('One, two.\nthree', 'One two three').exact).toBe(true);
    expect(scorePage('one two three', 'One two three').exact).toBe(false);
  });
  it('normalises tp/fp/fn by their sum', () => {
    // gold: a b c d e → shingles abcd, bcde; predicted: a b c d x → abcd, bcdx
    const s = scorePage('a b c d x', 'a b c d e');
    expect(s.tp).toBeCloseTo(1 / 3);
    expect(s.fp).toBeCloseTo(1 / 3);
    expect(s.fn).toBeCloseTo(1 / 3);
    expect(s.exact).toBe(false);
  });
  it('counts multiset differences', () => {
    // predicted repeats its shingle twice, gold once: tp 1, fp 1.
    const s = scorePage('a b c d a b c d', 'a b c d');
    // predicted shingles: abcd ×2, bcda, cdab, dabc → tp 1, fp 4, fn 0
    expect(s.tp).toBeCloseTo(1 / 5);
    expect(s.fp).toBeCloseTo(4 / 5);
    expect(s.fn).toBe(0);
  });
  it('treats a short text as one shingle', () => {
    expect(scorePage('a b', 'a b')).toEqual({ tp: 1, fp: 0, fn: 0, exact: true });
    expect(scorePage('a b', 'a c')).toEqual({ tp: 0, fp: 0.5, fn: 0.5, exact: false });
  });
  it('gives an empty prediction only fn', () => {
    expect(scorePage('', 'one two three four')).toEqual({ tp: 0, fp: 0, fn: 1, exact: false });
    expect(scorePage('  ...  ', '')).toEqual({ tp: 0, fp: 0, fn: 0, exact: true });
  });
});

describe('aggregate', () => {
  it('drops empty predictions out of precision and scores them 0 recall', () => {
    const a = aggregate([scorePage('', 'one two three four'), scorePage('one two three four', 'one two three four')]);
    expect(a.precision).toBe(1); // only the second page counts
    expect(a.recall).toBe(0.5); // 0 and 1
    expect(a.f1).toBeCloseTo((2 * 1 * 0.5) / 1.5);
    expect(a.accuracy).toBe(0.5);
    expect(a.pages).toBe(2);
  });
  it('takes F1 from the mean precision and mean recall, not the mean of F1s', () => {
    // page 1: predicted abcd bcdx (p 1/2, r 1/2 against abcd bcde); page 2: extra text, p 1/3, r 1
    const s1 = scorePage('a b c d x', 'a b c d e');
    const s2 = scorePage('a b c d e f', 'a b c d');
    const a = aggregate([s1, s2]);
    expect(a.precision).toBeCloseTo((1 / 2 + 1 / 3) / 2);
    expect(a.recall).toBeCloseTo((1 / 2 + 1) / 2);
    expect(a.f1).toBeCloseTo((2 * a.precision * a.recall) / (a.precision + a.recall));
    expect(a.accuracy).toBe(0);
  });
  it('leaves pages without shingles on either side out of both means', () => {
    const a = aggregate([scorePage('', ''), scorePage('x y', 'x y')]);
    expect(a).toMatchObject({ precision: 1, recall: 1, f1: 1, accuracy: 1, pages: 2 });
  });
  it('is all zero on no pages', () => {
    expect(aggregate([])).toEqual({ precision: 0, recall: 0, f1: 0, accuracy: 0, pages: 0 });
  });
});
