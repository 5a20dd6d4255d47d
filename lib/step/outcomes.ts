/**
 * Each step's answer to "is it done?", asked on AWS of a message received again after its last
 * receive (lib/aws/sqs-records.ts, StoredOutcome): the invocation of that receive died, but maybe only
 * after its step had done its work (the article written, then the timeout or the crash, before SQS saw
 * the delete). What each step's message is for, found in the store, written at or after `since` (when
 * the message was sent): by this message's step or by a later one of the same page, either way at
 * least as new as what the message asked for. The key of what was found, or undefined.
 *
 * - apply: the page's article.
 * - render and fetch (a URL): the article of the page the URL is, read through its redirect record as
 *   every reader reads it: the whole chain the message starts, done. Not the feature document or the
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

/** The apply step's: the page's article key when it was written at or after `since`. */
export async function applyOutcome(message: Pick<ApplyMessage, 'site' | 'pageId'>, store: Store, since: Date): Promise<string | undefined> {
  const key = keys.article(message.site, message.pageId);
  const stored = await store.get(key);
  return stored && stored.lastModified.getTime() >= since.getTime() ? key : undefined;
}

/** The render and fetch steps': the key of the URL's article (or its landing page's) when it was written at or after `since`. */
export async function pageOutcome(message: Pick<RenderMessage, 'url'>, store: Store, since: Date): Promise<string | undefined> {
  const written = async (site: string, pageId: string) => {
    const key = keys.article(site, pageId);
    const stored = await store.get(key);
    if (!stored) return undefined;
    let times: { pageStoredAt?: string; extractedAt?: string };
    try {
      times = JSON.parse(stored.body.toString()) as typeof times;
    } catch {
      return undefined;
    }
    return { key, lastModified: stored.lastModified, pageStoredAt: times.pageStoredAt, extractedAt: String(times.extractedAt ?? '') };
  };
  const { value } = await readThroughRedirect(store, siteOf(message.url), pageIdOf(message.url), written);
  return value && value.lastModified.getTime() >= since.getTime() ? value.key : undefined;
}
