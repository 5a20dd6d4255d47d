/**
 * The words of an id or class name, as the fallback's id/class features (lib/fallback) and the
 * learner's names of boilerplate (lib/learn/names.ts) read them.
 */
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
