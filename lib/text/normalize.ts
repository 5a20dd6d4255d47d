/**
 * The comparison forms of a text, in a module of their own that imports nothing: ./match.ts (which
 * loads chrono-node's date parsers, about half a second) re-exports them, and the CLI's formatting
 * takes them from here.
 */

/** White space collapsed, trimmed. */
export function collapse(s: string): string {
  return s.replace(/[\s\u00a0\u200b\u2060\ufeff]+/g, ' ').trim();
}

/**
 * The comparison form of a text: Unicode NFKC, lower case, typographic quotes and dashes made
 * plain, white space collapsed, surrounding quotes and a trailing period dropped.
 */
export function normalizeText(s: string): string {
  return collapse(
    s
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'")
      .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\u2026/g, '...'),
  )
    .replace(/^["']+|["']+$/g, '')
    .replace(/\.$/, '')
    .trim();
}
