/**
 * Text preprocessing for scoring (Zhou & Sun §5): lowercase, tokenize into Unicode word runs,
 * drop English stop words, Porter-stem English words. Scripts written without spaces
 * (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) become overlapping character bigrams,
 * the n-gram approach the paper proposes for other languages (§8.2).
 */
import { stemmer } from 'stemmer';

/**
 * English stop words: the Snowball stop list (the one the Porter stemmer's author published),
 * contractions included, plus a few NLTK additions ("can", "will", "just", "now").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers
  herself it its itself they them their theirs themselves what which who whom this that these those am is are
  was were be been being have has had having do does did doing would should could ought i'm you're he's she's
  it's we're they're i've you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll
  they'll isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't
  shouldn't can't cannot couldn't mustn't let's that's who's what's here's there's when's where's why's how's
  a an the and but if or because as until while of at by for with about against between into through during
  before after above below to from up down in out on off over under again further then once here there when
  where why how all any both each few more most other some such no nor not only own same so than too very
  can will just now`.split(/\s+/),
);

/** Letters of scripts written without spaces between words. */
const NO_SPACE_CHAR = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const NO_SPACE_CHARS = new RegExp(NO_SPACE_CHAR.source, 'gu');
const NON_ASCII = /[^\x00-\x7f]/;

/** The characters of scripts written without spaces (Chinese, Japanese, Thai…) a text holds, their punctuation with their letters (Script_Extensions): their count, and the text without them. */
export function unspacedLetters(text: string): { readonly count: number; readonly rest: string } {
  if (!NON_ASCII.test(text)) return { count: 0, rest: text };
  let count = 0;
  const rest = text.replace(NO_SPACE_CHARS, () => {
    count++;
    return ' ';
  });
  return { count, rest };
}
/** A word: letters, marks and digits, with inner apostrophes (don't, o'brien). */
const WORD_RUN = /[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*/gu;
const ASCII_WORD = /^[a-z]+$/;
const COMBINING_MARK = /^\p{M}$/u;

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/**
 * Lowercased tokens in text order. Word runs of spaced scripts are kept whole (apostrophes normalized
 * to '), runs of unspaced scripts become character bigrams (a lone character stays a unigram).
 */
export function tokenize(text: string): string[] {
  const normalized = text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019\u02bc\uff07]/g, "'");
  const out: string[] = [];
  for (const match of normalized.matchAll(WORD_RUN)) {
    splitScripts(match[0], out);
  }
  return out;
}

/** Split a word run into spaced and unspaced segments; push words and bigrams. */
function splitScripts(run: string, out: string[]): void {
  if (!NO_SPACE_CHAR.test(run)) {
    out.push(run);
    return;
  }
  let spaced = '';
  let unspaced: string[] = [];
  const flushSpaced = () => {
    const word = spaced.replace(/^'+|'+$/g, '');
    if (word) out.push(word);
    spaced = '';
  };
  const flushUnspaced = () => {
    if (unspaced.length === 1) out.push(unspaced[0]);
    for (let i = 0; i + 1 < unspaced.length; i++) out.push(unspaced[i] + unspaced[i + 1]);
    unspaced = [];
  };
  for (const ch of run) {
    if (unspaced.length > 0 && COMBINING_MARK.test(ch)) {
      // A combining mark (Thai vowel, tone mark) belongs to the character before it.
      unspaced[unspaced.length - 1] += ch;
    } else if (NO_SPACE_CHAR.test(ch)) {
      flushSpaced();
      unspaced.push(ch);
    } else {
      flushUnspaced();
      spaced += ch;
    }
  }
  flushSpaced();
  flushUnspaced();
}

const stemCache = new Map<string, string>();

/** Porter stem of an English (ASCII) word, cached; other words are returned unchanged. */
export function stem(word: string): string {
  if (!ASCII_WORD.test(word)) return word;
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/**
 * The terms TF-IDF counts: tokens without stop words, possessive 's and apostrophes removed,
 * single Latin letters or digits dropped, English words stemmed.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (STOP_WORDS.has(token)) continue;
    let word = token.endsWith("'s") ? token.slice(0, -2) : token;
    if (word.includes("'")) word = word.replace(/'/g, '');
    if (word.length < 2 && !NO_SPACE_CHAR.test(word)) continue;
    out.push(stem(word));
  }
  return out;
}
