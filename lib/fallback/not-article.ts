/**
 * Is the page an article at all? Home pages, section fronts and other listings have no article:
 * the extractor would return a few teasers or a paragraph of link text. Following Pasternack &
 * Roth's definition (an article is a contiguous, coherent work of prose; a collection of headlines
 * with brief summaries is not), a page is not an article when what was extracted is:
 *
 * - almost no text (under 25 words);
 * - little text (under 50 words) on a page that is mostly links (over half its words);
 * - a stack of linked headlines: at least 3 headings that are links among the extracted blocks,
 *   or between two of them (a headline the run left out, as a learned site's repeated text, still
 *   parts two teasers; a box of them counts once), with no more than teasers between them (under 60
 *   words per headline, fewer than 3 long paragraphs).
 */
import type { ArticleContent } from '../html/content';
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
export function isLinkedHeadline(b: Block): boolean {
  return b.heading > 0 && b.words > 0 && b.linkWords >= b.words * 0.8;
}

/** Why the page is not an article, or '' when it looks like one. */
export function notArticleReason(a: Analysed, sel: Selected, out: ArticleContent): string {
  let total = 0;
  let links = 0;
  for (const b of a.blocks) {
    total += b.words;
    links += b.linkWords;
  }
  const linkDensity = total === 0 ? 1 : links / total;
  const words = out.wordCount;
  if (words < 25) return 'almost no text';
  if (words < 50 && linkDensity > 0.5) return 'little text, mostly links';
  let linked = sel.blocks.filter(isLinkedHeadline).length;
  // Headlines left out of the run (a learned site's repeated text, cleaning) still part its teasers:
  // each gap between two extracted blocks that holds one counts as one headline.
  for (let k = 1; k < sel.blocks.length; k++) {
    for (let j = sel.blocks[k - 1].index + 1; j < sel.blocks[k].index; j++) {
      if (isLinkedHeadline(a.blocks[j])) {
        linked++;
        break;
      }
    }
  }
  const longParagraphs = sel.blocks.filter((b) => b.text.length >= 200 && b.linkWords < b.words * 0.3).length;
  if (linked >= 3 && longParagraphs < 3 && words / linked < 60) return 'linked headlines with teasers';
  return '';
}
