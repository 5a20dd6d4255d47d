/**
 * Sources of truth for field learning (Gkotsis et al., step 1): the site's feed entries, matched to
 * pages by permalink, and each page's own machine-readable values (JSON-LD, Open Graph, meta author
 * and date), already in its feature document; for what they lack, the byline the page's markup names
 * (or Readability read, confirmed by it) and the day its URL names. A page is a training post when a
 * source gives a value.
 */
import { ARTICLE_TYPE } from '../html/schema-types';
import { withoutTrackingParameters } from '../util/tracking-parameters';
import type { FeatureDocument, PageMetadata } from '../types/feature-document';
import { isAuthorMarked } from '../html/metadata';
import { elementOrder, type Document } from '../html/parse';
import { urlDay } from '../text/dates';
import { bylineAnnounced, extractFrom, type FieldName } from './extract';
import type { FeedEntry } from './feeds';
import { cleanAuthorValue, collapse, extractByline, normalizeText, sameByline, unescapeEntities } from '../text/match';

export type ValueSource = 'feed' | 'metadata' | 'readability' | 'url';

export interface PostValues {
  readonly values: Partial<Record<FieldName, string>>;
  readonly sources: Partial<Record<FieldName, ValueSource>>;
}

/**
 * A URL as a permalink key: host without `www.` (port kept), path without trailing slash, query
 * without tracking parameters (a feed's links often carry `utm_source=rss`, a page's URL never does:
 * lib/store/keys.ts normalizeUrl); scheme and fragment ignored.
 */
export function permalinkKey(url: string, base?: string): string | undefined {
  const u = URL.parse(url.trim(), base);
  if (!u || !/^https?:$/.test(u.protocol)) return undefined;
  const host = u.host.toLowerCase().replace(/^www\./, '');
  const path = u.pathname.replace(/\/+$/, '') || '/';
  return `${host}${path}${withoutTrackingParameters(u.search)}`;
}

/** Feed entries by permalink, for matching pages (relative links are matched by path). */
export class FeedIndex {
  private readonly byKey = new Map<string, FeedEntry>();
  private readonly byPath = new Map<string, FeedEntry>();
  readonly size: number;

  constructor(entries: readonly FeedEntry[]) {
    for (const e of entries) {
      for (const link of e.links) {
        const key = permalinkKey(link);
        if (key) {
          if (!this.byKey.has(key)) this.byKey.set(key, e);
        } else if (link.startsWith('/')) {
          const p = permalinkKey(link, 'http://relative.invalid');
          if (p && !this.byPath.has(p)) this.byPath.set(p, e);
        }
      }
    }
    this.size = entries.length;
  }

  /** The entry whose permalink is one of these URLs (the page's URL, final URL, canonical). */
  find(urls: ReadonlyArray<string | undefined>): FeedEntry | undefined {
    for (const u of urls) {
      if (!u) continue;
      const key = permalinkKey(u);
      if (!key) continue;
      const hit = this.byKey.get(key);
      if (hit) return hit;
      const path = permalinkKey(new URL(u).pathname + new URL(u).search, 'http://relative.invalid');
      const rel = path ? this.byPath.get(path) : undefined;
      if (rel) return rel;
    }
    return undefined;
  }
}

export interface MetadataValueOptions {
  /**
   * Normalised titles that are not a post's own: values several pages of the site share (an
   * og:title of "Official Blog of the National Football League" on every post names the site).
   */
  readonly sharedTitles?: ReadonlySet<string>;
  /**
   * Take the document's `<title>` when no other title is left. Off for values that must be the
   * page's machine-readable ones; on for learning, where matching reads a title's variants without
   * the site-name part ("Headline - NFL.com" matches the page's "Headline").
   */
  readonly documentTitle?: boolean;
}

/** The page's own values: JSON-LD article first, then Open Graph / Twitter / meta tags, then (optionally) `<title>`. */
export function metadataValues(page: PageMetadata, options: MetadataValueOptions = {}): Partial<Record<FieldName, string>> {
  const ld = page.jsonLd.find((j) => ARTICLE_TYPE.test(j.type ?? '') && (j.headline || j.datePublished)) ?? page.jsonLd.find((j) => j.headline || j.datePublished);
  const out: Partial<Record<FieldName, string>> = {};
  const titles = [ld?.headline, page.ogTitle, page.twitterTitle, page.metaTitle, options.documentTitle ? page.title : undefined];
  const title = titles.map((t) => (t ? collapse(unescapeEntities(t)) : '')).find((t) => t && !options.sharedTitles?.has(normalizeText(t)));
  if (title) out.title = title;
  const authors = (ld?.author ?? []).map((a) => cleanAuthorValue(unescapeEntities(a))).filter((a): a is string => !!a);
  const byline = authors.length ? authors.join(', ') : cleanAuthorValue(page.author && unescapeEntities(page.author));
  if (byline) out.byline = byline;
  const published = ld?.datePublished ?? page.published;
  if (published && collapse(published)) out.published = collapse(published);
  return out;
}

/** Every title the page gives for itself: JSON-LD headlines, Open Graph, Twitter, meta title, `<title>` (character references read: unescapeEntities). */
export function titleValues(page: PageMetadata): string[] {
  return [...page.jsonLd.map((j) => j.headline), page.ogTitle, page.twitterTitle, page.metaTitle, page.title].map((t) => t && unescapeEntities(t)).filter((t): t is string => !!t && !!t.trim());
}

/** Every summary the page gives of itself: JSON-LD descriptions, Open Graph, Twitter, meta description (character references read). */
export function descriptionValues(page: PageMetadata): string[] {
  return [...page.jsonLd.map((j) => j.description), page.ogDescription, page.twitterDescription, page.description].map((t) => t && unescapeEntities(t)).filter((t): t is string => !!t && !!t.trim());
}

/** Normalised title values (any source) found on two or more of these pages: the site's, not a post's. */
export function sharedTitles(pages: readonly PageMetadata[]): Set<string> {
  return sharedValues(pages, titleValues);
}

/** Normalised description values found on two or more of these pages: the site's tagline, not a post's summary. */
export function sharedDescriptions(pages: readonly PageMetadata[]): Set<string> {
  return sharedValues(pages, descriptionValues);
}

function sharedValues(pages: readonly PageMetadata[], valuesOf: (page: PageMetadata) => string[]): Set<string> {
  const seen = new Map<string, number>();
  for (const page of pages) {
    const values = new Set(valuesOf(page).map(normalizeText));
    for (const v of values) if (v) seen.set(v, (seen.get(v) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n >= 2).map(([v]) => v));
}

/** A feed entry's values (character references left in a title or author read: RSS escapes HTML in them). */
export function feedValues(entry: FeedEntry): Partial<Record<FieldName, string>> {
  const out: Partial<Record<FieldName, string>> = {};
  const title = entry.title && collapse(unescapeEntities(entry.title));
  if (title) out.title = title;
  const author = cleanAuthorValue(entry.author && unescapeEntities(entry.author).replace(/^\S+@\S+\s*\((.+)\)$/, '$1'));
  if (author) out.byline = author;
  if (entry.published) out.published = entry.published;
  return out;
}

/**
 * Whether a byline value read from a page's HTML (not its metadata) can be a truth: letters, marks,
 * spaces and a name's punctuation only. A digit left is a date or a time ("January 18, 2008", "Thu
 * Apr 2, 1:08"); an asterisk, an arrow or a colon is a form's label or a link's ("Name *", "View all
 * posts by Jane →").
 */
function nameLike(name: string | undefined): string | undefined {
  return name && /^[\p{L}\p{M}][\p{L}\p{M}\s.,'\u2019&()-]*$/u.test(name) ? name : undefined;
}

/**
 * The author's name in the byline Mozilla Readability read on the rendered page (the first element
 * it takes for one: `rel="author"`, `itemprop="author"`, a class or id with "byline", "author" or
 * "dateline"), as a byline element's text is read (extractByline: "By Jane Doe | Updated May 3"
 * gives "Jane Doe"), when it is name-like (nameLike). One page's guess, a weak label: learning takes
 * it only where an element the page marks as its author's, outside its comments and forms, reads
 * so (markedAuthorNames), and the site's rules keep it only where it agrees across pages.
 */
function readabilityByline(raw: string | undefined): string | undefined {
  return nameLike(raw ? extractByline(unescapeEntities(raw)) : undefined);
}

/**
 * The names the page's author-marked elements read as (isAuthorMarked: not in its comments or
 * forms), as a byline rule reads an element (extractFrom). Readability takes the first element of
 * its vocabulary that reads as a byline, a dateline's too ("BOSTON", of class "dateline"), a comment
 * form's ("Name *"): such a pick has no author-marked element outside the discussion that reads the
 * same. A dateline in an element of a byline class ("byline_date": "WESTPORT, Wash.") is not told apart.
 */
export function markedAuthorNames(doc: Document): string[] {
  const names: string[] = [];
  for (const el of elementOrder(doc).elements) {
    if (!isAuthorMarked(el)) continue;
    const name = extractFrom('byline', el)?.text;
    if (name) names.push(name);
  }
  return names;
}

/**
 * The author the metadata names on every page of a site that names one (three pages or more): a
 * single author's blog, or the publisher ("ABC News", "Los Angeles Times" in `<meta name="author">`
 * on every story). Which of the two, the pages' own bylines tell (publisherOf).
 */
export function siteAuthor(pages: readonly PageMetadata[]): string | undefined {
  const bylines = pages.map((p) => metadataValues(p).byline).filter((b): b is string => !!b);
  if (bylines.length < 3 || new Set(bylines.map(normalizeText)).size !== 1) return undefined;
  return bylines[0];
}

/**
 * The byline the page shows as its own: the name its first author-marked element (markedAuthorNames)
 * reads as, when that element introduces it ("By Jane Doe": bylineAnnounced) and it reads as a name.
 * Not a dateline in a byline class ("WESTPORT, Wash."), nor a teaser's author class further down.
 */
export function introducedByline(doc: Document): string | undefined {
  for (const el of elementOrder(doc).elements) {
    if (!isAuthorMarked(el)) continue;
    const name = extractFrom('byline', el)?.text;
    if (name) return bylineAnnounced(el) ? nameLike(name) : undefined;
  }
  return undefined;
}

/**
 * The site's author (siteAuthor) when it is the publisher, not a writer: the bylines its pages show
 * as their own (introducedByline) name two people or more besides it. A single author's blog names
 * that author there too.
 */
export function publisherOf(author: string | undefined, introducedPerPage: ReadonlyArray<string | undefined>): string | undefined {
  if (!author) return undefined;
  const others = new Set(introducedPerPage.filter((n): n is string => !!n && !sameByline(n, author)).map(normalizeText));
  return others.size >= 2 ? author : undefined;
}

/** What a page's own HTML names as its byline, beside its metadata. */
export interface PageBylines {
  /**
   * The byline as apply reads one without rules (extractMetadata): JSON-LD, meta author, then an
   * element marked `itemprop="author"` or `rel="author"`, or of a byline class.
   */
  readonly markup?: string;
  /** The names the page's author-marked elements read as (markedAuthorNames); Readability's byline counts only when one of them is it. */
  readonly marked?: readonly string[];
  /** The byline the page shows as its own (introducedByline). */
  readonly introduced?: string;
  /** The site's publisher (publisherOf): where the metadata names it, the byline the page shows as its own is the post's. */
  readonly publisher?: string;
}

/**
 * A page's values, feed first (the paper's source), the page's metadata for what the feed lacks
 * (where it names the site's publisher as the author, the byline the page shows instead: publisherOf);
 * for a byline neither gives, the one the page's markup names (`bylines.markup`), then the one
 * Readability read on the rendered page (readabilityByline); for a date, the day its URL names (urlDay).
 */
export function postValues(
  doc: Pick<FeatureDocument, 'url' | 'finalUrl' | 'page' | 'readability'>,
  feeds?: FeedIndex,
  metadata: MetadataValueOptions = {},
  bylines: PageBylines = {},
): PostValues {
  const entry = feeds?.find([doc.url, doc.finalUrl, doc.page.canonical]);
  const fromFeed = entry ? feedValues(entry) : {};
  const fromMeta = { ...metadataValues(doc.page, metadata) };
  if (bylines.publisher && bylines.introduced && sameByline(fromMeta.byline, bylines.publisher)) fromMeta.byline = bylines.introduced;
  fromMeta.byline ??= nameLike(cleanAuthorValue(bylines.markup));
  const read = readabilityByline(doc.readability?.byline);
  const fromReadability: Partial<Record<FieldName, string>> = { byline: read && bylines.marked?.some((name) => sameByline(name, read)) ? read : undefined };
  const fromUrl: Partial<Record<FieldName, string>> = { published: urlDay(doc.finalUrl ?? doc.url) };
  const values: Partial<Record<FieldName, string>> = {};
  const sources: Partial<Record<FieldName, ValueSource>> = {};
  for (const field of ['title', 'byline', 'published'] as const) {
    if (fromFeed[field]) {
      values[field] = fromFeed[field];
      sources[field] = 'feed';
    } else if (fromMeta[field]) {
      values[field] = fromMeta[field];
      sources[field] = 'metadata';
    } else if (fromReadability[field]) {
      values[field] = fromReadability[field];
      sources[field] = 'readability';
    } else if (fromUrl[field]) {
      values[field] = fromUrl[field];
      sources[field] = 'url';
    }
  }
  return { values, sources };
}
