/**
 * Small text helpers shared by the fallback methods: words as the metric counts them, the tokens of
 * an element's id and class names, white-space collapsing.
 */
import type { Element } from 'domhandler';

export { lowerWords, words } from '../text/words';

/** White space collapsed to single spaces, trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const tokenCache = new Map<string, readonly string[]>();
const EMPTY: readonly string[] = [];

/**
 * Tokens of an id/class value: split on anything but letters and digits and at camelCase humps,
 * lowercased, digits-only and one-letter pieces dropped (`articleBody post-content_2` →
 * `article body post content`). Cached: pages repeat their class names.
 */
export function nameTokens(value: string): readonly string[] {
  if (!value) return EMPTY;
  let t = tokenCache.get(value);
  if (t) return t;
  const out: string[] = [];
  for (const part of value.split(/[^A-Za-z0-9]+/)) {
    if (!part) continue;
    for (const piece of part.split(/(?<=[a-z])(?=[A-Z])/)) {
      const p = piece.toLowerCase();
      if (p.length < 2 || p.length > 24 || /^\d+$/.test(p)) continue;
      if (!out.includes(p)) out.push(p);
    }
  }
  t = out.length ? out : EMPTY;
  if (tokenCache.size > 50_000) tokenCache.clear();
  tokenCache.set(value, t);
  return t;
}

/** Tokens of an element's id and class attributes together. */
export function elementTokens(el: Element): readonly string[] {
  const a = el.attribs;
  const id = a.id;
  const cls = a.class;
  if (!id && !cls) return EMPTY;
  if (!id) return nameTokens(cls!);
  if (!cls) return nameTokens(id);
  return nameTokens(`${cls} ${id}`);
}
