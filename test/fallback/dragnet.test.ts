import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/html/parse';
import { segmentBlocks } from '../../lib/fallback/blocks';
import { cetrFeatures, DRAGNET_FEATURES, dragnetFeatures, extractDragnet, gaussianSmooth, linkDensity, textDensity, tokenWeigher } from '../../lib/fallback/dragnet';
import { countTokens, emptyTokenCounts, PRIOR_TOKEN_WEIGHTS, tokenWeights } from '../../lib/fallback/id-class';
import { nameTokens } from '../../lib/fallback/tokens';

const page = `<html><body>
<div id="nav" class="main-menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="articleBody post-content">
  <h1>A title</h1>
  <p>Some <b>bold</b> text with <a href="/x">one link</a> in it.</p>
  <p>Second line<br>after a break</p>
  <hr>
  <p>After the rule.</p>
</div>
<script>ignored()</script>
</body></html>`;

describe('blocks', () => {
  it('cuts the text at block-level tags and <br>, with words, link words, tags, tokens and <hr>', () => {
    const { blocks } = segmentBlocks(parseHtml(page), { tokens: true });
    expect(blocks.map((b) => b.text)).toEqual(['Home News', 'A title', 'Some bold text with one link in it.', 'Second line', 'after a break', 'After the rule.']);
    expect(blocks.map((b) => b.words)).toEqual([2, 2, 8, 2, 3, 3]);
    expect(blocks.map((b) => b.linkWords)).toEqual([2, 0, 2, 0, 0, 0]);
    expect(blocks[0].tags).toBe(3); // div, a, a
    expect(blocks[2].tags).toBe(3); // p, b, a
    expect(blocks.map((b) => b.heading)).toEqual([0, 1, 0, 0, 0, 0]);
    expect(blocks.map((b) => b.hrBefore)).toEqual([false, false, false, false, false, true]);
    expect(blocks[0].ownTokens).toEqual(['main', 'menu', 'nav']);
    expect(blocks[2].tokens).toEqual(['article', 'body', 'post', 'content']);
    expect(blocks[2].el.name).toBe('p');
  });

  it('sums token weights over the chain, each token once', () => {
    const weight = tokenWeigher({ article: 1, body: 0.5, menu: -2 });
    const { blocks } = segmentBlocks(parseHtml('<html><body><div class="article"><div class="article body"><p>x y</p></div></div><div class="menu"><p>z</p></div></body></html>'), { tokenWeight: weight });
    expect(blocks.map((b) => b.ancestorWeight)).toEqual([1.5, -2]);
    expect(blocks.map((b) => b.ownWeight)).toEqual([0, 0]);
  });

  it('splits id and class names into tokens', () => {
    expect(nameTokens('articleBody post-content_2 a')).toEqual(['article', 'body', 'post', 'content']);
  });
});

describe('Dragnet features', () => {
  it('text density: words per 80-column line, the last line left out', () => {
    expect(textDensity('one two three')).toBe(3);
    const ten = Array.from({ length: 10 }, () => 'abcdefghi').join(' '); // 99 characters: two lines, 8 words on the first
    expect(textDensity(ten)).toBe(8);
    const thirty = Array.from({ length: 30 }, () => 'abcdefghi').join(' '); // 8 + 8 + 8 + 6
    expect(textDensity(thirty)).toBe(8);
  });

  it('link density: words in links over words', () => {
    expect(linkDensity({ words: 8, linkWords: 2 })).toBe(0.25);
    expect(linkDensity({ words: 0, linkWords: 0 })).toBe(0);
  });

  it('CETR: smoothed tag ratio and its difference over the next α blocks', () => {
    expect(gaussianSmooth([0, 0, 0, 10, 0, 0, 0]).map((x) => Math.round(x * 100) / 100)).toEqual([0.06, 0.57, 2.43, 3.99, 2.43, 0.57, 0.06]);
    const { ratio, diff } = cetrFeatures([
      { chars: 10, tags: 5 },
      { chars: 10, tags: 5 },
      { chars: 10, tags: 5 },
    ]);
    expect(ratio.map((r) => Math.round(r * 1e6) / 1e6)).toEqual([2, 2, 2]);
    expect(diff).toEqual([0, 0, 0]);
  });

  it('one feature vector per block, in the declared order', () => {
    const { blocks } = segmentBlocks(parseHtml(page), { tokenWeight: () => 1 });
    const x = dragnetFeatures(blocks);
    expect(x).toHaveLength(blocks.length);
    expect(x[0]).toHaveLength(DRAGNET_FEATURES.length);
    expect(x[0][DRAGNET_FEATURES.indexOf('linkDensity')]).toBe(1);
    expect(x[0][DRAGNET_FEATURES.indexOf('linkDensityPrev')]).toBe(1); // no block before: counted as links
    expect(x[2][DRAGNET_FEATURES.indexOf('linkDensity')]).toBe(0.25);
  });

  it('labels blocks with a classifier: a hand-made one that wants long, link-free blocks', () => {
    const classifier = {
      features: [...DRAGNET_FEATURES],
      mean: DRAGNET_FEATURES.map(() => 0),
      std: DRAGNET_FEATURES.map(() => 1),
      weights: DRAGNET_FEATURES.map((f) => (f === 'logWords' ? 3 : f === 'linkDensity' ? -10 : 0)),
      bias: -4,
    };
    const r = extractDragnet(parseHtml(page), { tokens: {}, classifier });
    expect(r.text).toBe('Some bold text with one link in it.\nafter a break\nAfter the rule.');
  });
});

describe('id/class token weights', () => {
  it('learn log odds from block counts, shrunk towards the prior', () => {
    const c = emptyTokenCounts();
    for (let i = 0; i < 50; i++) countTokens(c, ['story', 'wrap'], true);
    for (let i = 0; i < 50; i++) countTokens(c, ['rail', 'wrap'], false);
    countTokens(c, ['rare'], true);
    const w = tokenWeights(c);
    expect(w.story).toBeGreaterThan(2);
    expect(w.rail).toBeLessThan(-2);
    expect(w.wrap).toBeUndefined(); // as often in both: near 0, left out of the table
    expect(w.rare).toBeUndefined(); // too few blocks: prior (none)
    expect(w.comment).toBe(PRIOR_TOKEN_WEIGHTS.comment); // never seen: the prior
  });
});
