/** Markup helpers shared by the demo site's page templates. */
import type { ArticleModel, BodyBlock, Figure, MetadataLevel, SiteModel } from '../model';
import { ORIGIN_TOKEN } from '../model';
import { slugify } from '../prose';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "March 14, 2026" */
export function longDate(iso: string): string {
  const d = new Date(iso);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "14 Mar 2026" */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()].slice(0, 3)} ${d.getUTCFullYear()}`;
}

/** "03/14/2026" */
export function numericDate(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
}

/** "9:30 AM" */
export function clock(iso: string): string {
  const d = new Date(iso);
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(d.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function sectionPath(section: string): string {
  return `/section/${slugify(section)}/`;
}

export function topicPath(topic: string): string {
  return `/topic/${slugify(topic)}/`;
}

/** Inner HTML of a paragraph block: its text, with the link phrase (if any) as an <a>. */
export function paragraphHtml(block: Extract<BodyBlock, { kind: 'p' }>): string {
  const link = block.link;
  const at = link ? block.text.indexOf(link.phrase) : -1;
  if (!link || at < 0) return esc(block.text);
  const before = block.text.slice(0, at);
  const after = block.text.slice(at + link.phrase.length);
  return `${esc(before)}<a href="${esc(link.path)}">${esc(link.phrase)}</a>${esc(after)}`;
}

export function imgTag(f: Figure, cls = ''): string {
  const c = cls ? ` class="${cls}"` : '';
  return `<img${c} src="${esc(f.src)}" alt="${esc(f.alt)}" width="${f.width}" height="${f.height}" loading="eager">`;
}

export interface HeadOptions {
  /** The page's <title>. */
  title: string;
  level: MetadataLevel;
  css: string;
  /** For article pages: feeds Open Graph and JSON-LD. */
  article?: ArticleModel;
  /** meta description for non-article pages at level `full`. */
  description?: string;
}

/** The <head> of a page: charset, viewport, title, the metadata its level calls for, and the embedded CSS. */
export function head(site: SiteModel, o: HeadOptions): string {
  const lines = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(o.title)}</title>`,
    '<link rel="icon" href="data:,">',
  ];
  const a = o.article;
  const url = a ? `${ORIGIN_TOKEN}${a.path}` : `${ORIGIN_TOKEN}/`;
  const image = a ? (a.leadFigure ?? firstFigure(a)) : undefined;
  if (o.level === 'full') {
    const description = a ? a.dek : o.description;
    if (description) lines.push(`<meta name="description" content="${esc(description)}">`);
    lines.push(`<link rel="canonical" href="${url}">`);
    lines.push(`<meta property="og:site_name" content="${esc(site.name)}">`);
    lines.push(`<meta property="og:type" content="${a ? 'article' : 'website'}">`);
    lines.push(`<meta property="og:title" content="${esc(a ? a.headline : site.name)}">`);
    if (description) lines.push(`<meta property="og:description" content="${esc(description)}">`);
    lines.push(`<meta property="og:url" content="${url}">`);
    if (image) lines.push(`<meta property="og:image" content="${ORIGIN_TOKEN}${esc(image.src)}">`);
    if (a) {
      lines.push(`<meta property="article:published_time" content="${a.published}">`);
      lines.push(`<meta property="article:section" content="${esc(a.section)}">`);
      lines.push(`<meta name="author" content="${esc(a.author.name)}">`);
    }
  } else if (o.level === 'partial' && a) {
    lines.push(`<meta property="og:type" content="article">`);
    lines.push(`<meta property="og:title" content="${esc(a.headline)}">`);
  }
  if (o.level !== 'none') {
    lines.push(`<link rel="alternate" type="application/rss+xml" title="${esc(site.name)}" href="/feed.xml">`);
  }
  if (a && o.level !== 'none') lines.push(jsonLd(site, a, o.level, url, image));
  lines.push(`<style>\n:root { --accent: ${site.accent}; }\n${o.css.trim()}\n</style>`);
  return `<head>\n${lines.join('\n')}\n</head>`;
}

function firstFigure(a: ArticleModel): Figure | undefined {
  for (const b of a.blocks) if (b.kind === 'figure') return b.figure;
  return undefined;
}

function jsonLd(site: SiteModel, a: ArticleModel, level: MetadataLevel, url: string, image?: Figure): string {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: a.headline,
    author: { '@type': 'Person', name: a.author.name },
    datePublished: a.published,
  };
  if (level === 'full') {
    data.description = a.dek;
    data.dateModified = a.published;
    data.articleSection = a.section;
    data.mainEntityOfPage = { '@type': 'WebPage', '@id': url };
    data.publisher = { '@type': 'Organization', name: site.name };
    if (image) data.image = [`${ORIGIN_TOKEN}${image.src}`];
  }
  const json = JSON.stringify(data, null, 2).replace(/</g, '\\u003c');
  return `<script type="application/ld+json">\n${json}\n</script>`;
}

/** The whole document. */
export function page(headHtml: string, bodyAttrs: string, bodyHtml: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n${headHtml}\n<body${bodyAttrs ? ' ' + bodyAttrs : ''}>\n${bodyHtml.trim()}\n</body>\n</html>\n`;
}

/** Joins markup fragments, dropping empty ones. */
export function join(...parts: Array<string | false | undefined | null>): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join('\n');
}

export function commentCountLabel(n: number): string {
  return n === 1 ? '1 Comment' : `${n} Comments`;
}
