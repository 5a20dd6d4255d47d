/** Words of a text as the metric counts them. */

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
