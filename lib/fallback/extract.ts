/**
 * The fallback extractor: the combination (combined.ts) with the title, the output, and the
 * not-an-article test (not-article.ts).
 */
import type { Document } from 'domhandler';
import { defaultCompiledModel } from './default-model';
import { analyse, renderBlocks, selectBlocks } from './combined';
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
  /**
   * The article's line that shows the title (its title block), when it is the title without the
   * site's or section's names the title also holds (headlineOfTitle): the headline as the reader sees it.
   */
  readonly headline?: string;
}

export function extractCombined(doc: Document, options: CombinedOptions = {}): CombinedResult {
  const model = options.model ? compileModel(options.model) : defaultCompiledModel();
  const title = options.title ?? pageTitle(doc);
  const a = analyse(doc, model.dragnet, title);
  const sel = selectBlocks(a, { boilerplate: options.boilerplate });
  const out = renderBlocks(sel.blocks, a.blocks, options.baseUrl);
  const reason = notArticleReason(a, sel, out);
  const shown = sel.titleBlock >= 0 ? a.blocks[sel.titleBlock].text : '';
  const opening = sel.blocks[0];
  const headline = shown
    ? headlineOfTitle(shown, title)
      ? shown
      : undefined
    : a.titleCandidates.length === 0 && opening && opening.heading >= 1 && opening.heading <= 3 && lowerWords(opening.text).length >= 3
      ? opening.text
      : undefined;
  return { text: out.text, html: out.html, wordCount: out.wordCount, notArticle: reason !== '', nodes: sel.blocks.length, reason, ...(headline ? { headline } : {}) };
}
