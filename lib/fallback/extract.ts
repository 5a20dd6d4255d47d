/**
 * The fallback extractor: the combination (combined.ts) with the title, the output, and the
 * not-an-article test (not-article.ts).
 */
import type { Document } from 'domhandler';
import { defaultCompiledModel } from './default-model';
import type { Block } from './blocks';
import { analyse, renderBlocks, selectBlocks, TITLE_GAP_WORDS, type CombinedAnalysis, type Selection } from './combined';
import { compileModel, type FallbackModel } from './model';
import { notArticleReason } from './not-article';
import { headlineOfTitle } from '../text/titles';
import { lowerWords } from '../text/words';
import { pageTitle } from './title';

export interface CombinedOptions {
  readonly baseUrl?: string;
  /** The model (default: the shipped one). */
  readonly model?: FallbackModel;
  /** The article's title when the caller has it (lib/html/metadata.ts); read from the page otherwise. */
  readonly title?: string;
  /** Normalised texts the page's site repeats (its rules document's `content.boilerplate`): left out. */
  readonly boilerplate?: ReadonlySet<string>;
}

export interface CombinedResult {
  readonly text: string;
  readonly html: string;
  readonly wordCount: number;
  readonly notArticle: boolean;
  readonly nodes: number;
  readonly reason: string;
  /** The headline as the article shows it, where the page's title is not the bare headline (headlineOf). */
  readonly headline?: string;
}

export function extractCombined(doc: Document, options: CombinedOptions = {}): CombinedResult {
  const model = options.model ? compileModel(options.model) : defaultCompiledModel();
  const title = options.title ?? pageTitle(doc);
  const a = analyse(doc, model.dragnet, title);
  const sel = selectBlocks(a, { boilerplate: options.boilerplate });
  const out = renderBlocks(sel.blocks, a.blocks, options.baseUrl);
  const reason = notArticleReason(a, sel, out);
  const headline = headlineOf(a, sel, title);
  return { text: out.text, html: out.html, wordCount: out.wordCount, notArticle: reason !== '', nodes: sel.blocks.length, reason, ...(headline ? { headline } : {}) };
}

/** Fewest words of a heading that stands for a headline the title does not show: a name or two ("Latest News") is none. */
export const HEADLINE_MIN_WORDS = 3;

/**
 * The headline as the article shows it, where the page's title is not the bare headline:
 * - the article's line that shows the title (its title block) without the site's or section's
 *   names the title also holds (headlineOfTitle: "Windies seal historic win" for "Cricket: Windies
 *   seal historic win | Cricket | Guardian Unlimited Sport");
 * - where the page has no title, or no line of the page shows it (it names the site or the
 *   section, as on every page: "The Sports Network"), the heading the article opens with, or else
 *   the one just before it, within TITLE_GAP_WORDS (h1-h3, HEADLINE_MIN_WORDS or more): the title
 *   without its names (headlineOfTitle), or at most half of its words the title's (more is a part
 *   of the title: "Headline, Deck" shown as the deck).
 */
function headlineOf(a: CombinedAnalysis, sel: Selection, title: string): string | undefined {
  if (sel.titleBlock >= 0) {
    const shown = a.blocks[sel.titleBlock].text;
    return headlineOfTitle(shown, title) ? shown : undefined;
  }
  if (a.titleCandidates.length > 0 || sel.blocks.length === 0) return undefined;
  const isHeading = (b: Block) => b.heading >= 1 && b.heading <= 3 && lowerWords(b.text).length >= HEADLINE_MIN_WORDS;
  let heading = isHeading(sel.blocks[0]) ? sel.blocks[0] : undefined;
  // the heading just before the article (its words apart, as step 5 lets the title stand apart)
  for (let i = sel.blocks[0].index - 1, words = 0; !heading && i >= 0 && words <= TITLE_GAP_WORDS; i--) {
    if (isHeading(a.blocks[i])) heading = a.blocks[i];
    words += a.blocks[i].words;
  }
  if (!heading || headlineOfTitle(heading.text, title)) return heading?.text;
  // one whose words the title mostly holds otherwise is a part of it (the deck of "Headline, Deck"): the title stays
  const titleWords = new Set(lowerWords(title));
  const words = lowerWords(heading.text);
  return words.filter((w) => titleWords.has(w)).length * 2 <= words.length ? heading.text : undefined;
}
