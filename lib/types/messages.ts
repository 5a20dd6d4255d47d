/**
 * Queue messages (format version 1). Messages carry keys, never HTML: SQS caps a message at 256 KB,
 * so archived pages travel through the store. Documented in docs/messages.md.
 */
import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;

export const HttpUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH, `URL is longer than ${MAX_URL_LENGTH} characters`)
  .superRefine((s, ctx) => {
    const url = URL.parse(s);
    if (!url) ctx.addIssue({ code: 'custom', message: 'not a valid absolute URL' });
    else if (!/^https?:$/.test(url.protocol)) ctx.addIssue({ code: 'custom', message: `only http and https URLs are supported, not ${url.protocol}` });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'URLs with a user name or password are not accepted' });
    else if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'the URL has no host' });
  });

/** Intake: render this URL (live, or from an archived copy already in the store). */
export const RenderMessageSchema = z.object({
  v: z.literal(1),
  url: HttpUrlSchema,
  /** Store key of an archived copy of the page's HTML, answered at the page's own URL. */
  archiveKey: z.string().max(1024).optional(),
  submittedAt: z.string().optional(),
});
export type RenderMessage = z.infer<typeof RenderMessageSchema>;

/** Extract the article of one rendered page. */
export const ApplyMessageSchema = z.object({
  v: z.literal(1),
  site: z.string().min(1),
  pageId: z.string().min(1),
  /** Why: a fresh render, or new rules for the site. */
  reason: z.enum(['rendered', 'relearned', 'requested']).default('rendered'),
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
