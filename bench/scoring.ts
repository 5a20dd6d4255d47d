/**
 * What the bench scores of an extractor's output. Both datasets' gold starts with the article's
 * headline on most pages (dragnet-sites 72%, l3s-gn1 65%), while every extractor returns the
 * headline apart from the body (our article's `title`, Readability's `article.title`, Postlight's
 * `result.title`, extractus' `article.title`, defuddle's `result.title`). By default every tool is
 * scored the same way, on the article as a reader sees it: its own title as the first line, then its
 * body, unless the body already starts with that title. `--body-only` scores the bodies alone.
 */
import { plainWords } from '../lib/text/match';

export type ScoringMode = 'title+body' | 'body';

/** The body's first non-blank line. */
function firstLine(text: string): string {
  for (const line of text.split('\n')) if (line.trim()) return line;
  return '';
}

/**
 * Separators between a headline and a site or section name in a title: "Headline | Site", "Site -
 * Headline". Not lib's TITLE_SEPARATOR (lib/text/titles.ts), which also cuts at "word: ": that one
 * finds where a site's name ends, one cut at a time; here every piece is a candidate alone, and a
 * headline's own colon would make its first words one ("Sandra Fluke: 'Legitimate rape' - …" is no
 * "Sandra Fluke" line). Measured with it: every tool's score moved on l3s-gn1 and portals, both ways.
 */
const TITLE_SEPARATOR = /\s+[|\-–—:«»·•~/\\]+\s+/;

/**
 * Whether a body's first line already shows the title: equal once case, white space and punctuation
 * are normalised; or equal to one part of a title made of parts ("Headline | Section | The Site",
 * a part of at least two words); or one is the other with words added at its start or end (a title
 * with a site name without separator, a headline with a comment count, "Headline 211"), the shorter
 * holding at least half the longer's words.
 */
export function showsTitle(title: string, line: string): boolean {
  const a = plainWords(title);
  const b = plainWords(line);
  if (!a || !b) return false;
  if (a === b) return true;
  for (const part of title.split(TITLE_SEPARATOR)) {
    const p = plainWords(part);
    if (p === b && p.split(' ').length >= 2) return true;
  }
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!(long.startsWith(short + ' ') || long.endsWith(' ' + short))) return false;
  return short.split(' ').length * 2 >= long.split(' ').length;
}

/**
 * The title as the first line, then the body; the body alone when its first line already shows the
 * title (showsTitle), or when there is no title.
 */
export function joinTitle(title: string | undefined | null, body: string): string {
  const t = (title ?? '').replace(/\s+/g, ' ').trim();
  if (!plainWords(t)) return body;
  if (showsTitle(t, firstLine(body))) return body;
  return body.trim() ? `${t}\n${body}` : t;
}

/** The text scored for a tool's title and body in the given mode. */
export function scoredText(mode: ScoringMode, title: string | undefined | null, body: string): string {
  return mode === 'body' ? body : joinTitle(title, body);
}
