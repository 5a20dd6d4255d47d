/**
 * Apply a site's content rules to a parsed page: every node any selector matches, in document
 * order, a match inside an earlier match taken once (with its ancestor), the clean selectors' nodes
 * left out, then text and clean HTML (lib/html/content.ts). Before the body's first node, the dek
 * selectors' nodes are the body's head (the article's summary under its headline) and the header
 * selectors' nodes give the article's header text.
 */
import type { Document, Element } from 'domhandler';
import { indexSelectors, isAncestorOrSelf, matchesAny, selectOutermost, type MatcherIndex } from './selector';
import type { ContentRule } from '../types/rules-document';
import { renderContent, type ArticleContent } from './content';

export interface RulesExtraction extends ArticleContent {
  /** The article's header (byline and dateline line, lead caption), when the rules have header selectors and they match. */
  readonly header?: string;
  /** Nodes taken (outermost matches, the dek's included). */
  readonly nodes: number;
  /** Selectors (content, dek, header or clean) skipped because css-select can't compile them. */
  readonly invalidSelectors: readonly string[];
}

export interface ExtractOptions {
  readonly baseUrl?: string;
}

/** The elements a page's content rules take, before rendering (apply's and the report's one reading of the rules). */
export interface RuleNodes {
  /** The content selectors' outermost matches, in document order. */
  readonly body: Element[];
  /** The dek selectors' outermost matches before the body's first element. */
  readonly dek: Element[];
  /** The header selectors' outermost matches before the body's first element, less the dek's and those inside it (one around it is rendered without it). */
  readonly header: Element[];
  /** The clean selectors: elements left out of what the others take. */
  readonly clean: MatcherIndex;
}

export function selectRuleNodes(doc: Document, rules: ContentRule, invalid: string[]): RuleNodes {
  const content = indexSelectors(rules.selectors, invalid);
  const clean = indexSelectors(rules.clean, invalid);
  const body = selectOutermost(doc, content);
  // before the body's first node: the walk stops there, or at a match holding it
  const before = (selectors: readonly string[] | undefined) => (selectors?.length && body.length ? selectOutermost(doc, indexSelectors(selectors, invalid), body[0]) : []);
  const dek = before(rules.dek);
  // a header element is not the dek nor inside it: its text would be given twice
  const header = before(rules.header).filter((h) => !dek.some((d) => isAncestorOrSelf(d, h)));
  return { body, dek, header, clean };
}

export function extractWithRules(doc: Document, rules: ContentRule, options: ExtractOptions = {}): RulesExtraction {
  const invalid: string[] = [];
  const nodes = selectRuleNodes(doc, rules, invalid);
  const skip = nodes.clean.size === 0 ? undefined : (el: Element) => matchesAny(nodes.clean, el);
  const render = (els: readonly Element[], leaveOut = skip) => renderContent(els, { skip: leaveOut, baseUrl: options.baseUrl });
  const body = render(nodes.body);
  // the dek heads a body that has text: a page whose body selectors take nothing readable gives way as before
  const dek = body.wordCount > 0 && nodes.dek.length ? render(nodes.dek) : undefined;
  const result = dek?.wordCount ? joinContent(dek, body) : body;
  // a header element around the dek is rendered without it
  const withoutDek = nodes.dek.length ? (el: Element) => nodes.dek.includes(el) || !!skip?.(el) : skip;
  const header = nodes.header.length ? render(nodes.header, withoutDek).text : '';
  return {
    ...result,
    ...(header.trim() ? { header } : {}),
    nodes: nodes.body.length + (dek?.wordCount ? nodes.dek.length : 0),
    invalidSelectors: invalid,
  };
}

/** Two rendered parts as one, in order. */
function joinContent(first: ArticleContent, second: ArticleContent): ArticleContent {
  return { text: `${first.text}\n${second.text}`, html: first.html + second.html, wordCount: first.wordCount + second.wordCount };
}
