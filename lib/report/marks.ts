/**
 * What a site's rules take on one stored page, element by element, for the report: the body's
 * elements (apply's outermost matches of the content selectors, of the page's template on a site of
 * several, after the dek's matches before the first of them), the header's (its matches before
 * the body's first element), the parts cleaned out of either, and the elements the field rules read
 * the title, byline and published date from. The same selector code apply runs (lib/html/selector.ts,
 * lib/fields), on the same parse of the snapshot (lib/html/parse.ts).
 *
 * Each element is named by its tag and position (`:root > body:nth-child(2) > div:nth-child(3)`): the
 * snapshot is Chromium's own serialization, so the browser that draws it builds the same tree and
 * finds it there; where markup reads otherwise in htmlparser2, the tags make the path find nothing.
 */
import { Element } from 'domhandler';
import { readFieldRules } from '../fields/apply-fields';
import type { FieldName } from '../fields/extract';
import { isElement, parseHtml } from '../html/parse';
import { compileSelector, matchesAny, selectOutermost } from '../html/selector';
import { renderContent } from '../html/content';
import { contentRulesFor } from '../html/template-choice';
import { renderRuleBody, selectRuleNodes } from '../html/extract-with-rules';
import type { RulesDocument } from '../types/rules-document';

export type BoxKind = 'body' | 'header' | 'clean' | FieldName;

/** The `rule` of a box of bare prose: no selector takes it, apply takes it between the body's elements. */
export const BARE_PROSE_RULE = 'prose written bare between the body\u2019s elements';

/** Drawing order and legend: a field box is drawn over the header or body box it may sit in. */
export const BOX_KINDS: readonly BoxKind[] = ['body', 'header', 'clean', 'title', 'byline', 'published'];

export interface Mark {
  readonly kind: BoxKind;
  /** The element's tag and position from the root, a CSS selector of `tag:nth-child(n)` steps (elementPath). */
  readonly path: string;
  /**
   * For prose written bare between two of the body's elements (`withBareProse`), which is no
   * element: the position of the element after it, a sibling of the one at `path`, which lies
   * before it. The box is that of what lies between the two.
   */
  readonly until?: string;
  /** The rule that took it: a content, header or clean selector, a field rule's selector, or BARE_PROSE_RULE. */
  readonly rule: string;
  /** Its text, white space collapsed, shortened. */
  readonly text: string;
}

export interface PageMarks {
  readonly marks: readonly Mark[];
  /** Selectors css-select cannot compile (apply skips them too). */
  readonly invalidSelectors: readonly string[];
}

export function markPage(snapshot: string, rules: Pick<RulesDocument, 'content' | 'templates' | 'fields'>): PageMarks {
  const doc = parseHtml(snapshot);
  const invalid: string[] = [];
  // a site of several templates: the rules apply chooses for this page
  const content = contentRulesFor(doc, rules).content;
  const marks: Mark[] = [];
  const mark = (kind: BoxKind, el: Element, candidates: readonly string[]) => {
    const rule = candidates.find((s) => matches(s, el)) ?? candidates[0] ?? '';
    marks.push({ kind, path: elementPath(el), rule, text: shorten(renderContent([el]).text) });
  };

  // what apply takes (lib/html/extract-with-rules.ts): the dek is the body's head, where apply takes it;
  // the lines that show the byline and the date the field rules read are left out of the body
  const fields = rules.fields ? readFieldRules(doc, rules.fields) : undefined;
  const nodes = selectRuleNodes(doc, content, invalid, fields?.lines);
  const { body, header, clean } = nodes;
  const rendered = renderRuleBody(nodes);
  const dek = rendered.dek ? nodes.dek : [];
  for (const el of dek) mark('body', el, content.dek ?? []);
  // the elements of the runs of bare prose, where clean selectors may match too
  const runElements: Element[] = [];
  for (const root of rendered.roots) {
    if (root instanceof Element) {
      // a line that shows the byline or the date is the field's (drawn below), not the body's
      if (!nodes.fieldLines.has(root)) mark('body', root, content.selectors);
      continue;
    }
    // withBareProse cuts a run at block-level elements only: an element lies before it and after it
    const before = root[0].prev as Element;
    const after = root[root.length - 1].next as Element;
    const text = shorten(renderContent([root], { skip: rendered.skip }).text);
    marks.push({ kind: 'body', path: elementPath(before), until: elementPath(after), rule: BARE_PROSE_RULE, text });
    for (const n of root) if (isElement(n)) runElements.push(n);
  }
  for (const el of header) mark('header', el, content.header ?? []);
  if (clean.size > 0) {
    for (const taken of [...dek, ...body, ...runElements, ...header]) {
      const removed = matchesAny(clean, taken) ? [taken] : selectOutermost(taken, clean);
      for (const el of removed) mark('clean', el, content.clean);
    }
  }
  // apply's choice: the first rule whose element holds a value
  for (const { field, rule, el } of fields?.read ?? []) marks.push({ kind: field, path: elementPath(el), rule: rule.selector, text: shorten(renderContent([el]).text) });
  return { marks, invalidSelectors: [...new Set(invalid)] };
}

function matches(selector: string, el: Element): boolean {
  const m = compileSelector(selector);
  try {
    return m ? m(el) : false;
  } catch {
    return false;
  }
}

/**
 * `:root > body:nth-child(2) > …`: the element's tag and position among its element siblings, from
 * the root down. The tag makes a tree the browser built otherwise (markup htmlparser2 reads
 * differently) find nothing, not another element.
 */
export function elementPath(el: Element): string {
  const steps: string[] = [];
  let node: Element = el;
  for (;;) {
    const parent = node.parent;
    if (!parent || !isElement(parent)) break;
    steps.unshift(`${cssTag(node.name)}:nth-child(${parent.children.filter(isElement).indexOf(node) + 1})`);
    node = parent;
  }
  return [':root', ...steps].join(' > ');
}

/** A tag name as a CSS type selector (`fb:like` → `fb\:like`). */
function cssTag(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
}

function shorten(text: string, max = 200): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1).trimEnd() + '…' : t;
}
