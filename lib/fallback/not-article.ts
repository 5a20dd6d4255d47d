/**
 * The fallback's reading of the not-an-article test (lib/html/not-article.ts, the one definition
 * both methods use): the evidence off its text blocks. The text's words are the output's; the page's
 * link density is its blocks' (every block of the page); the long paragraphs and linked headlines are
 * the chosen blocks', and a gap between two chosen blocks counts once when a block in it is a
 * linked headline (a headline the run left out, as a learned site's repeated text, still parts two
 * teasers).
 */
import type { ArticleContent } from '../html/content';
import { isLinkedHeadline as isLinkedHeading, isLongParagraph, notArticleReason as verdict } from '../html/not-article';
import type { Block } from './blocks';
import type { Span } from './mss';

interface Analysed {
  readonly blocks: readonly Block[];
}

interface Selected {
  readonly blocks: readonly Block[];
  readonly span: Span;
}

/** Headline blocks that are (nearly) all link text. */
const isLinkedHeadline = (b: Block): boolean => isLinkedHeading(b.heading, b.words, b.linkWords);

/** Why the page is not an article, or '' when it looks like one. */
export function notArticleReason(a: Analysed, sel: Selected, out: ArticleContent): string {
  return verdict({
    words: out.wordCount,
    text: out.text,
    pageLinkDensity: () => {
      let total = 0;
      let links = 0;
      for (const b of a.blocks) {
        total += b.words;
        links += b.linkWords;
      }
      return total === 0 ? 1 : links / total;
    },
    longParagraphs: () => sel.blocks.filter((b) => isLongParagraph(b.text.length, b.words, b.linkWords)).length,
    linkedHeadlines: () => {
      let linked = sel.blocks.filter(isLinkedHeadline).length;
      // each gap between two extracted blocks that holds one counts as one headline
      for (let k = 1; k < sel.blocks.length; k++) {
        for (let j = sel.blocks[k - 1].index + 1; j < sel.blocks[k].index; j++) {
          if (isLinkedHeadline(a.blocks[j])) {
            linked++;
            break;
          }
        }
      }
      return linked;
    },
  });
}
