/**
 * Apply a site's content rules to a parsed page: every node any selector matches, in document
 * order, a match inside an earlier match taken once (with its ancestor), the clean selectors' nodes
 * left out, then text and clean HTML (lib/html/content.ts). The header selectors' nodes before the body
 * give the article's header text.
 */
import type { Document, Element } from 'domhandler';
import { indexSelectors, matchesAny, selectOutermost } from './selector';
import type { ContentRule } from '../types/rules-document';
import { renderContent, type ArticleContent } from './content';

export interface RulesExtraction extends ArticleContent {
  /** The article's header (dek, byline and dateline line, lead caption), when the rules have header selectors and they match. */
  readonly header?: string;
  /** Nodes taken (outermost matches). */
  readonly nodes: number;
  /** Selectors (content or clean) skipped because css-select can't compile them. */
  readonly invalidSelectors: readonly string[];
}

export interface ExtractOptions {
  readonly baseUrl?: string;
}

export function extractWithRules(doc: Document, rules: ContentRule, options: ExtractOptions = {}): RulesExtraction {
  const invalid: string[] = [];
  const content = indexSelectors(rules.selectors, invalid);
  const clean = indexSelectors(rules.clean, invalid);
  const nodes = selectOutermost(doc, content);
  const skip = clean.size === 0 ? undefined : (el: Element) => matchesAny(clean, el);
  const result = renderContent(nodes, { skip, baseUrl: options.baseUrl });
  // the header: its matches before the body's first node (the walk stops there or at a match holding it)
  let header: string | undefined;
  if (rules.header?.length && nodes.length) {
    const headerNodes = selectOutermost(doc, indexSelectors(rules.header, invalid), nodes[0]);
    const text = headerNodes.length ? renderContent(headerNodes, { skip, baseUrl: options.baseUrl }).text : '';
    if (text.trim()) header = text;
  }
  return { ...result, ...(header ? { header } : {}), nodes: nodes.length, invalidSelectors: invalid };
}
