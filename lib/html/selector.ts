/**
 * CSS selectors on htmlparser2 trees (css-select): compiled once and cached, grouped by the tag their
 * subject must have, and the outermost matches under a root in document order; identifiers escaped
 * for writing them. Rule application, field learning and field application share them.
 */
import { compile } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { elementRange } from './parse';
import { COLLECTOR_SKIP_TAGS, hidesSubtree } from './content';

export type Matcher = (el: Element) => boolean;

/** Compiled selectors by selector string; `null` for a selector css-select can't compile. */
const compiled = new Map<string, Matcher | null>();
const MAX_CACHED = 10_000;

/** The compiled matcher of a selector, or undefined when css-select can't compile it (cached either way). */
export function compileSelector(selector: string): Matcher | undefined {
  let m = compiled.get(selector);
  if (m === undefined) {
    try {
      const query = compile<AnyNode, Element>(selector);
      m = (el: Element) => query(el);
    } catch {
      m = null;
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(selector, m);
  }
  return m ?? undefined;
}

/**
 * The tag name a selector's subject must have (`p` for `body > div.x > p.y`), or undefined when it
 * can match any tag (no tag in the last compound, a selector group, functional pseudo-classes).
 * Lets apply test each element only against the selectors that can match its tag.
 */
export function subjectTag(selector: string): string | undefined {
  let start = 0; // start of the last compound
  let depth = 0; // inside [...] or (...)
  let quote = '';
  let lastWasSpace = false;
  const s = selector.trim();
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      // An escape: hex digits and one optional white space, or any single character.
      let j = i + 1;
      let k = 0;
      while (k < 6 && j < s.length && /[0-9a-f]/i.test(s[j])) {
        j++;
        k++;
      }
      if (k > 0) {
        if (j < s.length && /\s/.test(s[j])) j++;
        i = j - 1;
      } else i++;
      lastWasSpace = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '(' || c === ')' || (depth === 0 && (c === ',' || c === '|'))) return undefined;
    else if (depth === 0 && (c === '>' || c === '+' || c === '~' || /\s/.test(c))) {
      start = i + 1;
      lastWasSpace = true;
      continue;
    }
    lastWasSpace = false;
  }
  if (lastWasSpace || quote || depth !== 0) return undefined;
  const m = /^[a-z][a-z0-9-]*/i.exec(s.slice(start));
  // an escape in the tag (`o\:p`, Word's markup) ends the name early: any tag then, not a wrong one
  if (m && s[start + m[0].length] === '\\') return undefined;
  return m ? m[0].toLowerCase() : undefined;
}

/** True when css-select can compile the selector. */
export function isValidSelector(selector: string): boolean {
  return compileSelector(selector) !== undefined;
}

/** CSS.escape (CSSOM §2.1.1) for an identifier: tag and class names, ids (learned selectors, field rules). */
export function cssEscape(value: string): string {
  let out = '';
  const first = value.charCodeAt(0);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0) out += '\uFFFD';
    else if (
      (c >= 0x1 && c <= 0x1f) ||
      c === 0x7f ||
      (i === 0 && c >= 0x30 && c <= 0x39) ||
      (i === 1 && c >= 0x30 && c <= 0x39 && first === 0x2d)
    ) {
      out += '\\' + c.toString(16) + ' ';
    } else if (i === 0 && value.length === 1 && c === 0x2d) out += '\\' + value[i];
    else if (
      c >= 0x80 ||
      c === 0x2d ||
      c === 0x5f ||
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a)
    ) {
      out += value[i];
    } else out += '\\' + value[i];
  }
  return out;
}

/** A matcher that throws on an odd element (css-select on a malformed tree) does not match it. */
export function safeMatch(m: Matcher, el: Element): boolean {
  try {
    return m(el);
  } catch {
    return false;
  }
}

/** Compiled selectors grouped by the tag their subject must have; `any` holds those that can match any tag. */
export interface MatcherIndex {
  readonly byTag: ReadonlyMap<string, readonly Matcher[]>;
  readonly any: readonly Matcher[];
  readonly size: number;
}

/** Each selector list's index and the selectors of it that do not compile, kept while the list lives (a rules document's, parsed once per stored version). */
const indexes = new WeakMap<readonly string[], { readonly index: MatcherIndex; readonly invalid: readonly string[] }>();

/**
 * The index of a selector list, built once per list (the same array again: the same index), the
 * selectors css-select can't compile added to `invalid` each time.
 */
export function indexSelectors(selectors: readonly string[], invalid?: string[]): MatcherIndex {
  let entry = indexes.get(selectors);
  if (!entry) {
    const bad: string[] = [];
    entry = { index: buildIndex(selectors, bad), invalid: bad };
    indexes.set(selectors, entry);
  }
  if (invalid) for (const s of entry.invalid) invalid.push(s);
  return entry.index;
}

function buildIndex(selectors: readonly string[], invalid: string[]): MatcherIndex {
  const byTag = new Map<string, Matcher[]>();
  const any: Matcher[] = [];
  let size = 0;
  for (const s of selectors) {
    const m = compileSelector(s);
    if (!m) {
      invalid.push(s);
      continue;
    }
    size++;
    const tag = subjectTag(s);
    if (tag === undefined || tag === '*') any.push(m);
    else {
      let list = byTag.get(tag);
      if (!list) byTag.set(tag, (list = []));
      list.push(m);
    }
  }
  return { byTag, any, size };
}

/** True when any selector of the index matches the element. */
export function matchesAny(index: MatcherIndex, el: Element): boolean {
  const tagged = index.byTag.get(el.name);
  if (tagged) for (const m of tagged) if (safeMatch(m, el)) return true;
  for (const m of index.any) if (safeMatch(m, el)) return true;
  return false;
}

const NOT_READ: ReadonlySet<string> = new Set(COLLECTOR_SKIP_TAGS);

/**
 * The outermost elements under `root` that any selector of the index matches, in document order,
 * none inside an element the collector never reads (COLLECTOR_SKIP_TAGS) or one hidden with all it
 * holds (hidesSubtree); with `until`, only those before that element (the walk stops there).
 */
export function selectOutermost(root: Document | Element, index: MatcherIndex, until?: Element): Element[] {
  const taken: Element[] = [];
  if (index.size === 0) return taken;
  // the elements under root in document order; `i = ends[i] - 1` steps over what the one at `i` holds
  const { order, from, to } = elementRange(root);
  const { elements, ends } = order;
  for (let i = from; i < to; i++) {
    const node = elements[i];
    if (node === until) break;
    // what the collector never read, or the page does not show, is never taken: a <noscript>'s, a
    // <template>'s, a hidden element's
    if (NOT_READ.has(node.name) || hidesSubtree(node)) {
      i = ends[i] - 1;
      continue;
    }
    if (matchesAny(index, node)) {
      if (until && isAncestorOrSelf(node, until)) break; // it holds `until`: what follows comes after
      taken.push(node);
      i = ends[i] - 1; // nested matches come with their ancestor
    }
  }
  return taken;
}

/** Whether `a` is `b` or one of its ancestors. */
export function isAncestorOrSelf(a: AnyNode, b: AnyNode): boolean {
  for (let n: AnyNode | null = b; n; n = n.parent) if (n === a) return true;
  return false;
}
