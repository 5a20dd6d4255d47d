/**
 * Is the page an article at all? Home pages, section fronts, tag listings and login pages have no
 * article: an extractor returns a few teasers, a paragraph of link text or a form's labels. Following
 * Pasternack & Roth's definition (an article is a contiguous, coherent work of prose; a collection of
 * headlines with brief summaries is not), a page is not an article when what was extracted is:
 *
 * - almost no text (under 25 words);
 * - little text (under 50 words) on a page that is mostly links (over half its words);
 * - a stack of linked headlines: at least 3 headings that are links in the text, or between two of
 *   its parts (a headline the extraction left out, as a learned site's repeated text or the rules'
 *   cleaning, still parts two teasers; a box of them counts once), with no more than teasers
 *   between them (under 60 words per headline, fewer than 3 long paragraphs).
 *
 * Words are counted as a reader counts them in any script: `countWords` makes a Japanese or Chinese
 * sentence one word, so where its count would flag a text, the text is counted again in
 * `readerWords` (lib/text/words.ts, as the page guard counts: two letters of a script written
 * without spaces a word), which for a text of spaced scripts is the same count.
 *
 * One definition for both methods: `notArticleReason` takes the evidence as each can give it. The
 * single-page fallback reads it off its text blocks (lib/fallback/not-article.ts); the site's rules
 * off their rendered lines and the page (`renderedEvidence`). The verdict asks for the evidence
 * cheapest first and only as far as it needs: an ordinary article is settled by its word count and
 * its first three long paragraphs, and the page is walked only for a short text or for one of short
 * paragraphs whose headlines could make it a listing.
 */
import type { AnyNode, Document, Element } from 'domhandler';
import { countWords, wordsAtLeast } from '../text/words';
import { HEADING_LEVEL, isHidden, SKIP_TAGS, type ContentLine, type ContentRoot } from './content';
import { headAndBody, isElement } from './parse';
import { wordsOf } from './prose';

/** Under this many words, a text is no article. */
export const NOT_ARTICLE_MIN_WORDS = 25;
/** Under this many words, a text on a page mostly of links (over `NOT_ARTICLE_MAX_LINK_DENSITY` of its words) is no article. */
export const NOT_ARTICLE_SHORT_WORDS = 50;
export const NOT_ARTICLE_MAX_LINK_DENSITY = 0.5;
/** This many linked headlines or more, under `WORDS_PER_HEADLINE` words each, and fewer than `LONG_PARAGRAPHS` long paragraphs: a listing. */
export const LINKED_HEADLINES = 3;
export const WORDS_PER_HEADLINE = 60;
export const LONG_PARAGRAPHS = 3;
/** A long paragraph: this many characters or more, under `LONG_PARAGRAPH_MAX_LINK_SHARE` of its words in links. */
export const LONG_PARAGRAPH_CHARS = 200;
export const LONG_PARAGRAPH_MAX_LINK_SHARE = 0.3;
/** A linked headline: a heading with at least this share of its words in links. */
export const HEADLINE_MIN_LINK_SHARE = 0.8;

/** A heading (level 1-6, 0: not a heading) that is (nearly) all link text. */
export function isLinkedHeadline(heading: number, words: number, linkWords: number): boolean {
  return heading > 0 && words > 0 && linkWords >= words * HEADLINE_MIN_LINK_SHARE;
}

/** A paragraph of prose long enough that a few of them make a text an article. */
export function isLongParagraph(chars: number, words: number, linkWords: number): boolean {
  return chars >= LONG_PARAGRAPH_CHARS && linkWords < words * LONG_PARAGRAPH_MAX_LINK_SHARE;
}

/** What the verdict reads, asked for only as far as it needs it. */
export interface NotArticleEvidence {
  /** Words of the extracted text (`countWords`). */
  readonly words: number;
  /** The extracted text: its words counted again as a reader counts them where `words` would flag it. */
  readonly text: string;
  /** Share of the page's words inside links (1 for a page without words). Asked of a short text only. */
  pageLinkDensity(): number;
  /** Long paragraphs of the text (`isLongParagraph`); counting may stop at `enough`. */
  longParagraphs(enough: number): number;
  /** Linked headlines of the text, and one for each gap between two of its parts that holds one; counting may stop at `enough`. */
  linkedHeadlines(enough: number): number;
}

/** Why the page is not an article, or '' when it looks like one. */
export function notArticleReason(e: NotArticleEvidence): string {
  // counted again (as a reader counts) only where countWords' count is short
  const short = e.words < NOT_ARTICLE_SHORT_WORDS;
  let words = short ? wordsAtLeast(e.text, e.words, NOT_ARTICLE_SHORT_WORDS) : e.words;
  if (words < NOT_ARTICLE_MIN_WORDS) return 'almost no text';
  if (words < NOT_ARTICLE_SHORT_WORDS && e.pageLinkDensity() > NOT_ARTICLE_MAX_LINK_DENSITY) return 'little text, mostly links';
  if (e.longParagraphs(LONG_PARAGRAPHS) >= LONG_PARAGRAPHS) return '';
  let linked = linkedHeadlines(e, words);
  if (isListing(words, linked) && !short) {
    // too few words for so many headlines, as countWords counts them: counted again, and the
    // headlines as far as more words need
    const counted = wordsAtLeast(e.text, words, linked * WORDS_PER_HEADLINE);
    if (counted > words) {
      words = counted;
      linked = linkedHeadlines(e, words);
    }
  }
  return isListing(words, linked) ? 'linked headlines with teasers' : '';
}

/** The text's linked headlines, counted as far as a listing of `words` words needs: more than words / WORDS_PER_HEADLINE, and LINKED_HEADLINES at least. */
function linkedHeadlines(e: NotArticleEvidence, words: number): number {
  return e.linkedHeadlines(Math.max(LINKED_HEADLINES, Math.floor(words / WORDS_PER_HEADLINE) + 1));
}

/** A stack of linked headlines with no more than teasers between them. */
const isListing = (words: number, linked: number): boolean => linked >= LINKED_HEADLINES && words / linked < WORDS_PER_HEADLINE;

/** Share of the words under `doc`'s body (its root, without one) inside links; 1 without words. */
export function pageLinkDensity(doc: Document): number {
  const { html, body } = headAndBody(doc);
  const counts = wordsOf([body ?? html ?? doc], isHidden);
  return counts.words === 0 ? 1 : counts.linkWords / counts.words;
}

/**
 * The evidence of a rendered text (the site's rules' output): its lines as `renderContent` gave them
 * (`ContentOptions.lines`), the roots it rendered, in document order, and the page they are from.
 */
export function renderedEvidence(
  doc: Document,
  out: { readonly text: string; readonly wordCount: number; readonly lines: readonly ContentLine[]; readonly roots: readonly ContentRoot[] },
): NotArticleEvidence {
  return {
    words: out.wordCount,
    text: out.text,
    pageLinkDensity: () => pageLinkDensity(doc),
    longParagraphs: (enough) => {
      let n = 0;
      for (const line of out.lines) {
        if (line.text.length < LONG_PARAGRAPH_CHARS) continue;
        if (isLongParagraph(line.text.length, countWords(line.text), line.linkText ? countWords(line.linkText) : 0) && ++n >= enough) break;
      }
      return n;
    },
    linkedHeadlines: (enough) => {
      let n = 0;
      for (const line of out.lines) {
        if (line.heading > 0 && line.linkText && isLinkedHeadline(line.heading, countWords(line.text), countWords(line.linkText)) && ++n >= enough) return n;
      }
      // the gaps only when they could make up the rest (one each at most)
      const roots = out.roots;
      if (n + roots.length - 1 < enough) return n;
      for (let k = 1; k < roots.length && n < enough; k++) if (linkedHeadlineBetween(lastNode(roots[k - 1]), firstNode(roots[k]))) n++;
      return n;
    },
  };
}

const firstNode = (root: ContentRoot): AnyNode => (isRun(root) ? root[0] : root);
const lastNode = (root: ContentRoot): AnyNode => (isRun(root) ? root[root.length - 1] : root);
const isRun = (root: ContentRoot): root is readonly AnyNode[] => Array.isArray(root);

/** The node after `node` and everything under it, in document order. */
function following(node: AnyNode): AnyNode | null {
  for (let n: AnyNode | null = node; n; n = n.parent) if (n.next) return n.next;
  return null;
}

/** Whether a linked headline lies after `from` (and what it holds) and before `to`. */
function linkedHeadlineBetween(from: AnyNode, to: AnyNode): boolean {
  const holdsTo = new Set<AnyNode>();
  for (let p = to.parent; p; p = p.parent) holdsTo.add(p);
  let n = following(from);
  while (n && n !== to) {
    if (holdsTo.has(n)) {
      // it holds `to`: what comes before `to` is inside it
      n = isElement(n) && n.children.length ? n.children[0] : following(n);
      continue;
    }
    if (isElement(n) && holdsLinkedHeadline(n)) return true;
    n = following(n);
  }
  return false;
}

/** Whether the element is, or holds, a visible heading that is a linked headline. */
function holdsLinkedHeadline(root: Element): boolean {
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (SKIP_TAGS.has(el.name) || isHidden(el)) continue;
    const level = HEADING_LEVEL[el.name];
    if (level) {
      const counts = wordsOf([el], isHidden);
      if (isLinkedHeadline(level, counts.words, counts.linkWords)) return true;
      continue;
    }
    for (const child of el.children) if (isElement(child)) stack.push(child);
  }
  return false;
}
