/**
 * Apply a site's content rules to a parsed page: every node any selector matches, in document
 * order, a match inside an earlier match taken once (with its ancestor), the clean selectors' nodes
 * left out, then text and clean HTML (lib/html/content.ts). Prose written bare into the container
 * between two of the body's nodes is the body's too (`withBareProse`). Before the body's first
 * node, the dek selectors' nodes are the body's head (the article's summary under its headline) and
 * the header selectors' nodes give the article's header text.
 */
import type { AnyNode, Document, Element } from 'domhandler';
import { indexSelectors, isAncestorOrSelf, matchesAny, selectOutermost, type MatcherIndex } from './selector';
import type { ContentRule } from '../types/rules-document';
import { BLOCK_TAGS, isHidden, renderContent, type ArticleContent, type ContentLine, type ContentRoot } from './content';
import { isElement } from './parse';
import { PROSE_MIN_WORDS, wordsOf } from './prose';

export interface RulesExtraction extends ArticleContent {
  /** The article's header (byline and dateline line, lead caption), when the rules have header selectors and they match. */
  readonly header?: string;
  /** Nodes taken (outermost matches, the dek's included). */
  readonly nodes: number;
  /** Selectors (content, dek, header or clean) skipped because css-select can't compile them. */
  readonly invalidSelectors: readonly string[];
  /** The text's lines (the dek's, then the body's), with their headings and link text: the not-an-article test reads them (lib/html/not-article.ts). */
  readonly lines: readonly ContentLine[];
  /** The body's roots, in document order (`renderRuleBody`). */
  readonly roots: readonly ContentRoot[];
}

export interface ExtractOptions {
  readonly baseUrl?: string;
  /** The elements the site's field rules read the byline and the date from (readFieldRules): inside the body, their lines are left out. */
  readonly fieldElements?: readonly Element[];
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
  /** Lines of the body that show the byline or the date the field rules read (fieldLines): left out too. */
  readonly fieldLines: ReadonlySet<Element>;
}

/**
 * The body's lines that show the byline or the date the site's field rules read: the field's element,
 * or the nearest block-level element around it inside the body, where the fields' words are half its
 * line's or more ("Posted: 3:25 pm March 12, 2009", "By Jane Doe | May 3 | 5 comments", the byline and
 * the date counted together when one line shows both). The article gives them as its fields; a line
 * of prose that names the author is no such line.
 */
export function fieldLines(body: readonly Element[], fieldElements: readonly Element[] = []): Set<Element> {
  const fieldWords = new Map<Element, number>();
  // one element may give both fields: its words count once
  for (const el of new Set(fieldElements)) {
    const root = body.find((b) => isAncestorOrSelf(b, el));
    if (!root) continue;
    let line: Element = el;
    while (line !== root && !BLOCK_TAGS.has(line.name) && line.parent && isElement(line.parent)) line = line.parent;
    fieldWords.set(line, (fieldWords.get(line) ?? 0) + wordsOf([el], isHidden).words);
  }
  const lines = new Set<Element>();
  for (const [line, words] of fieldWords) if (words * 2 >= wordsOf([line], isHidden).words) lines.add(line);
  return lines;
}

export function selectRuleNodes(doc: Document, rules: ContentRule, invalid: string[], fieldElements?: readonly Element[]): RuleNodes {
  const content = indexSelectors(rules.selectors, invalid);
  const clean = indexSelectors(rules.clean, invalid);
  const body = selectOutermost(doc, content);
  // before the body's first node with text (an empty match above the byline does not end the header):
  // the walk stops there, or at a match holding it; looked for only where there is a dek or header
  const start = rules.dek?.length || rules.header?.length ? (body.find((el) => wordsOf([el], isHidden).words > 0) ?? body[0]) : undefined;
  const before = (selectors: readonly string[] | undefined) => (selectors?.length && start ? selectOutermost(doc, indexSelectors(selectors, invalid), start) : []);
  const dek = before(rules.dek);
  // a header element is not the dek nor inside it: its text would be given twice
  const header = before(rules.header).filter((h) => !dek.some((d) => isAncestorOrSelf(d, h)));
  return { body, dek, header, clean, fieldLines: fieldLines(body, fieldElements) };
}

export function extractWithRules(doc: Document, rules: ContentRule, options: ExtractOptions = {}): RulesExtraction {
  const invalid: string[] = [];
  const nodes = selectRuleNodes(doc, rules, invalid, options.fieldElements);
  const { body, dek, skip, roots, lines } = renderRuleBody(nodes, options);
  const result = dek ? joinContent(dek, body) : body;
  // a header element around the dek is rendered without it
  const withoutDek = nodes.dek.length ? (el: Element) => nodes.dek.includes(el) || !!skip?.(el) : skip;
  const header = nodes.header.length ? renderContent(nodes.header, { skip: withoutDek, baseUrl: options.baseUrl }).text : '';
  return {
    ...result,
    ...(header.trim() ? { header } : {}),
    nodes: nodes.body.length + (dek ? nodes.dek.length : 0),
    invalidSelectors: invalid,
    lines,
    roots,
  };
}

/**
 * The article's body as apply serves it from the rules' nodes (apply's and the report's one
 * reading): the body's nodes and the prose written bare between them, the clean selectors' elements
 * left out; and the dek, when it has text and the body has text too (a page whose body selectors
 * take nothing readable gives way to the fallback as before). `roots`: the body's nodes and runs of
 * bare prose, in order; `skip`: the elements left out; `lines`: the lines of the dek (when given)
 * and of the body, as `renderContent` gives them.
 */
export function renderRuleBody(
  nodes: RuleNodes,
  options: ExtractOptions = {},
): { body: ArticleContent; roots: ContentRoot[]; dek?: ArticleContent; skip?: (el: Element) => boolean; lines: ContentLine[] } {
  const { clean, fieldLines: byFields } = nodes;
  const skip = clean.size === 0 && byFields.size === 0 ? undefined : (el: Element) => byFields.has(el) || (clean.size > 0 && matchesAny(clean, el));
  const render = (roots: readonly ContentRoot[], lines: ContentLine[]) => renderContent(roots, { skip, baseUrl: options.baseUrl, lines });
  const roots = withBareProse(nodes.body, skip);
  const lines: ContentLine[] = [];
  const body = render(roots, lines);
  const dekLines: ContentLine[] = [];
  const dek = body.wordCount > 0 && nodes.dek.length ? render(nodes.dek, dekLines) : undefined;
  return { body, roots, ...(dek?.wordCount ? { dek } : {}), ...(skip ? { skip } : {}), lines: dek?.wordCount ? [...dekLines, ...lines] : lines };
}

/** Two rendered parts as one, in order. */
function joinContent(first: ArticleContent, second: ArticleContent): ArticleContent {
  return { text: `${first.text}\n${second.text}`, html: first.html + second.html, wordCount: first.wordCount + second.wordCount };
}

/**
 * The body's nodes with the prose written bare into their container between two of them: the
 * article's paragraphs run on where a page writes one without its element (`<p>…</p><hr>Text
 * <b>bold</b> more text<hr><p>…</p>`), and the selectors, which name elements, cannot take it.
 *
 * A run is the text and inline elements between two block-level siblings (comments and scripts
 * inside it do not end it). It is taken between two block-level body nodes of one container when it
 * has a paragraph's words (lib/html/prose.ts: 8 or more) and at least half of them are bare text:
 * a lone `<span class="byline">` is an element the learner judged, not bare prose; a bare label
 * ("Advertisement", "Share this") is too short to be a paragraph; at most half the words are in
 * links. Words are counted as rendered (hidden and cleaned elements left out). What lies before the
 * first node or after the last is outside the article.
 */
export function withBareProse(body: readonly Element[], skip?: (el: Element) => boolean): ContentRoot[] {
  const leftOut = (el: Element) => isHidden(el) || !!skip?.(el);
  const roots: ContentRoot[] = [];
  body.forEach((node, i) => {
    roots.push(node);
    const next = body[i + 1];
    if (!next || next.parent !== node.parent || !BLOCK_TAGS.has(node.name) || !BLOCK_TAGS.has(next.name)) return;
    let run: AnyNode[] = [];
    const flush = () => {
      const counts = run.length ? wordsOf(run, leftOut) : undefined;
      // a paragraph's words; half of them bare, so at most half in links: a sentence with its link is prose
      if (counts && counts.words >= PROSE_MIN_WORDS && counts.bareWords * 2 >= counts.words) roots.push(run);
      run = [];
    };
    for (let n = node.next; n && n !== next; n = n.next) {
      if (isElement(n) && BLOCK_TAGS.has(n.name)) flush();
      else run.push(n);
    }
    flush();
  });
  return roots;
}
