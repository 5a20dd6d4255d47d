/**
 * What a user most likely meant by a URL typed without its scheme (`www.example.com/page.html`,
 * `localhost:8080/story`): the same with `http://` before it, when that is a URL spider takes and its
 * host looks like one (a dot, a port, or localhost), so that `not a url` gets no such guess.
 */
import { HttpUrlSchema } from '../types/messages';

/**
 * Names that end as a file's (`story.html`, `page.json`): a file name, not a host, so a missing file of
 * that name gets no `http://story.html` guess. None of these is a top-level domain.
 */
const FILE_ENDINGS = /\.(html?|xhtml|shtml|mhtml|txt|json|jsonl|xml|pdf|csv)$/i;

/** `http://<text>` when the text has no scheme and that is a valid http URL of a plausible host; else undefined. */
export function withSchemeGuess(text: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  const guess = `http://${text}`;
  if (!HttpUrlSchema.safeParse(guess).success) return undefined;
  const url = new URL(guess);
  if (FILE_ENDINGS.test(url.hostname)) return undefined;
  return url.hostname.includes('.') || url.port || /(^|\.)localhost$/.test(url.hostname) ? guess : undefined;
}

/** `; did you mean http://…?` for a reason about such a text, or nothing. */
export function schemeHint(text: string): string {
  const guess = withSchemeGuess(text);
  return guess ? `; did you mean ${guess}?` : '';
}
