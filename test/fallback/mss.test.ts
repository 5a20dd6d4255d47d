import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/html/parse';
import { baselineScores, cutAtFirstHr, extractMss, extractMssBaseline, maxSubsequence, mssTokens, tokenFeatures } from '../../lib/fallback/mss';
import { addExample, emptyNaiveBayes } from '../../lib/fallback/naive-bayes';

describe('maxSubsequence', () => {
  it('finds the maximum-sum contiguous run of known arrays', () => {
    expect(maxSubsequence([-2, 1, -3, 4, -1, 2, 1, -5, 4])).toEqual({ start: 3, end: 6, value: 6 });
    expect(maxSubsequence([1, 2, 3])).toEqual({ start: 0, end: 2, value: 6 });
    expect(maxSubsequence([5, -10, 5])).toEqual({ start: 0, end: 0, value: 5 }); // the first of equal maxima
    expect(maxSubsequence([-3, -1, -2])).toEqual({ start: 1, end: 1, value: -1 }); // all negative: the largest element
    expect(maxSubsequence([])).toEqual({ start: -1, end: -1, value: 0 });
  });

  it('searches only the given range', () => {
    expect(maxSubsequence([10, -1, 2, 3, -20, 7], 1, 4)).toEqual({ start: 2, end: 3, value: 5 });
  });
});

describe('the <hr> constraint', () => {
  it('ends a span before the first <hr> inside it', () => {
    const scores = [1, 1, 1, 1, 1, 1];
    expect(cutAtFirstHr({ start: 0, end: 5, value: 6 }, [3], scores)).toEqual({ start: 0, end: 2, value: 3 });
    expect(cutAtFirstHr({ start: 2, end: 5, value: 4 }, [1, 4], scores)).toEqual({ start: 2, end: 3, value: 2 });
    expect(cutAtFirstHr({ start: 0, end: 2, value: 3 }, [4], scores)).toEqual({ start: 0, end: 2, value: 3 });
  });

  it('keeps the comments after an <hr> out of the article', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const page = `<html><body><p>${words(30)}</p><hr><p>${words(40)}</p></body></html>`;
    const withHr = extractMssBaseline(parseHtml(page));
    expect(withHr.text.split(' ')).toHaveLength(30);
    const without = extractMssBaseline(parseHtml(page), { hr: false });
    expect(without.text.split(/\s+/)).toHaveLength(70);
  });
});

describe('MSS tokens', () => {
  it('turns a page into tags, words and symbols, with the most recent unclosed tag', () => {
    const t = mssTokens(parseHtml('<html><body><p>Hello, <b>world</b> 42</p><script>var x;</script></body></html>'));
    expect(t.feature).toEqual(['<p>', 'W', ',', '<b>', 'w', '</b>', '1', '</p>']);
    expect(t.surface.filter(Boolean)).toEqual(['Hello', ',', 'world', '42']);
    expect(t.parent).toEqual(['body', 'p', 'p', 'p', 'b', 'p', 'p', 'body']);
    expect(tokenFeatures(t, 1)).toEqual({ tri: 'W , <b>', tag: 'p' });
    expect(mssTokens(parseHtml('<p>The running dogs</p>'), { words: 'stems' }).feature).toEqual(['<p>', 'the', 'run', 'dog', '</p>']);
  });

  it('scores tags -3.25 and words +1 in the simple baseline, whose article is the longest text run', () => {
    const doc = parseHtml('<html><body><div><a href="/">Home</a></div><p>one two three four</p><div><a href="/x">x</a></div></body></html>');
    const t = mssTokens(doc);
    expect(Array.from(baselineScores(t))).toEqual([-3.25, -3.25, 1, -3.25, -3.25, -3.25, 1, 1, 1, 1, -3.25, -3.25, -3.25, 1, -3.25, -3.25]);
    expect(extractMssBaseline(doc).text).toBe('one two three four');
  });
});

describe('MSS with Naive Bayes', () => {
  it('extracts the run a toy classifier scores positive', () => {
    const nb = emptyNaiveBayes(['tri', 'tag']);
    // Text in <p> is "in", text in <li> is "out".
    for (let i = 0; i < 20; i++) {
      addExample(nb, { tri: 'w w w', tag: 'p' }, true);
      addExample(nb, { tri: 'w w w', tag: 'li' }, false);
    }
    const doc = parseHtml('<html><body><ul><li>menu one two</li></ul><p>alpha beta gamma delta epsilon</p><ul><li>foot one two</li></ul></body></html>');
    expect(extractMss(doc, nb).text).toBe('alpha beta gamma delta epsilon');
  });
});
