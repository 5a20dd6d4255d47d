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
