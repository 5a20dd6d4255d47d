/**
 * Article metadata from a parsed page: title, byline, published date (ISO 8601), language, excerpt,
 * the site's name and the lead image, from JSON-LD (Article, NewsArticle, BlogPosting..., also inside
 * @graph), Open Graph and Twitter cards, plain <meta> tags, <link rel=image_src>, <title>, the first
 * <h1> and <time datetime>.
 */
import { Element, type AnyNode, type Document } from 'domhandler';
import { toIsoDate, urlDay } from '../text/dates';
import { cleanAuthorValue, collapse, extractByline, plainWords, unescapeEntities } from '../text/match';
import { MAX_TITLE_CHARS, titleCuts, titlePieces, withoutDecoration } from '../text/titles';
import { elementText } from './element-text';
import { META_NAMES } from './meta-names';
import { elementOrder, elements, textContent } from './parse';
import { ARTICLE_TYPE } from './schema-types';

export interface ArticleMetadata {
  title?: string;
  byline?: string;
  /** ISO 8601: a date (`2012-03-05`) or a UTC date-time (`2012-03-05T14:30:00.000Z`). */
  published?: string;
  /**
   * `published` is what the page declares as its publication time: JSON-LD `datePublished`, a
   * published meta, or a `<time>` marked as the post's (`pubdate`, `itemprop="datePublished"`), not
   * any `<time>` of the page (a comment's) nor its URL's day.
   */
  publishedDeclared?: boolean;
  lang?: string;
  excerpt?: string;
  /** The publication's name: og:site_name, application-name, else the JSON-LD article's publisher. */
  siteName?: string;
  /** The lead image's absolute http(s) URL, as the page names it for sharing (og:image, twitter:image, JSON-LD image, image_src). */
  image?: string;
  /** The page URL the render step wrote into the snapshot (`<meta name="spider:url">`). */
  spiderUrl?: string;
  canonical?: string;
}

interface JsonLdArticle {
  headline?: string;
  description?: string;
  authors: string[];
  datePublished?: string;
  inLanguage?: string;
  images: string[];
  publisher?: string;
}

/** What one walk over the page collects. */
interface Collected {
  metas: Map<string, string>;
  title?: string;
  h1s: string[];
  /** h2 and h3 texts (Blogger's post title is an h3 under the blog's name in an h1). */
  subheads: string[];
  /** `<time datetime>`s: `preferred` when marked as the publication's, or of a date class; `declared` when marked so by pubdate or itemprop. */
  times: Array<{ datetime: string; preferred: boolean; declared: boolean }>;
  itempropAuthor?: string;
  relAuthor?: string;
  bylineText?: string;
  jsonLd: string[];
  lang?: string;
  canonical?: string;
  /** `<link rel="image_src">`'s href. */
  imageSrc?: string;
}

const URLISH = /^(?:https?:)?\/\//i;

const clean = (s: string | undefined | null): string => collapse(s ?? '');

const AUTHOR_ITEMPROP = /\bauthor\b/i;
const AUTHOR_REL = /(?:^|\s)author(?:\s|$)/i;
const BYLINE_CLASS = /(?:^|\s)(?:byline|by-line|author-name|byline-name)(?:\s|$)/i;
/** The shortest class attribute BYLINE_CLASS can match ("byline"). */
const BYLINE_CLASS_MIN = 6;

/**
 * Readability's author vocabulary, broader than what apply reads a byline from without rules
 * (AUTHOR_ITEMPROP, AUTHOR_REL, BYLINE_CLASS): a class or id naming an author or a byline. Field
 * learning uses it only to confirm a byline another reading found (lib/fields/sources.ts).
 */
const AUTHOR_MARK = /author|byline/i;
/** A page's discussion: its comments and the form that posts one (a "comment-author", "Name *"). */
const DISCUSSION = /comment|respond|reply|discuss/i;
const FORM_CONTROLS = new Set(['input', 'textarea', 'select', 'label', 'button']);
/** What a form around the whole page holds (ASP.NET's `form#aspnetForm`) and a comment form never does. */
const PAGE_PARTS = new Set(['h1', 'article', 'main']);

/** A class or id that names a part of the page: a word, not a URL or a path (an SVG `<text id="http://…">`). */
const namesPart = (v: string | undefined): v is string => v !== undefined && !/[/:]/.test(v);

/** Whether a form is one around the page (it holds a heading, an article or the main part), not one a reader fills in. */
function wrapsPage(form: Element): boolean {
  for (const d of elements(form)) if (PAGE_PARTS.has(d.name)) return true;
  return false;
}

/**
 * Whether the page marks an element as its author's (AUTHOR_MARK on its class or id, an author
 * `rel` or `itemprop`), outside the page's discussion: not in a form (but one around the whole
 * page), not holding a form control, and neither it nor an ancestor below `<body>` of a comment or
 * reply class or id (`<html>` and `<body>` carry site-wide flags: "feature_newcomments").
 */
export function isAuthorMarked(el: Element): boolean {
  const a = el.attribs;
  const marked = (a.class !== undefined && AUTHOR_MARK.test(a.class)) || (a.id !== undefined && AUTHOR_MARK.test(a.id)) || (a.rel !== undefined && AUTHOR_REL.test(a.rel)) || (a.itemprop !== undefined && AUTHOR_ITEMPROP.test(a.itemprop));
  if (!marked) return false;
  for (let node: Element | null = el; node && node.name !== 'body' && node.name !== 'html'; node = node.parent instanceof Element ? node.parent : null) {
    if (node.name === 'form' && !wrapsPage(node)) return false;
    const b = node.attribs;
    if ((namesPart(b.class) && DISCUSSION.test(b.class)) || (namesPart(b.id) && DISCUSSION.test(b.id))) return false;
  }
  for (const d of elements(el)) if (FORM_CONTROLS.has(d.name)) return false;
  return true;
}

function collect(doc: Document): Collected {
  const c: Collected = { metas: new Map(), h1s: [], subheads: [], times: [], jsonLd: [] };
  // the page's elements in document order; `i = ends[i] - 1` steps over what the one at `i` holds
  const { elements, ends } = elementOrder(doc);
  for (let i = 0; i < elements.length; i++) {
    const node = elements[i];
    const a = node.attribs;
    switch (node.name) {
      case 'html':
        if (a.lang && !c.lang) c.lang = clean(a.lang);
        else if (a['xml:lang'] && !c.lang) c.lang = clean(a['xml:lang']);
        break;
      case 'meta': {
        const key = (a.property ?? a.name ?? a.itemprop ?? a['http-equiv'])?.trim().toLowerCase();
        const content = a.content;
        if (key && content !== undefined && !c.metas.has(key)) {
          const v = clean(content);
          if (v) c.metas.set(key, v);
        }
        i = ends[i] - 1; // void
        continue;
      }
      case 'title':
        if (c.title === undefined) c.title = clean(unescapeEntities(textContent(node)));
        i = ends[i] - 1;
        continue;
      case 'link':
        if (!c.canonical && /(?:^|\s)canonical(?:\s|$)/i.test(a.rel ?? '') && a.href) c.canonical = a.href.trim();
        else if (!c.imageSrc && /(?:^|\s)image_src(?:\s|$)/i.test(a.rel ?? '') && a.href) c.imageSrc = a.href.trim();
        i = ends[i] - 1;
        continue;
      case 'script':
        if (/^\s*application\/ld\+json\s*$/i.test(a.type ?? '')) c.jsonLd.push(textContent(node));
        i = ends[i] - 1;
        continue;
      case 'style':
      case 'noscript':
      case 'template':
      case 'svg':
        i = ends[i] - 1;
        continue;
      case 'h1':
        if (c.h1s.length < 5) {
          const t = clean(textContent(node));
          if (t) c.h1s.push(t);
        }
        break;
      case 'h2':
      case 'h3':
        if (c.subheads.length < 30) {
          const t = clean(textContent(node));
          if (t && t.length <= 300) c.subheads.push(t);
        }
        break;
      case 'time':
        if (a.datetime && c.times.length < 20) {
          const declared = a.pubdate !== undefined || /datePublished/i.test(a.itemprop ?? '');
          c.times.push({ datetime: a.datetime.trim(), preferred: declared || /publish|posted|date/i.test(a.class ?? ''), declared });
        }
        break;
      default:
        break;
    }
    // an author element's text as field learning reads it (elementText: no scripts, blocks apart);
    // the cheap tests first: each is looked for until found, and most elements have no such attribute
    if (c.itempropAuthor === undefined && a.itemprop && AUTHOR_ITEMPROP.test(a.itemprop)) {
      const t = elementText(node, 100);
      if (t && t.length <= 100) c.itempropAuthor = t;
    }
    if (c.relAuthor === undefined && node.name === 'a' && a.rel && AUTHOR_REL.test(a.rel)) {
      const t = elementText(node, 100);
      if (t && t.length <= 100) c.relAuthor = t;
    }
    const cls = a.class;
    if (c.bylineText === undefined && cls !== undefined && cls.length >= BYLINE_CLASS_MIN && BYLINE_CLASS.test(cls)) {
      const t = elementText(node, 100, true);
      if (t && t.length <= 100) c.bylineText = t;
    }
  }
  return c;
}

function asNames(v: unknown, byId: Map<string, Record<string, unknown>>, depth = 0): string[] {
  if (v == null || depth > 4) return [];
  if (typeof v === 'string') return [clean(unescapeEntities(v))].filter((s) => s && !URLISH.test(s));
  if (Array.isArray(v)) return v.flatMap((x) => asNames(x, byId, depth + 1));
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.name !== undefined) return asNames(o.name, byId, depth + 1);
    const id = o['@id'];
    if (typeof id === 'string' && byId.has(id) && byId.get(id) !== o) return asNames(byId.get(id), byId, depth + 1);
  }
  return [];
}

/**
 * An image value's URLs, in order: a string, an ImageObject's `url` and `contentUrl`, a node named
 * by `@id`, each of a list. Character references a page wrote into its JSON-LD read as a reader would.
 */
function imageUrls(v: unknown, byId: Map<string, Record<string, unknown>>, depth = 0): string[] {
  if (v == null || depth > 4) return [];
  if (typeof v === 'string') return [unescapeEntities(v)];
  if (Array.isArray(v)) return v.slice(0, 10).flatMap((x) => imageUrls(x, byId, depth + 1));
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const id = o['@id'];
    if (o.url === undefined && o.contentUrl === undefined && typeof id === 'string' && byId.has(id) && byId.get(id) !== o) return imageUrls(byId.get(id), byId, depth + 1);
    return [...imageUrls(o.url, byId, depth + 1), ...imageUrls(o.contentUrl, byId, depth + 1)];
  }
  return [];
}

function parseJsonLd(texts: readonly string[]): JsonLdArticle | undefined {
  const nodes: Record<string, unknown>[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  const visit = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || depth > 6 || nodes.length > 200) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    nodes.push(o);
    if (typeof o['@id'] === 'string' && !byId.has(o['@id'])) byId.set(o['@id'], o);
    if (o['@graph']) visit(o['@graph'], depth + 1);
    if (o.mainEntity && typeof o.mainEntity === 'object') visit(o.mainEntity, depth + 1);
  };
  for (const raw of texts) {
    const text = raw.trim().replace(/^<!--|-->$/g, '').replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, '').replace(/;\s*$/, '');
    try {
      visit(JSON.parse(text), 0);
    } catch {
      // A broken JSON-LD block is the page's problem.
    }
  }
  const str = (v: unknown): string | undefined => {
    if (typeof v === 'string') return clean(unescapeEntities(v)) || undefined;
    if (Array.isArray(v)) return str(v[0]);
    return undefined;
  };
  const types = (o: Record<string, unknown>) => ([] as unknown[]).concat(o['@type'] ?? []).map(String);
  const article = nodes.find((o) => types(o).some((t) => ARTICLE_TYPE.test(t)));
  if (!article) return undefined;
  const lang = article.inLanguage;
  return {
    headline: str(article.headline) ?? str(article.name),
    description: str(article.description),
    authors: [...new Set(asNames(article.author ?? article.creator, byId))],
    datePublished: str(article.datePublished) ?? str(article.dateCreated),
    inLanguage: typeof lang === 'string' ? clean(lang) : str((lang as { name?: unknown } | undefined)?.name),
    images: imageUrls(article.image ?? article.thumbnailUrl, byId),
    publisher: asNames(article.publisher, byId)[0],
  };
}

/**
 * `value` as an absolute http(s) URL: as written when it is one, else resolved against `base` (when
 * that is one); undefined for anything else (data:, javascript:, a relative URL with no base).
 */
function webUrl(value: string | undefined, base: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  for (const against of [undefined, base]) {
    try {
      const url = new URL(v, against);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
    } catch {
      // not absolute (or the base is not a URL): try the next
    }
  }
  return undefined;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019\u201c\u201d"'`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The words of the page's visible text (scripts, styles and templates left out), space-padded, computed once. */
function lazyPageText(doc: Document): () => string {
  let text: string | undefined;
  return () => {
    if (text === undefined) {
      const parts: string[] = [];
      const stack: AnyNode[] = [...doc.children].reverse();
      while (stack.length) {
        const node = stack.pop()!;
        if (node.type === 'text') parts.push((node as unknown as { data: string }).data);
        else if (node instanceof Element && !['script', 'style', 'noscript', 'template', 'head', 'title'].includes(node.name)) {
          for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
        }
      }
      text = ` ${plainWords(parts.join(' '))} `;
    }
    return text;
  };
}

const squash = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase();

/**
 * The title without a " | Site" suffix (or "Site | " prefix). Each way of cutting the title at a
 * separator is weighed: the kept part shown as a heading of the page (h1 to h3) counts for it; the
 * kept part being the site (its og:site_name, its host's name: "Slashdot" for slashdot.org) counts
 * against it, the cut part being the site for it. The best cut with some evidence wins (the longer
 * kept part on a tie); without any, the title stays whole.
 */
export function cleanTitle(title: string, headings: readonly string[], siteName?: string, host?: string, pageText?: () => string): string {
  const t = withoutDecoration(clean(title));
  const site = siteName ? norm(siteName) : undefined;
  const words = (s: string) => s.split(' ').filter(Boolean).length;
  const cuts = titleCuts(t).flatMap(({ before, after }) => [{ keep: before, cut: after }, { keep: after, cut: before }]);
  if (cuts.length === 0) return t;
  const shown = new Set(headings.map(norm).filter(Boolean));
  if (shown.has(norm(t))) return t;
  // a part of three words or more the page shows in its text (old pages set headlines in <b> or <font>)
  const inText = (part: string) => {
    const w = plainWords(part);
    return w.split(' ').length >= 3 && pageText !== undefined && pageText().includes(` ${w} `);
  };
  const hostLabels = new Set((host ?? '').toLowerCase().replace(/^www\./, '').split('.').slice(0, -1).map(squash).filter((l) => l.length >= 3));
  const isSite = (part: string) => {
    const n = norm(part);
    const q = squash(part);
    return (site !== undefined && (n === site || n.includes(site))) || hostLabels.has(q) || [...hostLabels].some((l) => q === l + 'com');
  };
  let best: { keep: string; score: number } | undefined;
  for (const { keep, cut } of cuts) {
    const nk = norm(keep);
    if (!nk) continue;
    let score = 0;
    const heading = shown.has(nk);
    const text = !heading && inText(keep);
    if (heading) score += 2;
    else if (text) score += 1.5;
    if (isSite(keep)) score -= 3;
    if (isSite(cut)) score += 1;
    // when the other side is not the site, a heading showing fewer words than the other side holds
    // (separators are not words: "Headline - Local News | US News" cuts four) is not enough, as a logo
    // "Daily" in the h1 is not; nor is the page's text showing a part shorter than one of the other
    // side's pieces (the site's name in its masthead: "This is London")
    if ((heading || text) && !isSite(cut)) {
      const pieces = titlePieces(cut).map((p) => words(norm(p)));
      if (heading && words(nk) < pieces.reduce((a, b) => a + b, 0)) score = 0;
      if (text && pieces.some((n) => n > words(nk))) score = 0;
    }
    if (score <= 0) continue;
    if (!best || score > best.score || (score === best.score && keep.length > best.keep.length)) best = { keep, score };
  }
  return best ? withoutDecoration(clean(best.keep)) : t;
}

function normaliseLang(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const t = s.trim().replace(/_/g, '-').split(/[,;\s]/)[0];
  return /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(t) ? t : undefined;
}

/** The page's metadata. Missing fields are left out. */
export interface MetadataOptions {
  /** Work out the title (default true); the apply step skips it when the site's field rules give one. */
  readonly title?: boolean;
  /** The page's URL, that a relative image URL is resolved against and whose day (urlDay) is the date when nothing else gives one; default: its spider:url meta, canonical link or og:url. */
  readonly baseUrl?: string;
}

export function extractMetadata(doc: Document, options: MetadataOptions = {}): ArticleMetadata {
  const c = collect(doc);
  const meta = (...names: string[]) => {
    for (const n of names) {
      const v = c.metas.get(n);
      if (v) return v;
    }
    return undefined;
  };
  // a text value with the character references a page escaped twice read ("AT&amp;amp;T"); URLs as given
  const text = (...names: string[]) => {
    const v = meta(...names);
    return v === undefined ? undefined : clean(unescapeEntities(v)) || undefined;
  };
  const ld = c.jsonLd.length ? parseJsonLd(c.jsonLd) : undefined;
  const siteName = text('og:site_name', 'application-name');

  const out: ArticleMetadata = {};
  // the first title the page gives that a heading shows (an og:title may be the site's, the same on
  // every page); else the first it gives; none longer than a headline can be (MAX_TITLE_CHARS)
  const given = options.title === false ? [] : [ld?.headline, text('og:title'), text('twitter:title'), c.title, text(...META_NAMES.title)].filter((v): v is string => !!v && v.length <= MAX_TITLE_CHARS);
  let title: string | undefined;
  if (given.length) {
    const headings = [...c.h1s, ...c.subheads];
    const pageUrl = c.metas.get('spider:url') ?? c.canonical ?? meta('og:url');
    let host: string | undefined;
    try {
      host = pageUrl ? new URL(pageUrl).hostname : undefined;
    } catch {
      host = undefined;
    }
    const shown = new Set(headings.map(norm));
    title = given.map((v) => cleanTitle(v, headings, siteName, host)).find((v) => shown.has(norm(v)));
    if (title === undefined) {
      // no heading shows one: weigh the parts against the page's text too (built only now, it costs)
      const pageText = lazyPageText(doc);
      title = cleanTitle(given[0], headings, siteName, host, pageText);
    }
  }
  if (options.title !== false) title ??= c.h1s[0];
  if (title) out.title = title;

  // names read as field learning reads its truth (lib/fields/sources.ts): "By", e-mails, URLs and
  // sentences are no byline; a byline element's text may go on with the date or the comment count
  const ldAuthors = (ld?.authors ?? []).map((a) => cleanAuthorValue(a)).filter((a): a is string => !!a);
  const byline =
    (ldAuthors.length ? ldAuthors.join(', ') : undefined) ??
    cleanAuthorValue(text(...META_NAMES.author)) ??
    cleanAuthorValue(c.itempropAuthor) ??
    cleanAuthorValue(c.relAuthor) ??
    (c.bylineText ? extractByline(c.bylineText) : undefined);
  if (byline) out.byline = byline;

  const spiderUrl = c.metas.get('spider:url');
  // the page's URL: what a relative image URL is resolved against, and a day in its path is the date's last source
  const pageUrl = options.baseUrl ?? spiderUrl ?? c.canonical ?? meta('og:url');
  const times = [...c.times.filter((t) => t.preferred), ...c.times.filter((t) => !t.preferred)];
  for (const [candidate, declared] of [
    [ld?.datePublished, true],
    [meta(...META_NAMES.published), true],
    ...times.map((t) => [t.datetime, t.declared] as const),
    // a post filed under the day it was published (/2026/03/14/story.html): a day without a time
    [urlDay(pageUrl), false],
  ] as const) {
    const iso = toIsoDate(candidate);
    if (iso) {
      out.published = iso;
      if (declared) out.publishedDeclared = true;
      break;
    }
  }

  const lang = normaliseLang(c.lang) ?? normaliseLang(ld?.inLanguage) ?? normaliseLang(meta('content-language', 'og:locale', 'language', 'dc.language'));
  if (lang) out.lang = lang;

  const excerpt = ld?.description ?? text('og:description', 'twitter:description', 'description', 'dc.description');
  if (excerpt) out.excerpt = excerpt;
  const publication = siteName ?? ld?.publisher;
  if (publication) out.siteName = publication;
  if (spiderUrl) out.spiderUrl = spiderUrl;
  // the first image the page names for sharing that is a web address, resolved against the page's URL
  for (const candidate of [meta('og:image:secure_url', 'og:image:url', 'og:image'), meta('twitter:image', 'twitter:image:src'), ...(ld?.images ?? []), c.imageSrc, meta('image')]) {
    const image = webUrl(candidate, pageUrl);
    if (image) {
      out.image = image;
      break;
    }
  }
  if (c.canonical) out.canonical = c.canonical;
  return out;
}
