/**
 * The page-level guard of rule extraction (issue 13): a site's rules can select *something* on a
 * page of another template (a byline, one caption of a video page or a gallery) where the page
 * plainly holds an article of hundreds of words, or take mostly link text (a related-stories list).
 * Such a page is better served by the single-page extractor, and its site should relearn.
 *
 * The rules can also miss part of a page's story: a site's pages vary (an extra wrapper, a second
 * body column, a list inside the story), and selectors learned from a few pages take only the parts
 * those pages had. Then a page-level extractor's article holds the rules' article and more.
 *
 * It must stay cheap, so it works in two stages:
 * 1. `suspectRulesOutput`: one walk over the page's paragraphs and a count of the links in what the
 *    rules took. Suspicious when the rules took less than `minShare` of the words the page holds in
 *    paragraphs of prose (paragraphs mostly outside links), when mostly link text, or when Mozilla
 *    Readability, run in the page at render time (its marks in the snapshot), kept more than
 *    `maxReadabilityGain` times the rules' words.
 * 2. Only then the single-page extractor runs, and its result is served when it holds at least
 *    `minGain` times the rules' words (and is not a listing), when the rules' output was mostly
 *    links and the extractor's is not, or when it holds the rules' article (`minContainment` of its
 *    word 4-grams) and more: a page of comments or of several stories, where the rules rightly take
 *    a small part, keeps the rules' result because the extractor finds no more there.
 *
 * What the page "plainly holds" is counted from the parsed snapshot apply has anyway; any other
 * page-level measure can replace `pageWords`.
 */
import type { Document, Element } from 'domhandler';
import { isHidden, SKIP_TAGS } from '../html/content';
import { elementOrder, isText } from '../html/parse';
import { isProse, PROSE_MAX_LINK_SHARE, PROSE_MIN_WORDS, wordsOf } from '../html/prose';
import { scorePage } from '../metric/metric';
import { countWords, wordsAtLeast } from '../text/words';
import { READABILITY_MARK } from '../types/feature-document';

export interface GuardOptions {
  /** Rules' words under this share of the page's prose words make the output suspicious. */
  readonly minShare: number;
  /** Rules' output with more than this share of its words in links is suspicious. */
  readonly maxLinkShare: number;
  /** The single-page result is served when it has at least this many times the rules' words. */
  readonly minGain: number;
  /** A paragraph counts as prose with at least this many words... */
  readonly minParagraphWords: number;
  /** ...and at most this share of them in links. */
  readonly maxParagraphLinkShare: number;
  /** The in-page Readability keeping more than this many times the rules' words makes the output suspicious. */
  readonly maxReadabilityGain: number;
  /** The single-page result is served when it holds this share of the rules' word 4-grams and more words. */
  readonly minContainment: number;
}

export const DEFAULT_GUARD_OPTIONS: GuardOptions = {
  minShare: 0.3,
  maxLinkShare: 0.5,
  minGain: 2,
  minParagraphWords: PROSE_MIN_WORDS,
  maxParagraphLinkShare: PROSE_MAX_LINK_SHARE,
  maxReadabilityGain: 1.25,
  minContainment: 0.8,
};

/** What the rules took, as the guard needs it. */
export interface RulesOutput {
  readonly text: string;
  readonly wordCount: number;
  /** Clean HTML of the output (links kept as `<a>`). */
  readonly html: string;
}

/** What the single-page extractor gives. */
export interface SinglePageOutput {
  readonly text: string;
  readonly wordCount: number;
  readonly html: string;
  readonly notArticle?: boolean;
}

export interface GuardDecision<F extends SinglePageOutput> {
  /** Why the rules' output was suspicious (undefined: it was not, and nothing else ran). */
  readonly suspicion?: string;
  /** The single-page result to serve instead, with the reason; undefined: keep the rules'. */
  readonly replace?: { readonly result: F; readonly reason: string };
}

/** What the page plainly holds, counted in one walk (`pageWords`). */
export interface PageWords {
  /** Words of its paragraphs of prose: `p` elements with minParagraphWords words or more, mostly outside links. */
  readonly prose: number;
  /** Words of the text the in-page Readability kept (its marks in the snapshot; 0 without them). */
  readonly readability: number;
}

/** Both counts of `PageWords` in one walk of the page (a walk costs as much as the counting). */
export function pageWords(doc: Document, options: GuardOptions = DEFAULT_GUARD_OPTIONS): PageWords {
  let prose = 0;
  let readability = 0;
  const paragraph = (el: Element) => {
    if (el.name !== 'p' || isHidden(el)) return;
    const counts = wordsOf([el]);
    if (isProse(counts, options.minParagraphWords, options.maxParagraphLinkShare)) prose += counts.words;
  };
  // Readability's marked text is not looked for inside script, style and the like. Their paragraphs
  // (a <noscript>'s fallback content) count as prose, as they always have. The
  // page's elements in document order (elementOrder): `ends[i]` is past what the one at `i` holds.
  const { elements, ends } = elementOrder(doc);
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    paragraph(el);
    if (SKIP_TAGS.has(el.name)) {
      for (let j = i + 1; j < ends[i]; j++) paragraph(elements[j]);
      i = ends[i] - 1;
    } else if (el.attribs[READABILITY_MARK] !== undefined) {
      for (const child of el.children) if (isText(child)) readability += countWords(child.data);
    }
  }
  return { prose, readability };
}

const ANCHOR = /<a\b[^>]*>([\s\S]*?)<\/a>/gi;
const TAG = /<[^>]+>/g;

/** Share of an output's words inside links, from its clean HTML. */
export function linkShare(out: RulesOutput): number {
  if (out.wordCount === 0) return 0;
  let linked = 0;
  for (const m of out.html.matchAll(ANCHOR)) linked += countWords(m[1].replace(TAG, ' '));
  return Math.min(1, linked / out.wordCount);
}

/** Stage 1: why the rules' output looks wrong for this page, or undefined. */
export function suspectRulesOutput(doc: Document, out: RulesOutput, options: GuardOptions = DEFAULT_GUARD_OPTIONS): string | undefined {
  const links = linkShare(out);
  if (links > options.maxLinkShare) return `${Math.round(links * 100)}% of the rules' words are in links`;
  const { prose, readability } = pageWords(doc, options);
  // the page's prose is counted as a reader counts it (readerWords: in a script written without
  // spaces, two letters a word): so are the rules' words against it, where countWords makes a
  // Japanese sentence one word; recounted only when countWords finds too few (wordsAtLeast)
  const words = wordsAtLeast(out.text, out.wordCount, options.minShare * prose);
  if (words < options.minShare * prose) return `the rules took ${words} words where the page holds ${prose} in paragraphs of prose`;
  if (readability > options.maxReadabilityGain * out.wordCount) return `the rules took ${out.wordCount} words where Readability kept ${readability}`;
  return undefined;
}

/** Share of `inner`'s word 4-grams that `outer` holds too. */
export function containment(inner: string, outer: string): number {
  const s = scorePage(inner, outer);
  return s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0;
}

/**
 * Both stages: the single-page extractor (`singlePage`, called only when the output is suspicious)
 * replaces the rules' output when it holds clearly more of the page's text.
 */
export function guardRulesOutput<F extends SinglePageOutput>(
  doc: Document,
  out: RulesOutput,
  singlePage: () => F,
  options: GuardOptions = DEFAULT_GUARD_OPTIONS,
): GuardDecision<F> {
  const suspicion = suspectRulesOutput(doc, out, options);
  if (!suspicion) return {};
  const result = singlePage();
  if (result.notArticle || result.wordCount === 0) return { suspicion };
  const rulesLinks = linkShare(out);
  const gain = result.wordCount >= options.minGain * out.wordCount;
  const lessLinks = rulesLinks > options.maxLinkShare && linkShare(result) <= options.maxLinkShare && result.wordCount >= out.wordCount;
  const holdsMore = result.wordCount > out.wordCount && containment(out.text, result.text) >= options.minContainment;
  if (!gain && !lessLinks && !holdsMore) return { suspicion };
  const reason = `${suspicion}; the single-page extractor took ${result.wordCount}`;
  return { suspicion, replace: { result, reason } };
}
