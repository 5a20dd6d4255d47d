/**
 * Article document (format version 1): what users read from the store.
 * Field names follow Readability's vocabulary (title, byline, publishedTime → `published`, lang, excerpt).
 * Documented in docs/article-document.md.
 */
import { z } from 'zod';

export const ARTICLE_DOCUMENT_VERSION = 1 as const;

/**
 * The version of apply's extraction code: raised when the same rules (or the single-page extractor)
 * give another article for the same page. A relearn extracts again the articles an older extraction
 * made (docs/rules-document.md, "Relearn: what is extracted again").
 * 1: articles without the field. 2: the prose written bare between the body's elements, the
 * single-page extractor's model trained with the dek, titles without their decoration. 3: the rules
 * take nothing inside an element the collector never reads or one hidden with all it holds, and the
 * header ends at the body's first element with words; the light Readability's alternative ancestors
 * and boxes of links, and no siblings for a wrapper its top candidate climbed to (2026-11-26/27).
 * 4: the field rules read dates in the site's learned locale alone, and the metadata's title cuts a
 * site's section names the h1 outweighs (2026-11-27). 5: the metadata's byline is the name alone (no
 * "Posted by", date or e-mail address) and read from an author element as a field's text is; a
 * field's element text parts its block-level children with a space and leaves out what an article's
 * text leaves out (SKIP_TAGS: embedded objects, inputs); the metadata reads zero-width
 * spaces as spaces and looks for title parts in the page's text in NFKC form (2026-11-27). 6: the
 * metadata reads the character references a meta, JSON-LD or <title> text still carries ("AT&amp;T"
 * is "AT&T"), a surname particle before a one-word name stays ("de Souza"), and a byline element's
 * name ends at a line break ("By Jane Doe<br>April 17, 2009") (2026-11-27). 7: the rules' text takes
 * the not-an-article test too: a login page or a tag listing of the site's layout is flagged
 * `notArticle`, its title, byline and date the page's metadata's (2026-11-28). 8: the not-an-article
 * test counts words as a reader counts them in any script, where a Japanese or Chinese article of a
 * few paragraphs was flagged `notArticle`, 'almost no text' (2026-11-28). (9 was a reverted
 * version's, 2026-11-27.) 10: the clean HTML unwraps a table that frames a code listing or holds a
 * single cell, as it did a table laid out around paragraphs, keeps a code block's language and struck
 * text (del, s), and leaves out a code listing's line numbers; the article has the page's `siteName`
 * and lead `image` (2026-11-28). 11: a page with no other date has the day its URL names
 * (`/2026/03/14/story.html`) for `published` (2026-11-28). 12: a published day the rules read gives
 * way to the time the page declares on that day, an announced byline rule reads no byline where its
 * element introduces none, and line numbers written at the start of each code line are left out
 * (2026-11-28). 13: the single-page extractor leaves out a line that links the post's tags or
 * categories (rel="tag", "Posted in News, Sport | 3 Comments") (2026-11-28). 14: the single-page extractor's
 * article is titled with the headline it shows, where the page's title also holds the site's or
 * section's names, or shows nowhere on the page (2026-11-28). 15: the single-page extractor keeps
 * the cells of a data table in the story, and the clean HTML keeps a table its header cells, caption
 * or column groups declare data, though a cell holds two lines (2026-11-28). 16: the rules' text
 * leaves out the lines that show the byline and the date the field rules read (2026-11-28). 17: the
 * text of an <object>'s fallback content is read as the page's (a Flash player's caption), but where
 * render marked it hidden (an object showing its image) (2026-11-28). 18: the single-page extractor
 * keeps a short line of the story its classifier rates as boilerplate (a recipe's ingredient) where
 * every page-level vote keeps it and it is written as the story's paragraphs are, between two of
 * them (2026-11-28). 19: no title longer than a headline can be (MAX_TITLE_CHARS), where a meta
 * left open that swallowed the page's scripts gave a title of hundreds of words (2026-11-28).
 */
export const EXTRACTION_VERSION = 19;

/** `rules`: the site's learned field rules; `metadata`: the page's JSON-LD, Open Graph, meta tags, headings, `<time>`, and for a date last the day its URL names. */
export const FieldSourceSchema = z.enum(['rules', 'metadata']);
export type FieldSource = z.infer<typeof FieldSourceSchema>;

export const ArticleDocumentSchema = z.object({
  version: z.literal(ARTICLE_DOCUMENT_VERSION),
  pageId: z.string(),
  /** The page's URL, whose site and page id are `site` and `pageId`: the one submitted, or the page of another site its navigation ended on. */
  url: z.string(),
  /**
   * The URL submitted, when its navigation ended on another site's page (a link shortener's, a moved
   * domain's redirect): `url` is the page's, where it landed. Absent when the page is the submitted URL's.
   */
  submittedUrl: z.string().optional(),
  site: z.string(),
  title: z.string().optional(),
  byline: z.string().optional(),
  /** ISO 8601 when known. */
  published: z.string().optional(),
  lang: z.string().optional(),
  excerpt: z.string().optional(),
  /** The publication's name, as the page gives it (og:site_name, application-name, the JSON-LD article's publisher). */
  siteName: z.string().optional(),
  /** The lead image's absolute URL, as the page names it for sharing (og:image, twitter:image, JSON-LD image, image_src). */
  image: z.string().optional(),
  /**
   * What the page shows between the headline and the body, one line per element: byline and
   * dateline line, lead picture's caption. Only from a site's learned rules (`content.header`).
   */
  header: z.string().optional(),
  /** Plain text of the body, one paragraph per line; with rules that have a dek (`content.dek`), the dek first. */
  text: z.string(),
  /** Clean HTML of the article body (no scripts, styles, event handlers or attributes but a few). */
  html: z.string(),
  wordCount: z.number().int().nonnegative(),
  /** `rules`: the site's learned rules; `fallback`: the single-page extractor. */
  method: z.enum(['rules', 'fallback']),
  /**
   * How the page was read: `render` in Chromium (its snapshot), or `fetch` over HTTP without a browser,
   * extracted from the HTML as served (docs/fetch-path.md). Absent in documents written before it: render.
   */
  path: z.enum(['render', 'fetch']).optional(),
  /** With `rules`: the version of the site's rules that made it. */
  rulesVersion: z.number().int().positive().optional(),
  /**
   * The version of the site's rules apply read for it, whatever its method (with `rules`, `rulesVersion`);
   * absent when the site had none (or they were unreadable), and in documents written before it. An
   * apply that read older rules does not replace it (lib/apply/apply-step.ts, docs/article-document.md).
   */
  rulesVersionRead: z.number().int().positive().optional(),
  /** The version of apply's extraction code that made it (EXTRACTION_VERSION); absent in documents written before it: 1. */
  extraction: z.number().int().positive().optional(),
  /** With `rules`: the site's template (its index in the rules document's `templates`) whose rules made it; absent: the rules learned from every page. */
  template: z.number().int().nonnegative().optional(),
  /** True when the page does not look like an article (home page, listing). */
  notArticle: z.boolean().optional(),
  extractedAt: z.string(),
  /**
   * When the page it was extracted from was stored (ISO 8601): its snapshot by render, or on the fetch
   * path its HTML as served by fetch; the store's last-modified time, so a relearn extracting the same
   * page again keeps it. A URL's own article and its redirect record: the later one is the URL's
   * (lib/store/redirects.ts). Absent in documents written before it (2026-11-28): `extractedAt` stands in.
   */
  pageStoredAt: z.string().optional(),
  /** Milliseconds apply took, parse included. */
  elapsedMs: z.number().nonnegative(),
  /**
   * Where title, byline and published came from: the site's learned field rules, or the page's own metadata.
   * `text`: present when the site has rules but the body is the single-page extractor's because the
   * rules' output failed the page-level guard (lib/apply/guard.ts): `fallback`, with the reason.
   */
  sources: z
    .object({
      title: FieldSourceSchema.optional(),
      byline: FieldSourceSchema.optional(),
      published: FieldSourceSchema.optional(),
      /**
       * `served`: the body was extracted from the HTML as served, because the rendered page lost it
       * to the page's own scripts (lib/apply/served-choice.ts); absent: from the rendered snapshot.
       */
      body: z.enum(['served']).optional(),
      text: z.object({ source: z.literal('fallback'), reason: z.string() }).optional(),
    })
    .optional(),
});
export type ArticleDocument = z.infer<typeof ArticleDocumentSchema>;

/**
 * The version of the site's rules apply read for an article: its `rulesVersionRead`, else (documents
 * written before it) its `rulesVersion`, which only `rules` articles have; undefined when it names none.
 */
export function rulesVersionReadOf(article: Pick<ArticleDocument, 'rulesVersion' | 'rulesVersionRead'>): number | undefined {
  return article.rulesVersionRead ?? article.rulesVersion;
}
