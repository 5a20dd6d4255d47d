/**
 * Queue messages (format version 1). Messages carry keys, never HTML: SQS caps a message at 256 KB,
 * so archived pages travel through the store. Documented in docs/messages.md.
 */
import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;

/**
 * Why a URL's host cannot name a site, or undefined when it can. Sites are store key segments and
 * DNS names: letters, digits, `-`, `_` (found in real subdomains) and dots, at most 253 characters
 * and 63 per label (RFC 1035). IP-literal IPv6 hosts are refused here, at the door, with the reason,
 * rather than after three fetches. lib/store/keys.ts checks site segments with this same rule.
 */
export function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith('[')) return `IPv6 address hosts are not supported (${hostname})`;
  if (hostname.length > 253) return `the host name is longer than 253 characters (${hostname.length})`;
  if (!/^[a-z0-9_.-]+$/i.test(hostname)) return `the host name ${JSON.stringify(hostname)} has characters outside letters, digits, '-', '_' and '.'`;
  const labels = hostname.split('.');
  if (labels.some((l) => l === '')) return `the host name ${JSON.stringify(hostname)} has an empty label`;
  if (labels.some((l) => l.length > 63)) return `the host name has a label longer than 63 characters`;
  return undefined;
}

export const HttpUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH, `URL is longer than ${MAX_URL_LENGTH} characters`)
  .superRefine((s, ctx) => {
    const url = URL.parse(s);
    if (!url) ctx.addIssue({ code: 'custom', message: 'not a valid absolute URL' });
    // the URL parser takes 'http://a/1 http://a/2' (two URLs on one line of a file) as one, its space as %20
    else if (/\s/.test(s.trim())) ctx.addIssue({ code: 'custom', message: 'holds white space (one URL a line; a space in a URL is written %20)' });
    else if (!/^https?:$/.test(url.protocol)) ctx.addIssue({ code: 'custom', message: `only http and https URLs are supported, not ${url.protocol}` });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'URLs with a user name or password are not accepted' });
    else if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'the URL has no host' });
    else {
      const problem = hostProblem(url.hostname);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });

/** Intake: render this URL (live, or from an archived copy already in the store). */
export const RenderMessageSchema = z.object({
  v: z.literal(1),
  url: HttpUrlSchema,
  /** Store key of an archived copy of the page's HTML, answered at the page's own URL. */
  archiveKey: z.string().max(1024).optional(),
  submittedAt: z.string().optional(),
  /**
   * `render`: render the page, whatever its site's rules say (apply sends a fetched page its rules
   * failed on back with it: the fetch path would take it again). Absent: routed (docs/fetch-path.md).
   */
  path: z.literal('render').optional(),
});
export type RenderMessage = z.infer<typeof RenderMessageSchema>;

/** Extract the article of one rendered page. */
export const ApplyMessageSchema = z.object({
  v: z.literal(1),
  site: z.string().min(1),
  pageId: z.string().min(1),
  /** Why: a fresh render, or new rules for the site. */
  reason: z.enum(['rendered', 'relearned', 'requested']).default('rendered'),
  /**
   * `fetch`: the page was fetched over HTTP without a browser (docs/fetch-path.md); apply extracts from
   * its HTML as served with the site's rules. Absent: rendered, from its snapshot.
   */
  path: z.enum(['render', 'fetch']).optional(),
  /** The page's URL (fetch path: there is no feature document to read it from). */
  url: HttpUrlSchema.optional(),
  /**
   * Fetch path: the URL submitted, of another site, whose redirect led to this page (a link
   * shortener's: lib/step/fetch-step.ts fetchThroughRedirect); the article's `submittedUrl`.
   */
  submittedUrl: HttpUrlSchema.optional(),
});
export type ApplyMessage = z.infer<typeof ApplyMessageSchema>;

/** Consider (re)learning a site's rules. */
export const LearnMessageSchema = z.object({
  v: z.literal(1),
  site: z.string().min(1),
  /** Learn now, whatever the count of new pages. */
  force: z.boolean().default(false),
});
export type LearnMessage = z.infer<typeof LearnMessageSchema>;
