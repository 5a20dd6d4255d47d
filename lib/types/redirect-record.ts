/**
 * The redirect record (format version 1): a submitted URL whose navigation ended on another site (a
 * link shortener, a moved domain) leaves its page to that site, and this record at the submitted
 * URL's place, `redirects/<site>/<pageId>.json` (the submitted URL's site and page id), names the
 * page it landed on. It points, it does not copy: the landing page's article, whatever extraction
 * or relearn wrote it last, is read at `articles/<to.site>/<to.pageId>.json`. Written by render;
 * read by `spider article`, `spider extract` and any reader that computes a submitted URL's key.
 * Documented in docs/storage-layout.md ("Redirects").
 */
import { z } from 'zod';

export const REDIRECT_RECORD_VERSION = 1 as const;

export const RedirectRecordSchema = z.object({
  version: z.literal(REDIRECT_RECORD_VERSION),
  /** The submitted URL, normalised: this record's key is its site's and page id's. */
  url: z.string(),
  /** The page the navigation ended on: its URL (normalised), site and page id, the keys of its pages and its article. */
  to: z.object({ url: z.string(), site: z.string(), pageId: z.string() }),
  /** When render followed the redirect (ISO 8601). */
  at: z.string(),
});
export type RedirectRecord = z.infer<typeof RedirectRecordSchema>;
