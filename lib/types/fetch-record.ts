/**
 * The fetch record (format version 1): a page fetched over HTTP on the fetch path keeps its URL in
 * a comment that leads its stored HTML as served, `pages/<site>/<pageId>/served.html`:
 *
 *   <!-- spider:fetched {"version":1,"url":"https://example.com/story","fetchedAt":"2026-11-27T14:00:00.000Z"} -->
 *
 * and, when a submitted URL of another site (a link shortener's) led to it, that URL as `submittedUrl`
 * (optional, so version 1 still: a reader before it ignores it), which a relearn's extraction keeps.
 * Such a page has no feature document, and its article comes after its first apply, which may have
 * read the site's older rules: a relearn that lists the page before that article is written reads the
 * URL here to send the page back to apply. In the file the fetch step writes anyway, not a file of
 * its own: an object more would be one S3 PUT more for every fetched page, for a race of milliseconds.
 * A comment before the document changes nothing a parser builds (not even quirks mode, which a
 * `<meta>` there would set). Only the first bytes are read: a page's own comment further on is not
 * taken for it. Documented in docs/fetch-path.md ("The fetch record").
 */
import { z } from 'zod';

export const FetchRecordSchema = z.object({
  version: z.literal(1),
  /** The page's normalised URL, the one its apply message carries. */
  url: z.string().url(),
  /** The URL submitted, of another site, whose redirect led to this page (a link shortener's); absent otherwise. */
  submittedUrl: z.string().url().optional(),
  fetchedAt: z.string(),
});
export type FetchRecord = z.infer<typeof FetchRecordSchema>;

const PREFIX = '<!-- spider:fetched ';
const SUFFIX = ' -->\n';
/** The record ends within this many bytes of the start (a URL is at most 2,048 characters: lib/types/messages.ts). */
const MAX_RECORD_BYTES = 8192;

/** The HTML as served, led by its fetch record. */
export function withFetchRecord(html: string, record: FetchRecord): string {
  // a URL has no '>' (the URL standard percent-encodes it), so '-->' cannot end the comment early
  return `${PREFIX}${JSON.stringify(FetchRecordSchema.parse(record))}${SUFFIX}${html}`;
}

/** The fetch record leading a stored served.html (after a byte order mark), or undefined: a rendered page's, or one fetched before records. */
export function fetchRecordOf(served: Buffer): FetchRecord | undefined {
  const head = served.subarray(0, MAX_RECORD_BYTES).toString('utf8').replace(/^\uFEFF/, '');
  if (!head.startsWith(PREFIX)) return undefined;
  const end = head.indexOf(SUFFIX, PREFIX.length);
  if (end < 0) return undefined;
  try {
    return FetchRecordSchema.parse(JSON.parse(head.slice(PREFIX.length, end)));
  } catch {
    return undefined;
  }
}
