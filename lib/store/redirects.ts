/**
 * A submitted URL whose navigation ended on another site (lib/store/keys.ts pageUrlOf): its page is
 * that site's, and its redirect record (lib/types/redirect-record.ts) at the submitted URL's place
 * says where it went. Render writes it; every reader of a URL's article reads through it. Documented
 * in docs/storage-layout.md ("Redirects").
 */
import type { ArticleDocument } from '../types/article-document';
import { RedirectRecordSchema, REDIRECT_RECORD_VERSION, type RedirectRecord } from '../types/redirect-record';
import { readDocument, type ReadDocumentOptions } from './documents';
import { keys, pageIdOf, siteOf } from './keys';
import { putJson, type Store } from './store';

export interface PageRef {
  readonly url: string;
  readonly site: string;
  readonly pageId: string;
}

/** The page a URL names: the URL, its site and page id. */
export function pageRefOf(url: string): PageRef {
  return { url, site: siteOf(url), pageId: pageIdOf(url) };
}

/**
 * Records that `from` (the submitted URL) landed on `to`, another site's page. It deletes nothing:
 * render, which runs Chromium on untrusted pages, holds no delete rights. What an earlier version
 * filed at the submitted URL's place (its pages and article, made under the submitted site) stays;
 * the record, written later than that page was stored, is what readers take (readThroughRedirect).
 */
export async function recordRedirect(store: Store, from: PageRef, to: PageRef): Promise<RedirectRecord> {
  const record: RedirectRecord = { version: REDIRECT_RECORD_VERSION, url: from.url, to: { url: to.url, site: to.site, pageId: to.pageId }, at: new Date().toISOString() };
  await putJson(store, keys.redirect(from.site, from.pageId), record);
  return record;
}

/** Sites this process knows to hold a redirect record, per store: the records are never deleted by the steps. */
const knownRedirecting = new WeakMap<Store, Set<string>>();
const MAX_KNOWN_SITES = 5000;

function redirectingSites(store: Store): Set<string> {
  let sites = knownRedirecting.get(store);
  if (!sites) knownRedirecting.set(store, (sites = new Set()));
  if (sites.size >= MAX_KNOWN_SITES) sites.clear();
  return sites;
}

/**
 * Whether a site is a redirector (a link shortener's): the store holds at least one redirect record
 * under it (one of its URLs was rendered and landed on another site) and no page of its own. A site
 * of its own pages with a stray redirect (one moved story, a consent page on another domain) is no
 * shortener: its pages are not asked where they lead first. One LIST of at most one key each (S3:
 * MaxKeys 1), however many the site has; a yes is remembered by the process until one of its URLs
 * answers for itself (`forgetRedirecting`), a no is asked again, as a record may come any time.
 */
export async function siteRedirects(store: Store, site: string): Promise<boolean> {
  const sites = redirectingSites(store);
  if (sites.has(site)) return true;
  const found = (await store.list(keys.redirectPrefix(site), { max: 1 })).length > 0 && (await store.list(keys.pagePrefix(site), { max: 1 })).length === 0;
  if (found) sites.add(site);
  return found;
}

/** A site taken for a redirector whose URL answered for itself: asked of the store again next time. */
export function forgetRedirecting(store: Store, site: string): void {
  knownRedirecting.get(store)?.delete(site);
}

/** The redirect record at a submitted URL's place (its site and page id), if there is one (a bad one is quarantined, as `options` say, and read as none). */
export function readRedirect(store: Store, site: string, pageId: string, options: ReadDocumentOptions = {}): Promise<RedirectRecord | undefined> {
  return readDocument(store, keys.redirect(site, pageId), RedirectRecordSchema, options);
}

/** What an article says of when its page was read: when that page was stored, else (an article written before `pageStoredAt`) when it was extracted. */
export type PageTimed = Pick<ArticleDocument, 'pageStoredAt' | 'extractedAt'>;

/**
 * Whether a URL's redirect record is newer than the article at the URL's own place: the record's `at`
 * (when render followed the redirect) later than the article's page (`pageStoredAt`, else
 * `extractedAt`). The page's time, not the extraction's: a relearn that extracts an old page at the
 * URL's place again (render deletes nothing there) does not make it newer than the record.
 */
export function redirectIsNewer(redirect: Pick<RedirectRecord, 'at'>, own: PageTimed): boolean {
  return Date.parse(redirect.at) > Date.parse(own.pageStoredAt ?? own.extractedAt);
}

/**
 * What `read` finds for a URL's article (its site and page id): at its own place, or, when the URL
 * was redirected to another site's page, at that page's, with the redirect record that led there.
 * When both are there the newer wins (redirectIsNewer): a URL that started redirecting has a record
 * newer than its old page's article; one that stopped gets its own page again, stored after its
 * record. A newer record whose landing page has no article yet gives the record alone, never the
 * older article. Every reader of a URL's article reads through this.
 */
export async function readThroughRedirect<T extends PageTimed>(
  store: Store,
  site: string,
  pageId: string,
  read: (site: string, pageId: string) => Promise<T | undefined>,
  options: ReadDocumentOptions = {},
): Promise<{ readonly value?: T; readonly redirect?: RedirectRecord }> {
  const [own, redirect] = await Promise.all([read(site, pageId), readRedirect(store, site, pageId, options)]);
  if (own !== undefined && !(redirect && redirectIsNewer(redirect, own))) return { value: own };
  if (!redirect) return {};
  const value = await read(redirect.to.site, redirect.to.pageId);
  return value === undefined ? { redirect } : { value, redirect };
}
