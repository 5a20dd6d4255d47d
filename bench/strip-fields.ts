/**
 * A page's machine-readable field values read from its raw HTML (the collector's meta names, without a
 * browser), and the same HTML with those values removed: for measuring what the learned HTML rules
 * find on their own (tests, bench/fields.ts).
 */
import { META_NAMES } from '../lib/html/meta-names';
import { elements, parseHtml, textContent } from '../lib/html/parse';
import { COLLECTED_JSONLD_TYPE } from '../lib/html/schema-types';
import type { JsonLdArticle, PageMetadata } from '../lib/types/feature-document';
import { collapse } from '../lib/text/match';

/** `<meta>` names and properties that carry a title, an author or a date (or any Open Graph / Twitter / article value). */
const FIELD_META = /^(?:og:.*|twitter:.*|article:.*|author|byl|title|date|pubdate|publishdate|publish[-_]date|published[-_]?time|datepublished|datemodified|dc\.(?:creator|date.*|title)|dcterms\.(?:creator|created|date|title|issued|modified)|sailthru\..*|parsely-.*|citation_.*|dc:.*|(?:last-)?modified|original-publish-date)$/i;

/** Every name a title, an author or a date is read from (lib/html/meta-names.ts). */
const FIELD_META_NAMES = new Set<string>(Object.values(META_NAMES).flat());

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/**
 * The HTML without its machine-readable field values: JSON-LD blocks, Open Graph / Twitter /
 * `article:*` metas, meta author, date and title tags. Everything else is left byte for byte,
 * visible `<time datetime>` elements included.
 */
export function stripFieldMetadata(html: string): string {
  return html
    .replace(/<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<meta\b[^>]*>/gi, (tag) => {
      const key = attr(tag, 'property') ?? attr(tag, 'name') ?? attr(tag, 'itemprop') ?? attr(tag, 'http-equiv');
      return key && (FIELD_META.test(key.trim()) || FIELD_META_NAMES.has(key.trim().toLowerCase())) ? '' : tag;
    });
}

function asStrings(v: unknown): string[] {
  if (v == null) return [];
  if (typeof v === 'string') return [collapse(v)].filter(Boolean);
  if (Array.isArray(v)) return v.flatMap(asStrings);
  if (typeof v === 'object' && 'name' in (v as object)) return asStrings((v as { name: unknown }).name);
  return [];
}

/** The collector's page metadata for the field values (JSON-LD, og/twitter/meta title, meta author and date), from raw HTML. */
export function rawPageMetadata(html: string): Pick<PageMetadata, 'jsonLd' | 'ogTitle' | 'twitterTitle' | 'metaTitle' | 'author' | 'published' | 'canonical' | 'feeds'> & { title: string } {
  const doc = parseHtml(html);
  const metas = new Map<string, string>();
  const jsonLd: JsonLdArticle[] = [];
  let title = '';
  let canonical: string | undefined;
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 5 || jsonLd.length >= 20) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['@graph'])) visit(o['@graph'], depth + 1);
    const type = ([] as unknown[]).concat(o['@type'] ?? []).map(String);
    if (type.some((t) => COLLECTED_JSONLD_TYPE.test(t)) && (o.headline || o.name || o.datePublished)) {
      const str = (v: unknown) => (typeof v === 'string' ? collapse(v) || undefined : undefined);
      const entry: JsonLdArticle = { type: type.join(',') };
      const headline = str(o.headline) ?? str(o.name);
      if (headline) entry.headline = headline;
      const author = asStrings(o.author);
      if (author.length) entry.author = author;
      const published = str(o.datePublished);
      if (published) entry.datePublished = published;
      jsonLd.push(entry);
    }
  };
  for (const el of elements(doc)) {
    if (el.name === 'meta') {
      // keyed as the collector keys it: property, else name, else itemprop, else http-equiv; the first with content
      const key = (el.attribs.property ?? el.attribs.name ?? el.attribs.itemprop ?? el.attribs['http-equiv'])?.trim().toLowerCase();
      const content = collapse(el.attribs.content ?? '');
      if (key && content && !metas.has(key)) metas.set(key, content);
    } else if (el.name === 'title' && !title) title = collapse(textContent(el));
    else if (el.name === 'link' && /(?:^|\s)canonical(?:\s|$)/i.test(el.attribs.rel ?? '') && !canonical) canonical = el.attribs.href;
    else if (el.name === 'script' && /application\/ld\+json/i.test(el.attribs.type ?? '')) {
      try {
        visit(JSON.parse(textContent(el)), 0);
      } catch {
        // the page's problem
      }
    }
  }
  const m = (...names: readonly string[]) => names.map((k) => metas.get(k)).find((v) => v !== undefined);
  const out: ReturnType<typeof rawPageMetadata> = { title, jsonLd, feeds: [] };
  const set = <K extends 'ogTitle' | 'twitterTitle' | 'metaTitle' | 'author' | 'published' | 'canonical'>(k: K, v: string | undefined) => {
    if (v) out[k] = v;
  };
  set('metaTitle', m(...META_NAMES.title));
  set('ogTitle', m('og:title'));
  set('twitterTitle', m('twitter:title'));
  set('author', m(...META_NAMES.author));
  set('published', m(...META_NAMES.published));
  set('canonical', canonical);
  return out;
}
