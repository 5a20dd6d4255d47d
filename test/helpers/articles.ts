/** Comparing article texts, and running Postlight Parser with a custom extractor, for tests. */
import Parser from '@postlight/parser';
import { renderContent } from '../../lib/html/content';
import { isElement, parseHtml } from '../../lib/html/parse';
import { scorePage } from '../../lib/metric/metric';

/** F1 of the datasets' metric (shingles of tokens). */
export function tokenF1(predicted: string, gold: string): number {
  const s = scorePage(predicted, gold);
  return s.tp === 0 ? 0 : (2 * s.tp) / (2 * s.tp + s.fp + s.fn);
}

/** What Postlight Parser gives of a page: its fields as it returns them (null when it found none). */
export interface PostlightResult {
  readonly title: string;
  readonly text: string;
  readonly author: string | null;
  readonly datePublished: string | null;
  readonly dek: string | null;
}

/**
 * Postlight Parser (the real package) run on a page's HTML with a custom extractor: its title, author,
 * date and dek, and its content read into text by lib/html's renderContent, the way our articles are
 * (Postlight's own text glues paragraphs together), so that what is compared is the selection.
 */
export async function parseWithPostlight(url: string, html: string, extractor: unknown): Promise<PostlightResult> {
  const result = await Parser.parse(url, { html, customExtractor: extractor, fetchAllPages: false } as Parameters<typeof Parser.parse>[1]);
  const text = renderContent(parseHtml(String(result.content ?? '')).children.filter(isElement)).text;
  return { title: String(result.title ?? '').trim(), text, author: result.author ?? null, datePublished: result.date_published ?? null, dek: result.dek ?? null };
}
