/**
 * Each step's answer to "is it done?", asked on AWS of a message received again after its last
 * receive (lib/aws/sqs-records.ts, StoredOutcome): the invocation of that receive died, but maybe only
 * after its step had done its work (the article written, then the timeout or the crash, before SQS saw
 * the delete). What each step's message is for, found in the store, made at or after `since` (when
 * the message was sent): by this message's step or by a later one of the same page, either way at
 * least as new as what the message asked for. The key of what was found, or undefined.
 *
 * - apply: the page's article, extracted (its `extractedAt`, to the millisecond: S3's LastModified
 *   keeps whole seconds, and an article written in the second its message was sent, before it, is not
 *   its outcome) since.
 * - render and fetch (a URL): the article of the page the URL is, read through its redirect record as
 *   every reader reads it: the whole chain the message starts, done: a page stored since (its
 *   `pageStoredAt`, the store's LastModified, whole seconds on S3, against `since` floored to its
 *   second) and extracted since. An article a relearn extracted again from the page stored before the
 *   message was sent is not it: the URL was not rendered or fetched again. Not the feature document or the
 *   HTML as served that the step itself writes: written, they do not say that the apply message sent
 *   after them went (an invocation that died between would lose the page). A page whose apply has not
 *   run yet when the message comes back reads as not done, and is dead-lettered as before.
 * - learn: none. A learn that found too few new pages writes nothing, and one that wrote rules sends
 *   the site's pages to apply after them: neither leaves in the store a sign that its work is done.
 *
 * What the steps do after the outcome (apply's drift marker, learn signal and render request for a
 * page its rules failed on) is not asked about.
 */
import type { Store } from '../store/store';
import { keys, pageIdOf, siteOf } from '../store/keys';
import { readThroughRedirect } from '../store/redirects';
import type { ApplyMessage, RenderMessage } from '../types/messages';

/** The article at a page's place, with when it was extracted and when its page was stored; undefined when there is none or it says neither. */
async function articleTimes(store: Store, site: string, pageId: string): Promise<{ key: string; extractedAt: string; pageStoredAt?: string } | undefined> {
  const key = keys.article(site, pageId);
  const stored = await store.get(key);
  if (!stored) return undefined;
  let doc: { extractedAt?: unknown; pageStoredAt?: unknown };
  try {
    doc = JSON.parse(stored.body.toString()) as typeof doc;
  } catch {
    return undefined;
  }
  if (typeof doc?.extractedAt !== 'string') return undefined;
  return { key, extractedAt: doc.extractedAt, ...(typeof doc.pageStoredAt === 'string' ? { pageStoredAt: doc.pageStoredAt } : {}) };
}

/** Whether the article was extracted at or after `since`. */
const extractedSince = (article: { extractedAt: string } | undefined, since: Date): article is { key: string; extractedAt: string } =>
  article !== undefined && Date.parse(article.extractedAt) >= since.getTime();

/** The apply step's: the page's article key when it was extracted at or after `since`. */
export async function applyOutcome(message: Pick<ApplyMessage, 'site' | 'pageId'>, store: Store, since: Date): Promise<string | undefined> {
  const article = await articleTimes(store, message.site, message.pageId);
  return extractedSince(article, since) ? article.key : undefined;
}

/** Whether the article's page was stored at or after `since`, to the whole second the store keeps (an article without `pageStoredAt`: its `extractedAt`). */
const pageStoredSince = (article: { extractedAt: string; pageStoredAt?: string }, since: Date): boolean =>
  Date.parse(article.pageStoredAt ?? article.extractedAt) >= Math.floor(since.getTime() / 1000) * 1000;

/**
 * The render and fetch steps': the key of the URL's article (or its landing page's) when its page was
 * stored at or after `since` and the article extracted from it at or after `since`.
 */
export async function pageOutcome(message: Pick<RenderMessage, 'url'>, store: Store, since: Date): Promise<string | undefined> {
  const { value } = await readThroughRedirect(store, siteOf(message.url), pageIdOf(message.url), (site, pageId) => articleTimes(store, site, pageId));
  return extractedSince(value, since) && pageStoredSince(value, since) ? value.key : undefined;
}
