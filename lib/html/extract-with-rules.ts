/**
 * Apply a site's content rules to a parsed page: every node any selector matches, in document
 * order, a match inside an earlier match taken once (with its ancestor), the clean selectors' nodes
 * left out, then text and clean HTML (lib/html/content.ts). The dek selectors' nodes before the body
 * are the body's head (the article's summary under its headline); the header selectors' nodes before
 * the body give the article's header text.
 */
import type { Document, Element } from 'domhandler';
import { indexSelectors, matchesAny, selectOutermost } from './selector';
import type { ContentRule } from '../types/rules-document';
import { renderContent, type ArticleContent } from './content';

export interface RulesExtraction extends ArticleContent {
  /** The article's header (dek, byline and dateline line, lead caption), when the rules have header selectors and they match. */
  readonly header?: string;
  /** Nodes taken (outermost matches, the dek's included). */
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
  const body = selectOutermost(doc, content);
  const skip = clean.size === 0 ? undefined : (el: Element) => matchesAny(clean, el);
  // the dek: its matches before the body's first node (the walk stops there or at a match holding it)
  const dek = rules.dek?.length && body.length ? selectOutermost(doc, indexSelectors(rules.dek, invalid), body[0]) : [];
  const nodes = dek.length ? [...dek, ...body] : body;
  const result = renderContent(nodes, { skip, baseUrl: options.baseUrl });
  // the header: its matches before the body's first node (the walk stops there or at a match holding it)
  let header: string | undefined;
  if (rules.header?.length && body.length) {
    const headerNodes = selectOutermost(doc, indexSelectors(rules.header, invalid), body[0]).filter((el) => !dek.includes(el));
    const text = headerNodes.length ? renderContent(headerNodes, { skip, baseUrl: options.baseUrl }).text : '';
    if (text.trim()) header = text;
  }
  return { ...result, ...(header ? { header } : {}), nodes: nodes.length, invalidSelectors: invalid };
}
