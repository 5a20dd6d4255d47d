import { describe, expect, it } from 'vitest';
import { lowerWords, visibleLength, words } from '../../lib/text/words';

describe('words', () => {
  it('counts runs of letters, digits and underscore, in any script', () => {
    expect(words("Don't stop_me now, 2024!")).toEqual(['Don', 't', 'stop_me', 'now', '2024']);
    expect(words('Zürich – Genève')).toEqual(['Zürich', 'Genève']);
    expect(lowerWords('The BBC')).toEqual(['the', 'bbc']);
    expect(words(' \n ')).toEqual([]);
  });
});

describe('visibleLength', () => {
  it('counts a run of white space after text as one character, and none at the start', () => {
    expect(visibleLength('a  b')).toBe(3);
    expect(visibleLength('\n\t a b \u00a0\r\n')).toBe(4);
    expect(visibleLength('')).toBe(0);
    expect(visibleLength('   ')).toBe(0);
  });
});
