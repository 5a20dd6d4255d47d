/**
 * `pages/<site>/<pageId>/fetched.json` (format version 1): a page fetched over HTTP on the fetch path.
 * Such a page has no feature document, and its article comes after its first apply, so its URL is
 * kept here, written before that apply is sent: a relearn reads it to send the page back to apply.
 * Documented in docs/fetch-path.md ("The fetch record").
 */
import { z } from 'zod';

export const FetchRecordSchema = z.object({
  version: z.literal(1),
  site: z.string(),
  pageId: z.string(),
  /** The page's normalised URL, the one its apply message carries. */
  url: z.string().url(),
  fetchedAt: z.string(),
});
export type FetchRecord = z.infer<typeof FetchRecordSchema>;
