/**
 * The demo site's data model: what the generator decides for the site and each article, before any
 * markup. Templates (lib/demo/templates/) turn these into HTML; the truth is derived from them too,
 * so the truth and the served pages cannot disagree.
 */

/** Page templates, in the order `SiteOptions.templates` takes them. */
export const TEMPLATE_IDS = ['classic', 'blog', 'magazine', 'legacy'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/**
 * Machine-readable metadata a template's pages carry besides the visible HTML.
 * `full`: meta description, Open Graph, JSON-LD NewsArticle, RSS alternate link.
 * `partial`: Open Graph title/type, JSON-LD NewsArticle, RSS alternate link (no meta description).
 * `none`: only the visible HTML and the <title>.
 */
export type MetadataLevel = 'full' | 'partial' | 'none';

/**
 * Placeholder for the site's origin (`http://host:port`) in generated bodies: canonical links, og:url,
 * JSON-LD and the feed need absolute URLs, and the generator does not know where the site is served.
 * The server replaces it per request (see `resolveOrigin`).
 */
export const ORIGIN_TOKEN = '{{origin}}';

export interface LinkItem {
  title: string;
  path: string;
}

export interface Figure {
  src: string;
  alt: string;
  caption: string;
  credit: string;
  width: number;
  height: number;
}

/** One block of an article body, in reading order. */
export type BodyBlock =
  | { kind: 'p'; text: string; link?: { phrase: string; path: string } }
  | { kind: 'h2'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'list'; items: string[] }
  /** A figure inside the body (its caption is not body text). */
  | { kind: 'figure'; figure: Figure }
  /** An inline advertisement or "read more" promo (not body text). */
  | { kind: 'ad'; promo: LinkItem };

export interface Comment {
  author: string;
  /** ISO 8601. */
  at: string;
  text: string;
  likes: number;
}

export interface Author {
  name: string;
  slug: string;
  role: string;
}

export interface ArticleModel {
  /** Position in the site's article list (newest first), from 0. */
  index: number;
  path: string;
  slug: string;
  template: TemplateId;
  headline: string;
  /** Standfirst under the headline; also the meta/feed description. Not body text. */
  dek: string;
  author: Author;
  section: string;
  /** ISO 8601 UTC, seconds precision (`2026-03-14T09:30:00Z`). */
  published: string;
  blocks: BodyBlock[];
  /** A lead image above the body, for templates that show one. */
  leadFigure?: Figure;
  comments: Comment[];
  related: LinkItem[];
  tags: string[];
}

export interface SiteModel {
  name: string;
  host: string;
  tagline: string;
  /** Accent colour (CSS), the same on every page of the site. */
  accent: string;
  sections: string[];
  /** Secondary navigation: topics of the moment. */
  topics: string[];
  /** The five newest articles: the sidebar's "Trending" box on every page. */
  trending: LinkItem[];
  /** Sponsored lines for ad boxes. */
  ads: string[];
  /** About-us paragraph of the footer. */
  about: string;
  year: number;
}

/** Plain text of an article body: paragraphs, subheads, quotes and list items, one per line. */
export function bodyTextOf(blocks: readonly BodyBlock[]): string {
  const lines: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'p' || b.kind === 'h2' || b.kind === 'quote') lines.push(b.text);
    else if (b.kind === 'list') lines.push(...b.items);
  }
  return lines.join('\n');
}

/** A page template: one site design, with its own markup, class names and CSS. */
export interface TemplateSpec {
  id: TemplateId;
  metadata: MetadataLevel;
  /** Shows `leadFigure` above the body; templates without it get their figure inside the body. */
  leadFigure: boolean;
  /** Shows the article's dek (standfirst) under the headline. */
  showsDek: boolean;
  /** CSS selector of the element that holds the article body (for tests and debugging). */
  bodySelector: string;
  render(site: SiteModel, article: ArticleModel): string;
}
