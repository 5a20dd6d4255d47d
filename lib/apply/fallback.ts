/**
 * The single-page extractor for sites without rules (and pages their rules select nothing on).
 * It is lib/fallback's combination: Dragnet's block classifier, the Readability-style DOM
 * heuristic, maximum subsequence segmentation and the title, with the default model shipped in
 * models/fallback-default.json. See lib/fallback/ and docs/fallback.md.
 *
 * `notArticle` flags pages that look like a listing or a home page (lib/fallback/not-article.ts).
 */
import type { Document } from 'domhandler';
import type { ArticleContent } from './content';
import { extractCombined } from '../fallback/extract';
import type { FallbackModel } from '../fallback/model';

export interface FallbackOptions {
  readonly baseUrl?: string;
  /** A model retrained from the store (`trainFromStore`); the shipped default when absent. */
  readonly model?: FallbackModel;
  /** The page's title when the caller has it already (lib/apply/metadata.ts), to save reading it again. */
  readonly title?: string;
}

export interface FallbackResult extends ArticleContent {
  /** The page looks like a listing or home page rather than an article. */
  readonly notArticle: boolean;
  /** Blocks output. */
  readonly nodes: number;
  /** Diagnostics: why notArticle was set, or '' when it wasn't. */
  readonly reason: string;
}

export function extractFallback(doc: Document, options: FallbackOptions = {}): FallbackResult {
  return extractCombined(doc, options);
}
