/**
 * A parsed page as the field learner and extractor see it: its elements indexed by id and class,
 * element paths in the paper's notation, and the three kinds of rule (absolute path, CSS classes,
 * HTML id) resolved to one element each.
 *
 * Path notation: `/html[1]/body[2]/div[3]/h1[1]`, one step per element from the document root, the
 * number the element's 1-based position among its parent's element children (CSS `:nth-child`).
 */
import { Element, type Document, type ParentNode } from 'domhandler';
import { compileSelector, cssEscape, safeMatch } from '../html/selector';
import { classesOf, elementRange, elements, headAndBody } from '../html/parse';

export type RuleKind = 'path' | 'class' | 'id' | 'selector';

export interface RuleRef {
  readonly kind: RuleKind;
  /** Path (`/html[1]/body[2]/…`), space-separated class names (all required), the id, or a CSS selector. */
  readonly value: string;
  /** `own`: the element's own text only (its text nodes, not its child elements'), as in `<h1>Title <span>date</span></h1>`. */
  readonly text?: 'own';
  /** byline: the element introduced the name on every training post it was right on ("By Jane Doe"): it gives none where it introduces none. */
  readonly announced?: true;
}

export class FieldPage {
  readonly body: Element | undefined;
  private byIdMap?: Map<string, Element>;
  private byClassMap?: Map<string, Element[]>;

  constructor(readonly doc: Document) {
    this.body = headAndBody(doc).body;
  }

  private index(): void {
    if (this.byIdMap) return;
    this.byIdMap = new Map();
    this.byClassMap = new Map();
    if (!this.body) return;
    for (const el of elements(this.body)) {
      const id = el.attribs.id?.trim();
      if (id && !this.byIdMap.has(id)) this.byIdMap.set(id, el);
      for (const c of classesOf(el)) {
        let list = this.byClassMap.get(c);
        if (!list) this.byClassMap.set(c, (list = []));
        list.push(el);
      }
    }
  }

  /** The first element of the body, in document order, that `test` takes. */
  private firstWith(test: (el: Element) => boolean): Element | undefined {
    if (!this.body) return undefined;
    const { order, from, to } = elementRange(this.body);
    for (let i = from; i < to; i++) if (test(order.elements[i])) return order.elements[i];
    return undefined;
  }

  private order?: Map<Element, number>;

  /** The element's position in document order (0 for the first element of the page). */
  orderOf(el: Element): number {
    if (!this.order) {
      this.order = new Map();
      let i = 0;
      for (const e of elements(this.doc)) this.order.set(e, i++);
    }
    return this.order.get(el) ?? Number.MAX_SAFE_INTEGER;
  }

  /** Id and class lookups answered so far by walking the body; past INDEX_AFTER of them, the index answers. */
  private walked = 0;

  /**
   * Whether an id or class lookup walks the body to its element (apply asks a few: one or two per
   * field), or reads the index of every id and class, built once (learning asks hundreds).
   */
  private walk(): boolean {
    if (this.byIdMap || this.walked >= INDEX_AFTER) return false;
    this.walked++;
    return true;
  }

  /** The element a rule designates: the one at the path, or the first (document order) with the id / all the classes. */
  select(rule: RuleRef): Element | undefined {
    switch (rule.kind) {
      case 'path':
        return resolvePath(this.doc, rule.value);
      case 'id':
        if (this.walk()) return this.firstWith((el) => el.attribs.id !== undefined && el.attribs.id.trim() === rule.value && rule.value !== '');
        this.index();
        return this.byIdMap!.get(rule.value);
      case 'selector': {
        const match = compileSelector(rule.value);
        if (!match) return undefined;
        return this.firstWith((el) => safeMatch(match, el));
      }
      case 'class': {
        const [firstClass, ...rest] = rule.value.split(' ').filter(Boolean);
        if (!firstClass) return undefined;
        if (this.walk()) {
          return this.firstWith((el) => {
            const raw = el.attribs.class;
            if (raw === undefined || !raw.includes(firstClass)) return false;
            const cs = classesOf(el);
            return cs.includes(firstClass) && rest.every((c) => cs.includes(c));
          });
        }
        this.index();
        const list = this.byClassMap!.get(firstClass);
        if (!list) return undefined;
        if (rest.length === 0) return list[0];
        return list.find((el) => {
          const cs = classesOf(el);
          return rest.every((c) => cs.includes(c));
        });
      }
    }
  }
}

/** Id and class lookups a page answers by walking its body before it indexes them all (FieldPage.select). */
const INDEX_AFTER = 4;

function elementChildren(parent: ParentNode): Element[] {
  return parent.children.filter((c): c is Element => c instanceof Element);
}

/** The element's absolute path from the document root. */
export function pathOf(el: Element): string {
  const steps: string[] = [];
  let node: Element | null = el;
  while (node) {
    const parent: ParentNode | null = node.parent as ParentNode | null;
    const siblings = parent ? elementChildren(parent) : [node];
    steps.push(`${node.name}[${siblings.indexOf(node) + 1}]`);
    node = parent instanceof Element ? parent : null;
  }
  return '/' + steps.reverse().join('/');
}

const STEP = /^([a-z][a-z0-9:_-]*)\[(\d+)\]$/i;

/** The element at a path, or undefined when the page has none there (or another tag there). */
export function resolvePath(doc: Document, path: string): Element | undefined {
  const steps = path.split('/').filter(Boolean);
  let parent: ParentNode = doc;
  let el: Element | undefined;
  for (const step of steps) {
    const m = STEP.exec(step);
    if (!m) return undefined;
    const child: Element | undefined = elementChildren(parent)[Number(m[2]) - 1];
    if (!child || child.name !== m[1].toLowerCase()) return undefined;
    el = child;
    parent = child;
  }
  return el;
}

/**
 * The rule as a CSS selector, for a human reader and for tools (apply resolves rules by kind and value:
 * the first matching element in document order, as `querySelector` would).
 */
export function selectorOf(rule: RuleRef): string {
  switch (rule.kind) {
    case 'id':
      return `#${cssEscape(rule.value)}`;
    case 'selector':
      return rule.value;
    case 'class':
      return rule.value.split(' ').filter(Boolean).map((c) => `.${cssEscape(c)}`).join('');
    case 'path':
      return rule.value
        .split('/')
        .filter(Boolean)
        .map((step, i) => {
          const m = STEP.exec(step);
          if (!m) return step;
          return i === 0 ? `${cssEscape(m[1])}:root` : `${cssEscape(m[1])}:nth-child(${m[2]})`;
        })
        .join(' > ');
  }
}
