/**
 * What a paragraph of prose is: enough words, few of them in links. The page guard counts the
 * page's prose with it (lib/apply/guard.ts), and apply takes bare prose between the body's elements
 * by it (lib/html/extract-with-rules.ts).
 */
import type { AnyNode, Element } from 'domhandler';
import { countWords } from '../text/words';
import { SKIP_TAGS } from './content';
import { isElement, isText } from './parse';
import { unspacedLetters } from '../text/terms';

/**
 * Words of a text for telling prose: `countWords`'s, except that in scripts written without spaces
 * every two letters count as a word (as the TF-IDF terms' character pairs, lib/text/terms.ts), so a
 * Chinese sentence is not one "word" per clause.
 */
export function proseWords(text: string): number {
  const unspaced = unspacedLetters(text);
  return countWords(unspaced.rest) + Math.ceil(unspaced.count / 2);
}

/** A paragraph of prose has at least this many words... */
export const PROSE_MIN_WORDS = 8;
/** ...and at most this share of them in links. */
export const PROSE_MAX_LINK_SHARE = 0.3;

export interface WordCounts {
  /** Words of the text under the nodes (`proseWords`; script, style and the like skipped). */
  readonly words: number;
  /** Those inside links. */
  readonly linkWords: number;
  /** Those of the given nodes that are text themselves (not inside an element among them). */
  readonly bareWords: number;
}

/** Words under the nodes, in links, and bare; elements `skip` names (hidden, cleaned) are left out. */
export function wordsOf(nodes: readonly AnyNode[], skip?: (el: Element) => boolean): WordCounts {
  let words = 0;
  let linkWords = 0;
  let bareWords = 0;
  const stack: Array<[AnyNode, boolean, boolean]> = nodes.map((n) => [n, false, true] as [AnyNode, boolean, boolean]).reverse();
  while (stack.length) {
    const [node, inLink, bare] = stack.pop()!;
    if (isText(node)) {
      const n = proseWords(node.data);
      words += n;
      if (inLink) linkWords += n;
      if (bare) bareWords += n;
    } else if (isElement(node)) {
      if (SKIP_TAGS.has(node.name) || skip?.(node)) continue;
      const link = inLink || node.name === 'a';
      for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], link, false]);
    }
  }
  return { words, linkWords, bareWords };
}

/** Prose: at least `minWords` words, at most `maxLinkShare` of them in links. */
export function isProse(counts: Pick<WordCounts, 'words' | 'linkWords'>, minWords = PROSE_MIN_WORDS, maxLinkShare = PROSE_MAX_LINK_SHARE): boolean {
  return counts.words >= minWords && counts.linkWords <= maxLinkShare * counts.words;
}
