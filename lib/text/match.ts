/**
 * Text matching of article fields (Gkotsis et al., section 2.4): normalisation, the title's exact
 * match, the author's partial match ("By X", "Posted by X", "Written by X | date"). The text of
 * an element as the matcher sees it is lib/html/element-text.ts.
 */
import { decodeHTMLStrict } from 'entities';
import { findDate } from './dates';
import { collapse, normalizeText } from './normalize';
import { terms } from './terms';

// Defined in ./normalize.ts, which loads no date parser (chrono-node): the CLI's output formatting compares titles with it.
export { collapse, normalizeText };

/**
 * A value read from markup that still carries character references, as a reader reads it: a JSON-LD
 * string, or a meta the page escaped twice ("AT&amp;amp;T" is "AT&amp;T" once parsed, "AT&T" here).
 * Only references closed by a semicolon ("R&D", "Terms&notices" stay).
 */
export function unescapeEntities(s: string): string {
  return s.includes('&') ? decodeHTMLStrict(s) : s;
}

/**
 * The loosest comparison form of a text: Unicode NFKC, lower case, letters and digits only, one space
 * between words ("Foo – Bar!" is "foo bar"). How a title part is looked for in a page's text, and
 * a heading or a line compared with a title.
 */
export function plainWords(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Most site and section names cut off a title ("Headline - Section | Subsection - Site" has three). */
const MAX_TITLE_NAMES = 5;

/** Separators between a headline and a site or section name in a normalised title ("headline - cnn.com", "headline | site", « as "). */
const TITLE_SEPARATOR = /\s+(?:[|\-\u00b7•"]|::)\s+/;

/**
 * The normalised forms a title value may be written as on the page: the value, and the value without
 * short site or section names (at most 4 words each, together no more words than the rest, fewer
 * when cut on both sides) after, before or on both sides of separators, up to five of them.
 * "Pure Space Shuttle Porn | Autopia | Wired.com" is also "pure space shuttle porn | autopia" and
 * "pure space shuttle porn"; "Headline - Presidential Politics | Political News - FOXNews.com" and
 * "FOXNews.com - Headline - Local News | US News" are also "headline".
 */
export function headlineVariants(value: string): string[] {
  const full = normalizeText(value);
  const out = new Set<string>(full ? [full] : []);
  const words = (s: string) => s.split(' ').filter(Boolean).length;
  // Split keeping the separators, so a part can be cut off with its separator.
  const pieces = full.split(new RegExp(`(${TITLE_SEPARATOR.source})`));
  const parts = pieces.filter((_, k) => k % 2 === 0);
  const seps = pieces.filter((_, k) => k % 2 === 1);
  const join = (from: number, to: number) => parts.slice(from, to).map((p, k) => (k === 0 ? p : seps[from + k - 1] + p)).join('');
  const partWords = (from: number, to: number) => parts.slice(from, to).reduce((n, p) => n + words(p), 0);
  // a few names at most: a longer run of short parts is no title's site and sections (and would cost a join each)
  const maxCut = Math.min(parts.length - 1, MAX_TITLE_NAMES);
  // names cut before the headline (a site's: "Site - Headline"), after it (sections, the site), or both
  // ("Site - Headline - Section"); what is cut must be short (names), and no more words than what is
  // kept (the headline; fewer when cut on both sides), separators not counted
  for (let cut = 1; cut <= maxCut; cut++) {
    for (let before = 0; before <= cut; before++) {
      const end = parts.length - (cut - before);
      const cutWords = partWords(0, before) + partWords(end, parts.length);
      const short = parts.slice(0, before).every((p) => words(p) <= 4) && parts.slice(end).every((p) => words(p) <= 4);
      const kept = partWords(before, end);
      // cut on both sides, the headline must outweigh the names ("Win - Sports News - ESPN" is no "Sports News")
      const outweighs = before > 0 && end < parts.length ? kept > cutWords : kept >= cutWords;
      if (short && kept >= 2 && outweighs) out.add(normalizeText(join(before, end)));
    }
  }
  return [...out];
}

/** Whether a text is a title value, exactly or without the value's site-name suffix or prefix. */
export function isTitleOf(text: string | undefined, variants: readonly string[]): boolean {
  if (!text) return false;
  const n = normalizeText(text);
  return n.length > 0 && variants.includes(n);
}

/** Titles match when they are equal after normalisation ("absolute and complete" matching). */
export function sameTitle(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const na = normalizeText(a);
  return na.length > 0 && na === normalizeText(b);
}

/** Words that introduce a byline (any case): "By", "Posted by", "Author:". */
const BYLINE_PREFIX = new RegExp(
  '^(?:' +
    [
      '(?:(?:posted|written|published|reported|story|words|text|compiled|edited|photos?|article|report|post)\\s+)?by\\b',
      '(?:author|authors|writer|autor(?:in)?|auteur|autore)\\s*:',
      'escrito por\\b', 'publicado por\\b', 'scritto da\\b', 'geschrieben von\\b', '[ée]crit par\\b', 'publi[ée] par\\b',
    ].join('|') +
    ')[\\s:]*',
  'i',
);
/**
 * Short foreign words for "by": in lower case before a capitalised name ("par Jean Dupont", "par
 * AFP"); those that are also a surname's particle, and any capitalised, only before a name of two
 * capitalised words or more ("von Anna Schmidt", "Von Anna Schmidt", "di Mario Rossi"), as before
 * one word they are the name's own: "de Souza", "da Silva", "Von Miller".
 */
const FOREIGN_PREFIX = /^(?:(?:par|por|door|av) (?=\p{Lu})|(?:von|af|di|da|de|Von|Par|Por|Door) (?=\p{Lu}\S* \p{Lu}))/u;

function stripPrefix(s: string): string {
  return s.replace(BYLINE_PREFIX, '').replace(FOREIGN_PREFIX, '');
}

/** Whether a byline text opens with words that introduce the name ("By", "Posted by", "Author:", "par"), after any separator. */
export function announcesByline(text: string): boolean {
  const t = collapse(text).replace(/^[\s,;:|·•\-–—]+/u, '');
  return stripPrefix(t) !== t;
}

/** Where a byline ends inside a longer line: a separator, or "on <date>", "at <time>", "in <section>". */
const BYLINE_END = /\s*(?:\s[|·•—–\/]\s|\s-{1,2}\s|\n|\s(?:on|at|in|um|am|le|el|il|op|den|on:)\s+(?=[\p{Lu}\p{N}])|\s\(|\s*\|)/u;

/** A name must have a letter, and not look like a URL, an e-mail address or a sentence. */
function plausibleName(s: string): boolean {
  if (!s || s.length > 120 || !/\p{L}/u.test(s)) return false;
  if (/^(?:https?:)?\/\//i.test(s) || /\S@\S/.test(s)) return false;
  return s.split(' ').length <= 12;
}

/**
 * The author's name in a byline text: "By Jane Doe" → "Jane Doe", "Posted by Jane Doe on March 3,
 * 2012 | 5 comments" → "Jane Doe", "Written by Jane Doe | 03/14/2026 | Print" → "Jane Doe",
 * "By Jane Doe, March 3, 2024" → "Jane Doe".
 * Undefined when nothing name-like is left.
 */
export function extractByline(text: string): string | undefined {
  // white space collapsed within each line: a line break ends a byline (BYLINE_END)
  let t = text
    .split(/\r?\n/)
    .map(collapse)
    .filter(Boolean)
    .join('\n');
  // a separator before the name ("| By Jane Doe") goes first, so the "By" after it is seen
  t = stripPrefix(t.replace(/^[\s,;:|·•\-–—]+/u, ''));
  const end = BYLINE_END.exec(t);
  if (end && end.index > 0) t = t.slice(0, end.index);
  // a date written after the name ("By Jane Doe, March 3, 2024"): a name has no date in it
  const date = findDate(t); // undefined at once on text without a digit
  if (date && date.index > 0) t = t.slice(0, date.index);
  t = t.replace(/[\s,;:|·•\-–—]+$/u, '').replace(/^[\s,;:|·•\-–—]+/u, '').trim();
  // a byline of two words or more written twice (in capitals and as written: a styled copy and a
  // plain one): once, as written ("Ali Ali" is a name)
  const words = t.split(/\s+/u);
  const half = words.length / 2;
  if (Number.isInteger(half) && half >= 2) {
    const [first, second] = [words.slice(0, half).join(' '), words.slice(half).join(' ')];
    if (first.toLowerCase() === second.toLowerCase()) t = first === first.toUpperCase() ? second : first;
  }
  return plausibleName(t) ? t : undefined;
}

/** The comparison form of a byline: normalised, "by" dropped, " and " / " & " / " und " as ", ". */
export function normalizeByline(s: string): string {
  return normalizeText(stripPrefix(collapse(s)))
    .replace(/\s+(?:and|&|und|et|y|e|en|och)\s+/g, ', ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/[.,;:]+$/, '')
    .trim();
}

/** Bylines match when their normalised forms are equal ("Jane Doe" = "By JANE DOE"). */
export function sameByline(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const na = normalizeByline(a);
  return na.length > 0 && na === normalizeByline(b);
}

/** A machine-readable author value made presentable: no "By", not a URL; undefined when unusable. */
export function cleanAuthorValue(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const t = stripPrefix(collapse(s)).trim();
  return plausibleName(t) ? t : undefined;
}

/**
 * Whether a text restates a summary (a page's description): of the two, the one with fewer distinct
 * terms (words that carry meaning, as TF-IDF counts them: lib/text/terms.ts; at least `minTerms`)
 * has at least `minShare` of them in the other. Either may be the other cut short: a description
 * ending in "…", a dek that is the description's first sentence.
 */
export function restates(text: string, summary: string, minTerms = 5, minShare = 0.8): boolean {
  const a = new Set(terms(text));
  const b = new Set(terms(summary));
  const [fewer, more] = a.size <= b.size ? [a, b] : [b, a];
  return fewer.size >= minTerms && termShare(fewer, more) >= minShare;
}

/** Whether a summary says little more than a title: `minShare` of its terms are the title's. */
export function saysTitle(summary: string, title: string, minShare = 0.8): boolean {
  const a = new Set(terms(summary));
  return a.size > 0 && termShare(a, new Set(terms(title))) >= minShare;
}

/** Share of the terms of `a` found in `b`. */
function termShare(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return a.size ? shared / a.size : 0;
}
