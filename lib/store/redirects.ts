/**
 * A submitted URL whose navigation ended on another site (lib/store/keys.ts pageUrlOf): its page is
 * that site's, and its redirect record (lib/types/redirect-record.ts) at the submitted URL's place
 * says where it went. Render writes it; every reader of a URL's article reads through it. Documented
 * in docs/storage-layout.md ("Redirects").
 */
import { RedirectRecordSchema, REDIRECT_RECORD_VERSION, type RedirectRecord } from '../types/redirect-record';
import { readDocument, type ReadDocumentOptions } from './documents';
import { keys } from './keys';
import { putJson, type Store } from './store';

export interface PageRef {
  readonly url: string;
  readonly site: string;
  readonly pageId: string;
}

/**
 * Records that `from` (the submitted URL) landed on `to`, another site's page, and removes what an
 * earlier version filed at the submitted URL's place (its pages and article, made under the
 * submitted site: a shortener's "page"), so that place holds the pointer alone and the submitted
 * site learns nothing from a page it did not serve. What is there is listed first: nothing is
 * deleted that is not there (a delete of a missing key leaves a delete marker on a versioned bucket).
 */
export async function recordRedirect(store: Store, from: PageRef, to: PageRef): Promise<RedirectRecord> {
  const record: RedirectRecord = { version: REDIRECT_RECORD_VERSION, url: from.url, to: { url: to.url, site: to.site, pageId: to.pageId }, at: new Date().toISOString() };
  await putJson(store, keys.redirect(from.site, from.pageId), record);
  // listed, not read: the writer needs no read access to articles
  const article = keys.article(from.site, from.pageId);
  const listed = [...(await store.list(keys.pageFolder(from.site, from.pageId))), ...(await store.list(article)).filter((o) => o.key === article)];
  for (const { key } of listed) await store.delete(key);
  return record;
}

/** The redirect record at a submitted URL's place (its site and page id), if there is one (a bad one is quarantined, as `options` say, and read as none). */
export function readRedirect(store: Store, site: string, pageId: string, options: ReadDocumentOptions = {}): Promise<RedirectRecord | undefined> {
  return readDocument(store, keys.redirect(site, pageId), RedirectRecordSchema, options);
}

/**
 * What `read` finds for a URL's page (its site and page id): at its own place, else, when the URL
 * was redirected to another site's page, at that page's, with the redirect record that led there.
 * A page of its own wins over a redirect record: a URL that no longer redirects has its own page
 * again, and its record, from before, is left as it was.
 */
export async function readThroughRedirect<T>(
  store: Store,
  site: string,
  pageId: string,
  read: (site: string, pageId: string) => Promise<T | undefined>,
  options: ReadDocumentOptions = {},
): Promise<{ readonly value?: T; readonly redirect?: RedirectRecord }> {
  const own = await read(site, pageId);
  if (own !== undefined) return { value: own };
  const redirect = await readRedirect(store, site, pageId, options);
  if (!redirect) return {};
  const value = await read(redirect.to.site, redirect.to.pageId);
  return value === undefined ? { redirect } : { value, redirect };
}
