import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/html/parse';
import { chooseSegments, cosine, extractQRead, qreadLines, segmentLines, termCounts } from '../../lib/fallback/qread';

describe('qRead segmentation', () => {
  it('splits at 3 or more empty lines (λ = 3), not at 1 or 2', () => {
    const lines = ['a b', '', 'c d e', '', '', 'f', '', '', '', 'g h', '', '', '', '', 'i j k l'];
    const segs = segmentLines(lines, 3);
    expect(segs.map((s) => s.lines)).toEqual([['a b', 'c d e', 'f'], ['g h'], ['i j k l']]);
    expect(segs.map((s) => s.words)).toEqual([6, 2, 4]);
    expect(segs[0].density).toBe(2);
    expect(segmentLines(lines, 2).length).toBe(4);
  });

  it('keeps source lines: a line of tags only is an empty line, </p> and <br> end a line without adding one', () => {
    const html = '<html><body>\n<div class="nav"><a href="/">Home</a></div>\n<div>\n<p>one two</p><p>three</p>\n</div>\n\n<p>four<br>five</p>\n</body></html>';
    const lines = qreadLines(parseHtml(html));
    expect(lines).toEqual(['', '', '', 'one two', 'three', '', '', 'four', 'five', '']);
  });

  it('takes the densest segment and adds segments closer to the title than the page', () => {
    const page = [
      '<body>',
      '<p>Home</p>', '<p>News</p>', '<p>Sport</p>', '', '', '', '',
      '<p>The council approved the new budget for the river park on Tuesday evening after a long debate.</p>',
      '<p>Residents asked the council to spend more on the river park and less on roads this year.</p>',
      '', '', '', '',
      '<p>River park budget: what the council approved and what residents asked for</p>',
      '', '', '', '',
      '<p>Copyright</p>', '<p>Contact</p>',
      '</body>',
    ].join('\n');
    const r = extractQRead(parseHtml(page), { title: 'Council approves river park budget' });
    expect(r.segments).toHaveLength(4);
    expect(r.chosen).toEqual([1, 2]);
    expect(r.text.split('\n')[0]).toMatch(/^The council approved/);
    expect(r.text.split('\n')).toContain('River park budget: what the council approved and what residents asked for');
    expect(extractQRead(parseHtml(page)).chosen).toEqual([1]);
  });

  it('measures cosine similarity of word counts', () => {
    expect(cosine(termCounts('a b'), termCounts('a b'))).toBeCloseTo(1);
    expect(cosine(termCounts('a a'), termCounts('b'))).toBe(0);
    expect(cosine(termCounts('a b'), termCounts('a c'))).toBeCloseTo(0.5);
    expect(chooseSegments([], 'x')).toEqual([]);
  });
});
