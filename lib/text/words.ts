/**
 * Words of a text as the metric counts them (listed or counted), as a reader counts them in any
 * script (`readerWords`), and its length with white space collapsed.
 */
import { unspacedLetters } from './terms';

const ASCII_WORD = /[A-Za-z0-9_]+/g;
const WORD = /[\p{L}\p{N}_]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

/** Words of a text: runs of letters, digits and underscore (the metric's `\w+`). */
export function words(text: string): string[] {
  return (NON_ASCII.test(text) ? text.match(WORD) : text.match(ASCII_WORD)) ?? [];
}

/** Lowercased words of a text. */
export function lowerWords(text: string): string[] {
  return words(text.toLowerCase());
}

/**
 * Characters of a text with its white space collapsed: a run of space, tab, newline, carriage return,
 * form feed or no-break space counts as one character when it follows text, as none at the start.
 */
export function visibleLength(text: string): number {
  let n = 0;
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
    }
  }
  return n;
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const wordCharCache = new Map<number, boolean>();

function isWordCodePoint(cp: number): boolean {
  if (cp < 128) return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
  let v = wordCharCache.get(cp);
  if (v === undefined) {
    v = WORD_CHAR.test(String.fromCodePoint(cp));
    if (wordCharCache.size < 65_536) wordCharCache.set(cp, v);
  }
  return v;
}

/** How many `words` a text has, without building them (apply counts every extracted text's words). */
export function countWords(text: string): number {
  // ASCII text (most of it): a plain regex is several times faster than the code point loop.
  if (!NON_ASCII.test(text)) return text.match(ASCII_WORD)?.length ?? 0;
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    const w = isWordCodePoint(cp);
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

/**
 * In a script written without spaces between words (Chinese, Japanese, Thai…), this many letters
 * count as one word: the TF-IDF terms' character pairs (lib/text/terms.ts). A dictionary segmenter
 * (Intl.Segmenter, granularity 'word') finds about as many words in Japanese and Chinese news prose
 * (1,080 and 840 where this counts 990 and 700) at seven to eight times the cost. The script's own
 * punctuation (、。「」，) counts with its letters (`unspacedLetters`): about one character in
 * twenty of such prose, so the count stays a little under the segmenter's (the four paragraphs of
 * test/html/not-article.test.ts: 131 and 101 where it finds 161 and 120; letters alone, 124 and 98).
 */
export const UNSPACED_LETTERS_PER_WORD = 2;

/**
 * Words of a text as a reader counts them, in any script: `countWords`'s, except that letters of
 * scripts written without spaces count `UNSPACED_LETTERS_PER_WORD` to a word, where `countWords`
 * makes a Japanese sentence one word (a run of letters between punctuation). A text without such
 * letters counts exactly as `countWords` counts it.
 */
export function readerWords(text: string): number {
  const unspaced = unspacedLetters(text);
  return countWords(unspaced.rest) + Math.ceil(unspaced.count / UNSPACED_LETTERS_PER_WORD);
}

/**
 * The words of a text, given `counted`, its `countWords` count, for a test that asks for `needed`
 * of them: `counted` when it has them (the common case pays nothing more), else the more of it and
 * `readerWords` (a Japanese article is not a few "words" of a sentence each; lone letters of such a
 * script between spaced words count one word each in `countWords`, and keep that count).
 */
export function wordsAtLeast(text: string, counted: number, needed: number): number {
  return counted >= needed ? counted : Math.max(counted, readerWords(text));
}
