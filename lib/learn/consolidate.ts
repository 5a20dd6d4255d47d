/**
 * Selector consolidation (Zhou & Sun §6): the chosen blocks' tag paths become CSS selectors.
 * Paths of the same length and tag sequence are merged by intersecting, step by step, their ids and
 * classes, giving one child-combinator chain from <body> per group:
 *
 *   body > div#main.a.b > p   +   body > div#main.a > p   →   body > div#main.a > p
 *
 * Generated-looking ids and classes (names.ts) never enter a selector. Selectors are also kept as
 * steps, which `pathMatches` tests against a block's path without any HTML, with the same meaning
 * as the CSS selector has in the page. The rules document writes them from their container (shorten.ts).
 */
import { cssEscape } from '../html/selector';
import type { PathStep } from '../types/feature-document';
import { stableClasses, stableId } from './names';

export interface SelectorStep {
  readonly tag: string;
  readonly id?: string;
  readonly classes: readonly string[];
  /** 1-based :nth-child position, when the step is pinned to it. */
  readonly nthChild?: number;
}

/** A selector as its steps below <body>, outermost first. */
export type SelectorSteps = readonly SelectorStep[];

export function formatStep(step: SelectorStep): string {
  return (
    cssEscape(step.tag) +
    (step.id !== undefined ? '#' + cssEscape(step.id) : '') +
    step.classes.map((c) => '.' + cssEscape(c)).join('') +
    (step.nthChild !== undefined ? `:nth-child(${step.nthChild})` : '')
  );
}

/** `body > step > step ...` */
export function formatSelector(steps: SelectorSteps): string {
  return ['body', ...steps.map(formatStep)].join(' > ');
}

/**
 * Parse a selector of the form formatSelector writes (child combinators from body; tag, #id,
 * .class, :nth-child(n) per step; CSS escapes). Null for anything else.
 */
export function parseSelector(selector: string): SelectorStep[] | null {
  const chain = parseChain(selector);
  if (!chain || chain[0].tag !== 'body' || chain[0].id || chain[0].classes.length || chain[0].nthChild) return null;
  return chain.slice(1);
}

/**
 * Parse a selector of the rules: formatSelector's, from body (`rooted`), or a tail of one that
 * matches at any depth (`div.entry > p`, shorten.ts). Null for anything else.
 */
export function parseRuleSelector(selector: string): { readonly steps: SelectorStep[]; readonly rooted: boolean } | null {
  const rooted = parseSelector(selector);
  if (rooted) return { steps: rooted, rooted: true };
  const chain = parseChain(selector);
  return chain && !chain.some((s) => s.tag === 'body') ? { steps: chain, rooted: false } : null;
}

/** The steps of a chain of compounds joined by child combinators; null for anything else. */
function parseChain(selector: string): SelectorStep[] | null {
  let pos = 0;
  const s = selector.trim();
  const isIdentChar = (ch: string) => /[A-Za-z0-9_-]/.test(ch) || ch.charCodeAt(0) >= 0x80;
  const readIdent = (): string | null => {
    let out = '';
    while (pos < s.length) {
      const ch = s[pos];
      if (ch === '\\') {
        pos++;
        if (pos >= s.length) return null;
        const hex = /^[0-9a-fA-F]{1,6}/.exec(s.slice(pos));
        if (hex) {
          out += String.fromCodePoint(parseInt(hex[0], 16));
          pos += hex[0].length;
          if (s[pos] === ' ' || s[pos] === '\t' || s[pos] === '\n') pos++;
        } else {
          const cp = s.codePointAt(pos)!;
          out += String.fromCodePoint(cp);
          pos += cp > 0xffff ? 2 : 1;
        }
      } else if (isIdentChar(ch)) {
        out += ch;
        pos++;
      } else break;
    }
    return out.length > 0 ? out : null;
  };
  const steps: SelectorStep[] = [];
  for (;;) {
    const tag = readIdent();
    if (!tag) return null;
    let id: string | undefined;
    const classes: string[] = [];
    let nthChild: number | undefined;
    for (;;) {
      if (s[pos] === '#') {
        pos++;
        const v = readIdent();
        if (v === null || id !== undefined) return null;
        id = v;
      } else if (s[pos] === '.') {
        pos++;
        const v = readIdent();
        if (v === null) return null;
        classes.push(v);
      } else if (s.startsWith(':nth-child(', pos)) {
        const m = /^:nth-child\((\d+)\)/.exec(s.slice(pos));
        if (!m) return null;
        nthChild = Number(m[1]);
        pos += m[0].length;
      } else break;
    }
    steps.push({ tag: tag.toLowerCase(), ...(id !== undefined ? { id } : {}), classes, ...(nthChild ? { nthChild } : {}) });
    const sep = /^\s*>\s*/.exec(s.slice(pos));
    if (!sep) break;
    pos += sep[0].length;
  }
  if (pos !== s.length || steps.length === 0) return null;
  return steps;
}

/** Whether one step of a selector matches one element of a path (as the CSS compound would). */
export function stepMatches(s: SelectorStep, p: PathStep): boolean {
  if (s.tag !== p.tag.toLowerCase()) return false;
  if (s.id !== undefined && s.id !== p.id) return false;
  if (s.nthChild !== undefined && s.nthChild !== p.index) return false;
  for (const c of s.classes) if (!p.classes.includes(c)) return false;
  return true;
}

/** Whether the element at the end of path is matched by the selector steps (as the CSS would). */
export function pathMatches(steps: SelectorSteps, path: readonly PathStep[]): boolean {
  return steps.length === path.length && matchesFrom(steps, path, 0);
}

/** Whether the steps (from body) match the element at the end of path or one of its ancestors. */
export function pathOrAncestorMatches(steps: SelectorSteps, path: readonly PathStep[]): boolean {
  return path.length >= steps.length && matchesFrom(steps, path, 0);
}

/** Whether the steps match the path's elements from position `start` on, step for step. */
export function matchesFrom(steps: SelectorSteps, path: readonly PathStep[], start: number): boolean {
  for (let i = 0; i < steps.length; i++) if (!stepMatches(steps[i], path[start + i])) return false;
  return true;
}

/** A kind of block across pages: its path's tags, ids and classes, positions left out. */
export function namedPath(path: readonly PathStep[]): string {
  return path.map((s) => s.tag + (s.id ? `#${s.id}` : '') + s.classes.map((c) => `.${c}`).join('')).join('>');
}

/** Group key: length and tag sequence. */
export function tagSequence(path: readonly Pick<PathStep, 'tag'>[]): string {
  return path.map((s) => s.tag.toLowerCase()).join('>');
}

/**
 * Merge paths of one tag sequence into one selector: per step the tag, the id if every path has the
 * same stable one, the stable classes every path has. Throws on paths of different tag sequences.
 */
export function intersectPaths(paths: readonly (readonly PathStep[])[]): SelectorStep[] {
  if (paths.length === 0) return [];
  const key = tagSequence(paths[0]);
  for (const p of paths) if (tagSequence(p) !== key) throw new Error('intersectPaths: paths of different tag sequences');
  return paths[0].map((first, i) => {
    const id = stableId(first);
    const sameId = id !== undefined && paths.every((p) => p[i].id === id);
    let classes = stableClasses(first);
    for (const p of paths) {
      if (classes.length === 0) break;
      const have = new Set(p[i].classes);
      classes = classes.filter((c) => have.has(c));
    }
    return { tag: first.tag.toLowerCase(), ...(sameId ? { id } : {}), classes };
  });
}

/** One selector per tag sequence, in order of first appearance. */
export function consolidatePaths(paths: readonly (readonly PathStep[])[]): SelectorStep[][] {
  const groups = new Map<string, (readonly PathStep[])[]>();
  for (const p of paths) {
    if (p.length === 0) continue;
    const key = tagSequence(p);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(p);
  }
  return [...groups.values()].map(intersectPaths);
}
