/**
 * Feature document (format version 1): what the render step saw on one page.
 * Documented in docs/feature-document.md. Written by render, read by learn.
 */
import { z } from 'zod';

export const FEATURE_DOCUMENT_VERSION = 1 as const;

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

export const FeatureDocumentSchema = z.object({
  version: z.literal(FEATURE_DOCUMENT_VERSION),
  pageId: z.string(),
  url: z.string(),
  finalUrl: z.string(),
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
});
export type FeatureDocument = z.infer<typeof FeatureDocumentSchema>;

/** What the in-page collector returns (the render step adds ids, keys and timestamps). */
export const CollectedPageSchema = FeatureDocumentSchema.pick({ page: true, bodyCss: true, blocks: true });
export type CollectedPage = z.infer<typeof CollectedPageSchema>;
