/**
 * The one title splitter: where a page title's headline and its site or section name meet
 * (" | Site", "Blog: Post", "Post « Blog"), for the metadata's title (cleanTitle in
 * lib/html/metadata.ts) and the fallback's heading match (lib/fallback/title.ts), one cut at a time.
 * Field matching compares normalised titles and cuts them its own way (headlineVariants in
 * ./match.ts: no colon, "US elections: Turnout appears high" is one headline there; short names on
 * either side of the headline or both), as it only needs the forms a title may take, not the one to show.
 */
import { lowerWords } from './words';

/**
 * Longest title, in characters, a page can give: a headline is a line. A longer value of a title
 * element, meta or JSON-LD headline is markup gone wrong (a `content="` left open that swallowed
 * the page's scripts up to the next quote), and no title at all.
 */
export const MAX_TITLE_CHARS = 400;

/**
 * A separator in a title as written: a run of | - – — : « » · / \ • ~ between spaces, a colon before
 * a space, a | however spaced (no headline writes one: "Ad|ABC 7 News", "action| Sport"), or a :
 * after a space glued to a short last part ("Post :Blog": the site's name, three words at most, not
 * a number: "won 3 :1" is a score).
 */
export const TITLE_SEPARATOR = /\s+[|\-–—:«»·\/\\•~]+\s+|:\s+|\s*\|+\s*|\s+:+(?=[^\s\d|:«»][^\s|:«»]*(?:\s[^\s|:«»]+){0,2}$)/;

/** A separator with nothing on one side: the title's decoration ("| Post", "Post |"), no part of it. */
const DECORATION = /^[|:·•–—]+\s+|\s+[|:·•–—]+$/g;
/** A guillemet at the start or the end, with a space inside it. */
const END_GUILLEMET = /^[«»]+\s+|\s+[«»]+$/g;

/**
 * The title without a separator at its start or end ("» Just For Fun" → "Just For Fun"). A guillemet
 * there is decoration only when it is the title's one guillemet: « and » around a quotation are a pair.
 */
export function withoutDecoration(title: string): string {
  const t = title.replace(DECORATION, '');
  return (t.match(/[«»]/g)?.length ?? 0) === 1 ? t.replace(END_GUILLEMET, '') : t;
}

/** Each way of cutting a title in two at one of its separators: what lies before it and after it, untrimmed. */
export function titleCuts(title: string): Array<{ readonly before: string; readonly after: string }> {
  const re = new RegExp(TITLE_SEPARATOR.source, 'g');
  const out: Array<{ before: string; after: string }> = [];
  for (let m = re.exec(title); m; m = re.exec(title)) out.push({ before: title.slice(0, m.index), after: title.slice(m.index + m[0].length) });
  return out;
}

/** The pieces between a title's separators ("A | B - C" → A, B, C). */
export function titlePieces(title: string): string[] {
  return title.split(TITLE_SEPARATOR);
}

/**
 * The title, and what lies before and after each separator in it (" | Site", "Blog: Post",
 * "Post « Blog"), parts of two words or more.
 */
export function titleParts(title: string): string[] {
  const out = [title];
  for (const { before, after } of titleCuts(title)) {
    for (const part of [before, after]) {
      const p = part.trim();
      if (lowerWords(p).length >= 2 && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

/**
 * Whether a line is the title's headline shown without the site's or section's names around it: its
 * words are those of consecutive pieces of the title (titlePieces), not all of them, and more than
 * any piece it leaves out holds: a name is shorter than the headline ("Cricket: Windies seal historic
 * win | Cricket | Guardian Unlimited Sport" shown as "Windies seal historic win"; never the
 * section's "Cricket" or the site's "Guardian Unlimited Sport" alone).
 */
export function headlineOfTitle(line: string, title: string): boolean {
  const shown = lowerWords(line).join(' ');
  if (!shown) return false;
  const pieces = titlePieces(title).map(lowerWords);
  for (let from = 0; from < pieces.length; from++) {
    for (let to = from + 1; to <= pieces.length; to++) {
      if (from === 0 && to === pieces.length) continue;
      const kept = pieces.slice(from, to).flat();
      const longestLeft = Math.max(...[...pieces.slice(0, from), ...pieces.slice(to)].map((p) => p.length));
      if (kept.length > longestLeft && kept.join(' ') === shown) return true;
    }
  }
  return false;
}
