/**
 * Feature document (format version 1): what the render step saw on one page.
 * Documented in docs/feature-document.md. Written by render, read by learn.
 */
import { z } from 'zod';

export const FEATURE_DOCUMENT_VERSION = 1 as const;

/**
 * What the render step writes into the snapshot beside the page (docs/feature-document.md#snapshot):
 * `<meta name>`s at the top of <head>, and the attribute marking the elements whose own text the
 * in-page Readability kept.
 */
export const SNAPSHOT_META = {
  /** The page's URL: the one submitted, or where its navigation ended when that is another site (lib/store/keys.ts pageUrlOf). */
  url: 'spider:url',
  /** The URL submitted, when its navigation ended on another site (then `url` is the landing page's). */
  submittedUrl: 'spider:submitted-url',
  /** Text length of the HTML as served (lib/render/served.ts counts both alike). */
  servedText: 'spider:served-text',
  /** Text length of the rendered document. */
  renderedText: 'spider:rendered-text',
  /** Mozilla Readability's title of the page. */
  readabilityTitle: 'spider:readability-title',
} as const;
export const READABILITY_MARK = 'data-spider-readability';

export const BoundingBoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type BoundingBox = z.infer<typeof BoundingBoxSchema>;

/** One step of a block's tag path from <body> down to the block element. */
export const PathStepSchema = z.object({
  tag: z.string().min(1).max(64),
  id: z.string().max(256).optional(),
  classes: z.array(z.string().max(256)).max(64),
  /** 1-based position among element siblings (as :nth-child). */
  index: z.number().int().positive(),
});
export type PathStep = z.infer<typeof PathStepSchema>;

/**
 * Caps of a block's recorded path and selector. A block nested deeper keeps its deepest steps and a
 * selector that starts `body ` (a descendant of body) instead of `body > `: the page is kept, only
 * the record of where the block sits is cut.
 */
export const MAX_PATH_STEPS = 256;
export const MAX_SELECTOR_CHARS = 8192;

export const BlockSchema = z.object({
  /** Position in DOM order among the page's blocks, from 0. */
  order: z.number().int().nonnegative(),
  /** Visible text, whitespace collapsed, paragraphs inside the block kept as "\n". */
  text: z.string(),
  /** Bounding box in page coordinates (scroll offsets added), CSS pixels. */
  bbox: BoundingBoxSchema,
  /** Computed CSS properties whose value differs from <body>'s (geometry excluded). */
  css: z.record(z.string(), z.string()),
  /** Tag path from <body> (excluded) to the block element (included); its deepest MAX_PATH_STEPS steps at most. */
  path: z.array(PathStepSchema).max(MAX_PATH_STEPS),
  /** CSS selector for the block: `body > tag#id.class > tag.class` ..., or `body tag > ...` when the path was cut. */
  selector: z.string().max(MAX_SELECTOR_CHARS),
  words: z.number().int().nonnegative(),
  linkWords: z.number().int().nonnegative(),
  chars: z.number().int().nonnegative(),
  linkChars: z.number().int().nonnegative(),
  /**
   * Characters of the block's text held by elements whose own text the in-page Readability kept
   * (`data-spider-readability` in the snapshot); absent when none (or Readability did not run).
   */
  readabilityChars: z.number().int().nonnegative().optional(),
});
export type Block = z.infer<typeof BlockSchema>;

export const JsonLdArticleSchema = z.object({
  type: z.string().optional(),
  headline: z.string().optional(),
  description: z.string().optional(),
  author: z.array(z.string()).optional(),
  datePublished: z.string().optional(),
  dateModified: z.string().optional(),
});
export type JsonLdArticle = z.infer<typeof JsonLdArticleSchema>;

export const FeedLinkSchema = z.object({
  href: z.string(),
  type: z.string(),
  title: z.string().optional(),
});

export const PageMetadataSchema = z.object({
  title: z.string(),
  metaTitle: z.string().optional(),
  ogTitle: z.string().optional(),
  twitterTitle: z.string().optional(),
  description: z.string().optional(),
  ogDescription: z.string().optional(),
  twitterDescription: z.string().optional(),
  author: z.string().optional(),
  published: z.string().optional(),
  siteName: z.string().optional(),
  canonical: z.string().optional(),
  lang: z.string().optional(),
  jsonLd: z.array(JsonLdArticleSchema),
  feeds: z.array(FeedLinkSchema),
});
export type PageMetadata = z.infer<typeof PageMetadataSchema>;

/**
 * Mozilla Readability's result on the rendered page (lib/render/readability-in-page.ts), format
 * version 1. The elements whose own text it kept carry `data-spider-readability="1"` in the snapshot.
 */
export const InPageReadabilitySchema = z.object({
  version: z.literal(1),
  /** Readability found an article (false: it returned nothing, or failed: `error`). */
  ok: z.boolean(),
  error: z.string().optional(),
  title: z.string().optional(),
  byline: z.string().optional(),
  excerpt: z.string().optional(),
  siteName: z.string().optional(),
  publishedTime: z.string().optional(),
  /** Characters of the article's text (white space collapsed). */
  length: z.number().int().nonnegative(),
  /** Elements of the rendered document marked as holding kept text. */
  marked: z.number().int().nonnegative(),
});
export type InPageReadability = z.infer<typeof InPageReadabilitySchema>;

/** The HTML as served (the main document's response body), stored beside the snapshot. */
export const ServedSchema = z.object({
  /** Store key: pages/<site>/<pageId>/served.html. */
  key: z.string(),
  bytes: z.number().int().nonnegative(),
  /** Characters of its <body>'s text, scripts, styles and templates left out, white space collapsed. */
  textLength: z.number().int().nonnegative(),
});
export type Served = z.infer<typeof ServedSchema>;

export const FeatureDocumentSchema = z.object({
  version: z.literal(FEATURE_DOCUMENT_VERSION),
  pageId: z.string(),
  /** The page's URL (its site and page id are the document's): the one submitted, or the page of another site its navigation ended on. */
  url: z.string(),
  finalUrl: z.string(),
  /** The URL submitted, when its navigation ended on another site's page (then `url` is that page's). */
  submittedUrl: z.string().optional(),
  site: z.string(),
  renderedAt: z.string(),
  viewport: z.object({ width: z.number(), height: z.number() }),
  /** Store key of the serialized rendered DOM this document describes. */
  snapshotKey: z.string(),
  /** Where the HTML came from: fetched live, or an archived copy answered through interception. */
  source: z.enum(['live', 'archive']),
  page: PageMetadataSchema,
  /** Computed style of <body>, the reference the blocks' `css` differs from. */
  bodyCss: z.record(z.string(), z.string()),
  blocks: z.array(BlockSchema),
  /** Mozilla Readability run in the rendered page; absent when it did not run. */
  readability: InPageReadabilitySchema.optional(),
  /** The HTML as served, when the render kept it. */
  served: ServedSchema.optional(),
  /**
   * `no-script`: the page's own scripts took it off its document (it ended on an error page) or did
   * not yield (its response in, the page answering nothing), so it was rendered again from its served
   * HTML with JavaScript off; absent: rendered normally.
   */
  renderMode: z.enum(['no-script']).optional(),
});
export type FeatureDocument = z.infer<typeof FeatureDocumentSchema>;

/** What the in-page collector returns (the render step adds ids, keys and timestamps). */
export const CollectedPageSchema = FeatureDocumentSchema.pick({ page: true, bodyCss: true, blocks: true });
export type CollectedPage = z.infer<typeof CollectedPageSchema>;
