import { describe, expect, it } from 'vitest';
import { isStopWord, stem, terms, tokenize } from '../../lib/text/terms';

describe('tokenize', () => {
  it('lowercases and splits on everything but letters, digits and inner apostrophes', () => {
    expect(tokenize("Don't STOP the Running-dogs! (2024)")).toEqual(["don't", 'stop', 'the', 'running', 'dogs', '2024']);
  });

  it('normalizes typographic apostrophes and full-width letters', () => {
    expect(tokenize('O’Brien’s ＦＵＬＬ')).toEqual(["o'brien's", 'full']);
  });

  it('keeps accented and other spaced scripts as words', () => {
    expect(tokenize('Café crème, Привет мир')).toEqual(['café', 'crème', 'привет', 'мир']);
  });

  it('emits character bigrams for scripts written without spaces', () => {
    expect(tokenize('東京タワー')).toEqual(['東京', '京タ', 'タワ', 'ワー']);
    expect(tokenize('iPhone手机很好')).toEqual(['iphone', '手机', '机很', '很好']);
    expect(tokenize('猫')).toEqual(['猫']);
  });

  it('keeps Thai combining vowels with their consonant', () => {
    // ส ว◌ั ส ด◌ี : four characters, three bigrams
    expect(tokenize('สวัสดี')).toEqual(['สวั', 'วัส', 'สดี']);
  });
});

describe('stop words and stemming', () => {
  it('knows the common English function words', () => {
    for (const w of ['the', 'of', 'is', "don't", 'and']) expect(isStopWord(w)).toBe(true);
    for (const w of ['malaria', 'vaccine', 'run']) expect(isStopWord(w)).toBe(false);
  });

  it('Porter-stems English words only', () => {
    expect(stem('running')).toBe('run');
    expect(stem('vaccines')).toBe('vaccin');
    expect(stem('protection')).toBe('protect');
    expect(stem('café')).toBe('café');
  });

  it('terms: tokens without stop words, possessives or single letters, stemmed', () => {
    expect(terms("The vaccine's protection was strong, and it's a start")).toEqual(['vaccin', 'protect', 'strong', 'start']);
    expect(terms('Running dogs of O’Brien')).toEqual(['run', 'dog', 'obrien']);
    expect(terms('東京タワー')).toEqual(['東京', '京タ', 'タワ', 'ワー']);
  });
});
