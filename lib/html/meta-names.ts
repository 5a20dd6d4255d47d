/**
 * The `<meta>` names a page's article values are read from, in order of trust. A name matches a
 * meta's `property`, else its `name`, else its `itemprop`, else its `http-equiv`, whatever its case.
 * One list for the apply step's metadata (`lib/html/metadata.ts`) and the render step's collector,
 * which records them in the feature document that field learning reads its truth from.
 */
export const META_NAMES = {
  /** A plain meta title (Open Graph's and Twitter's are read apart: they may name the site). */
  title: ['title', 'dc.title', 'headline'],
  author: ['author', 'article:author', 'byl', 'parsely-author', 'sailthru.author', 'dc.creator', 'dcterms.creator'],
  published: [
    'article:published_time', 'datepublished', 'og:published_time', 'published_time', 'publishdate', 'pubdate', 'date',
    'dc.date.issued', 'dc.date', 'dcterms.created', 'sailthru.date', 'parsely-pub-date', 'article.published', 'publish-date',
  ],
} as const satisfies Record<string, readonly string[]>;

export type MetaNames = { readonly [K in keyof typeof META_NAMES]: readonly string[] };
