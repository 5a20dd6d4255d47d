/**
 * Which of a site's templates a page is (docs/rules-document.md#templates): the one whose layout
 * selectors it matches the largest share of, at least half of them; none (the rules learned from
 * every page serve it) when it matches no template's so well. One walk of the page, each element
 * tested only against the layout selectors that can match its tag.
 */
import { Element, type AnyNode, type Document } from 'domhandler';
import type { ContentRule, RulesDocument, TemplateRule } from '../types/rules-document';
import { compileSelector, safeMatch, subjectTag, type Matcher } from './selector';

/** Share of a template's layout selectors a page must match to be of that template. */
export const TEMPLATE_MIN_MATCH = 0.5;

interface LayoutIndex {
  /** By the tag a selector's subject must have ('' for any): matcher, template, selector number. */
  readonly byTag: ReadonlyMap<string, readonly { m: Matcher; t: number; s: number }[]>;
  readonly sizes: readonly number[];
}

const indexes = new WeakMap<readonly TemplateRule[], LayoutIndex>();

function layoutIndex(templates: readonly TemplateRule[]): LayoutIndex {
  let index = indexes.get(templates);
  if (index) return index;
  const byTag = new Map<string, { m: Matcher; t: number; s: number }[]>();
  templates.forEach((template, t) =>
    template.layout.forEach((selector, s) => {
      const m = compileSelector(selector);
      if (!m) return; // not evidence either way: left out of the template's count too
      const tag = subjectTag(selector);
      const key = tag === undefined || tag === '*' ? '' : tag;
      let list = byTag.get(key);
      if (!list) byTag.set(key, (list = []));
      list.push({ m, t, s });
    }),
  );
  // per template, its layout selectors that compile
  const sizes = templates.map(() => 0);
  for (const list of byTag.values()) for (const { t } of list) sizes[t]++;
  index = { byTag, sizes };
  indexes.set(templates, index);
  return index;
}

/** The index of the page's template in `templates`, or undefined when it matches none well enough. */
export function chooseTemplate(doc: Document, templates: readonly TemplateRule[]): number | undefined {
  if (templates.length === 0) return undefined;
  const { byTag, sizes } = layoutIndex(templates);
  const found = sizes.map(() => new Set<number>());
  let left = sizes.reduce((a, b) => a + b, 0);
  const any = byTag.get('') ?? [];
  const stack: AnyNode[] = [...doc.children].reverse();
  while (stack.length && left > 0) {
    const node = stack.pop()!;
    if (!(node instanceof Element)) continue;
    for (const list of [byTag.get(node.name), any]) {
      if (!list) continue;
      for (const { m, t, s } of list) {
        if (found[t].has(s) || !safeMatch(m, node)) continue;
        found[t].add(s);
        left--;
      }
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  let best: number | undefined;
  let bestShare = TEMPLATE_MIN_MATCH;
  found.forEach((matched, t) => {
    const share = sizes[t] ? matched.size / sizes[t] : 0;
    if (share >= bestShare && (best === undefined || share > bestShare)) [best, bestShare] = [t, share];
  });
  return best;
}

/** The content rules that serve this page: its template's, or those learned from every page. */
export function contentRulesFor(doc: Document, rules: Pick<RulesDocument, 'content' | 'templates'>): { content: ContentRule; template?: number } {
  const template = rules.templates?.length ? chooseTemplate(doc, rules.templates) : undefined;
  return template === undefined ? { content: rules.content } : { content: rules.templates![template].content, template };
}
