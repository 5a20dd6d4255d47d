/**
 * What a paragraph of prose is: enough words, few of them in links. The page guard counts the
 * page's prose with it (lib/apply/guard.ts), and apply takes bare prose between the body's elements
 * by it (lib/html/extract-with-rules.ts).
 */
import type { AnyNode, Element } from 'domhandler';
import { readerWords } from '../text/words';
import { SKIP_TAGS } from './content';
import { isElement, isText } from './parse';

/** A paragraph of prose has at least this many words... */
export const PROSE_MIN_WORDS = 8;
/** ...and at most this share of them in links. */
export const PROSE_MAX_LINK_SHARE = 0.3;

export interface WordCounts {
  /** Words of the text under the nodes (`readerWords`: a Chinese sentence is not one word; script, style and the like skipped). */
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
      const n = readerWords(node.data);
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
