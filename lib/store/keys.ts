/**
 * The store's key layout, the same in the S3 bucket and in the embedded data folder.
 * Documented in docs/storage-layout.md.
 *
 *   archive/<site>/<pageId>.html          archived HTML submitted with a URL (input to render)
 *   pages/<site>/<pageId>/features.json    feature document (render → learn)
 *   pages/<site>/<pageId>/snapshot.html    rendered DOM, serialized (render → apply)
 *   pages/<site>/<pageId>/served.html      the HTML as served, the main document's response body (render → apply)
 *   rules/<site>.json                      the site's rules document (learn → apply)
 *   articles/<site>/<pageId>.json          article document (apply → users)
 *   feeds/<site>/<feedId>.xml              a feed the site's pages link to, as fetched (render → learn)
 *   drift/<site>/<pageId>.json             a page the site's rules selected nothing on (apply → learn)
 *   models/fallback.json                   the fallback's model retrained from the store (`spider train` → apply)
 */
import { createHash } from 'node:crypto';

/** Site of a URL: its hostname, lowercased, without a leading `www.`. */
export function siteOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/** Normalised URL used as a page's unique key: no fragment, lowercased host, default port dropped. */
export function normalizeUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.toString();
}

/** A page's id: a short stable hash of its normalised URL, so redelivery overwrites, never duplicates. */
export function pageIdOf(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 20);
}

/** Sites become path segments: keep them to a safe alphabet. */
function segment(site: string): string {
  if (!/^[a-z0-9.-]+$/i.test(site) || site.startsWith('.')) throw new Error(`not a valid site name: ${JSON.stringify(site)}`);
  return site.toLowerCase();
}

export const keys = {
  archive: (site: string, pageId: string) => `archive/${segment(site)}/${pageId}.html`,
  pagePrefix: (site: string) => `pages/${segment(site)}/`,
  features: (site: string, pageId: string) => `pages/${segment(site)}/${pageId}/features.json`,
  snapshot: (site: string, pageId: string) => `pages/${segment(site)}/${pageId}/snapshot.html`,
  /** The HTML as served (apply extracts from it when the page's scripts took the article away). */
  served: (site: string, pageId: string) => `pages/${segment(site)}/${pageId}/served.html`,
  rules: (site: string) => `rules/${segment(site)}.json`,
  rulesPrefix: () => 'rules/',
  articlePrefix: (site?: string) => (site ? `articles/${segment(site)}/` : 'articles/'),
  article: (site: string, pageId: string) => `articles/${segment(site)}/${pageId}.json`,
  /** `feedId`: 20 hex digits of SHA-256 of the feed's URL (`feedIdOf`). */
  feed: (site: string, feedId: string) => `feeds/${segment(site)}/${feedId}.xml`,
  feedPrefix: (site: string) => `feeds/${segment(site)}/`,
  /** A page the site's current rules selected nothing on: the drift signal (apply → learn). */
  drift: (site: string, pageId: string) => `drift/${segment(site)}/${pageId}.json`,
  driftPrefix: (site: string) => `drift/${segment(site)}/`,
  /** The single-page fallback's model retrained from this store (site-independent); absent: the shipped default. */
  fallbackModel: () => 'models/fallback.json',
} as const;

/** A feed's id in its key: a short stable hash of its URL (fragment dropped). */
export function feedIdOf(feedUrl: string): string {
  return createHash('sha256').update(normalizeUrl(feedUrl)).digest('hex').slice(0, 20);
}

/** The page id in a `pages/<site>/<pageId>/features.json` key. */
export function pageIdFromFeaturesKey(key: string): string | undefined {
  return /^pages\/[^/]+\/([^/]+)\/features\.json$/.exec(key)?.[1];
}
