/**
 * The store's key layout, the same in the S3 bucket and in the embedded data folder.
 * Documented in docs/storage-layout.md.
 *
 *   archive/<site>/<pageId>.html          archived HTML submitted with a URL (input to render)
 *   pages/<site>/<pageId>/features.json    feature document (render → learn)
 *   pages/<site>/<pageId>/snapshot.html    rendered DOM, serialized (render → apply)
 *   pages/<site>/<pageId>/served.html      the HTML as served, the main document's response body (render, fetch → apply);
 *                                          a fetched page's led by its fetch record, its URL (→ learn's relearn)
 *   rules/<site>.json                      the site's rules document (learn → apply)
 *   articles/<site>/<pageId>.json          article document (apply → users)
 *   redirects/<site>/<pageId>.json         a submitted URL whose navigation ended on another site: the page it
 *                                          landed on, whose pages/ and articles/ keys hold it (render, fetch → users;
 *                                          one under a site sends its URLs' redirects to be asked first: fetch)
 *   feeds/<site>/<feedId>.xml              a feed the site's pages link to, as fetched (render → learn)
 *   drift/<site>/<pageId>.json             a page the site's rules selected nothing on (apply → learn)
 *   drift/<site>/render/<v>/<pageId>.json  such a page, fetched, that apply sent to render under rules v<v> (its budget)
 *   models/fallback.json                   the fallback's model retrained from the store (`spider train` → apply)
 *   politeness/hosts/<host>.json           a host's last request and pause, for the shared rate limit (render)
 *   quarantine/<key>                       the bytes of a stored file that could not be read (./documents.ts)
 */
import { createHash } from 'node:crypto';
import { withoutTrackingParameters } from '../util/tracking-parameters';
import { hostProblem } from '../types/messages';

/** Site of a URL: its hostname, lowercased, without a leading `www.`. */
export function siteOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/**
 * The URL a page is stored, learned and extracted under, given the URL asked for and where its
 * navigation ended: the final URL when it is of another site (a link shortener's redirect, a
 * moved domain), so the page belongs to the site that served it; else the URL asked for (a
 * same-site redirect, http to https or to www., keeps the user's URL, as given); the final one normalised.
 */
export function pageUrlOf(requested: string, final: string | undefined): string {
  const landed = final === undefined ? undefined : URL.parse(final);
  if (!landed || !/^https?:$/.test(landed.protocol) || !landed.hostname) return requested;
  return siteOf(landed.toString()) === siteOf(requested) ? requested : normalizeUrl(landed.toString());
}

/**
 * Normalised URL used as a page's unique key: no fragment, lowercased host, default port dropped, no
 * tracking parameters (lib/util/tracking-parameters.ts): a link shared with `?utm_source=…` is the same page, so it
 * is rendered, learned from and extracted once, under the URL without them.
 */
export function normalizeUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  const search = withoutTrackingParameters(u.search);
  if (search !== u.search) u.search = search;
  return u.toString();
}

/** A page's id: a short stable hash of its normalised URL, so redelivery overwrites, never duplicates. */
export function pageIdOf(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 20);
}

/** Sites become path segments: keep them to a safe alphabet. */
function segment(site: string): string {
  const problem = site ? hostProblem(site) : 'empty';
  if (problem) throw new Error(`not a valid site name: ${JSON.stringify(site)} (${problem})`);
  return site.toLowerCase();
}

/** The layout's top-level folders, one per kind of object (the stack's access grants and lifecycle rules name them). */
export const keyPrefixes = {
  archive: 'archive/',
  pages: 'pages/',
  rules: 'rules/',
  articles: 'articles/',
  redirects: 'redirects/',
  feeds: 'feeds/',
  drift: 'drift/',
  models: 'models/',
  politeness: 'politeness/',
  quarantine: 'quarantine/',
} as const;
const P = keyPrefixes;

/** The files of a page under `pages/<site>/<pageId>/`. */
const PAGE_FILES = {
  features: 'features.json',
  snapshot: 'snapshot.html',
  served: 'served.html',
} as const;
type PageFile = (typeof PAGE_FILES)[keyof typeof PAGE_FILES];
const pageFile = (site: string, pageId: string, file: PageFile) => `${P.pages}${segment(site)}/${pageId}/${file}`;

export const keys = {
  archive: (site: string, pageId: string) => `${P.archive}${segment(site)}/${pageId}.html`,
  pagePrefix: (site: string) => `${P.pages}${segment(site)}/`,
  /** Every file of one page. */
  pageFolder: (site: string, pageId: string) => `${P.pages}${segment(site)}/${pageId}/`,
  features: (site: string, pageId: string) => pageFile(site, pageId, PAGE_FILES.features),
  snapshot: (site: string, pageId: string) => pageFile(site, pageId, PAGE_FILES.snapshot),
  /** The HTML as served (apply extracts from it when the page's scripts took the article away; a fetched page's only HTML). */
  served: (site: string, pageId: string) => pageFile(site, pageId, PAGE_FILES.served),
  rules: (site: string) => `${P.rules}${segment(site)}.json`,
  rulesPrefix: () => P.rules,
  articlePrefix: (site?: string) => (site ? `${P.articles}${segment(site)}/` : P.articles),
  article: (site: string, pageId: string) => `${P.articles}${segment(site)}/${pageId}.json`,
  /** A submitted URL that landed on another site's page: the redirect record pointing there (lib/types/redirect-record.ts). */
  redirect: (site: string, pageId: string) => `${P.redirects}${segment(site)}/${pageId}.json`,
  /** Every redirect record of a site's URLs: one there (`list` with `max: 1`) says the site redirects to other sites (lib/store/redirects.ts). */
  redirectPrefix: (site: string) => `${P.redirects}${segment(site)}/`,
  /** `feedId`: 20 hex digits of SHA-256 of the feed's URL (`feedIdOf`). */
  feed: (site: string, feedId: string) => `${P.feeds}${segment(site)}/${feedId}.xml`,
  feedPrefix: (site: string) => `${P.feeds}${segment(site)}/`,
  /** A page the site's current rules selected nothing on: the drift signal (apply → learn). */
  drift: (site: string, pageId: string) => `${P.drift}${segment(site)}/${pageId}.json`,
  driftPrefix: (site: string) => `${P.drift}${segment(site)}/`,
  /** A fetched page the site's rules (of `rulesVersion`) failed on, sent to render for the relearn (apply's render budget; docs/fetch-path.md). */
  driftRender: (site: string, rulesVersion: number, pageId: string) => `${P.drift}${segment(site)}/render/${rulesVersion}/${pageId}.json`,
  driftRenderPrefix: (site: string, rulesVersion: number) => `${P.drift}${segment(site)}/render/${rulesVersion}/`,
  /** The single-page fallback's model retrained from this store (site-independent); absent: the shipped default. */
  fallbackModel: () => `${P.models}fallback.json`,
  /** A host's rate-limit state (lib/politeness/host-limiter.ts); the host URL-encoded, not a site segment (any hostname). */
  hostState: (host: string) => `${P.politeness}hosts/${encodeURIComponent(host.toLowerCase())}.json`,
} as const;

/**
 * Key patterns for access grants that name one kind of file of every page (an IAM resource's `*`: any
 * characters), where a prefix would grant the page's other files too.
 */
export const keyPatterns = {
  served: `${P.pages}*/*/${PAGE_FILES.served}`,
} as const;

/** A feed's id in its key: a short stable hash of its URL (fragment dropped). */
export function feedIdOf(feedUrl: string): string {
  return createHash('sha256').update(normalizeUrl(feedUrl)).digest('hex').slice(0, 20);
}

/** The page id in a `pages/<site>/<pageId>/<file>` key, when the key names that file of a page. */
export function pageIdFromPageKey(key: string, file: PageFile): string | undefined {
  const m = /^pages\/[^/]+\/([^/]+)\/([^/]+)$/.exec(key);
  return m && m[2] === file ? m[1] : undefined;
}

/** The page id in a `pages/<site>/<pageId>/features.json` key. */
export function pageIdFromFeaturesKey(key: string): string | undefined {
  return pageIdFromPageKey(key, PAGE_FILES.features);
}
