/**
 * Rules document (format version 1): a site's learned extractor, written by learn, read by apply.
 * Reads like a hand-written per-site extractor (Postlight Parser's custom extractors):
 * per field an ordered list of selectors plus what to clean, with provenance.
 * Documented in docs/rules-document.md.
 */
import { z } from 'zod';

export const RULES_DOCUMENT_VERSION = 1 as const;

/** The longest selector a rules document holds (content, dek, header, clean, layout). */
export const SELECTOR_MAX_LENGTH = 2048;

/** Most texts in `content.boilerplate`, and the longest one kept there. */
export const BOILERPLATE_TEXTS_MAX = 1000;
export const BOILERPLATE_TEXT_MAX_LENGTH = 1000;

export const ClusterSummarySchema = z.object({
  id: z.number().int(),
  blocks: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  score: z.number(),
  chosen: z.boolean(),
  /** Why it was chosen: the top-scoring cluster, or inside the top cluster's bounding box. */
  reason: z.string().optional(),
  /** The most common selector of its blocks and a text sample, for a human reader. */
  selector: z.string(),
  sample: z.string(),
});
export type ClusterSummary = z.infer<typeof ClusterSummarySchema>;

export const SelfCheckSchema = z.object({
  pages: z.number().int().nonnegative(),
  /** Share of the chosen blocks' words the rules select on the training pages. */
  recall: z.number(),
  /** Share of the words the rules select that belong to chosen blocks. */
  precision: z.number(),
  /** Selectors dropped or tightened because they picked blocks outside the chosen clusters. */
  adjusted: z.array(z.string()),
});
export type SelfCheck = z.infer<typeof SelfCheckSchema>;

export const ContentRuleSchema = z.object({
  /** CSS selectors in order; apply takes every node any of them matches, in document order. */
  selectors: z.array(z.string().min(1).max(SELECTOR_MAX_LENGTH)).max(200),
  /**
   * The article's dek (standfirst): its summary under the headline, the header's part that restates
   * the page's description. Apply puts its matches before the body's first node at the head of the
   * body. Absent when the learner found none.
   */
  dek: z.array(z.string().min(1).max(SELECTOR_MAX_LENGTH)).max(20).optional(),
  /**
   * The article's header: what the page shows between its headline and its body (byline and
   * dateline line, lead picture's caption; the dek when it is not `dek`). Apply gives it as the
   * article's `header`, apart from the body. Absent when the learner found none.
   */
  header: z.array(z.string().min(1).max(SELECTOR_MAX_LENGTH)).max(20).optional(),
  /** Selectors of nodes removed from inside the content before output. */
  clean: z.array(z.string().min(1).max(SELECTOR_MAX_LENGTH)).max(200),
  /**
   * Texts the site shows on two of the training pages or more (normalised: lib/text/match.ts
   * normalizeText), those on the most pages first: its template's and its ads', never one article's.
   * On a page of the site the selectors give way on, the single-page extractor leaves out blocks of
   * exactly these texts. Absent in documents learned before it.
   */
  boilerplate: z.array(z.string().min(1).max(BOILERPLATE_TEXT_MAX_LENGTH)).max(BOILERPLATE_TEXTS_MAX).optional(),
});
export type ContentRule = z.infer<typeof ContentRuleSchema>;

/**
 * One rule for an article field (Gkotsis et al.): a filter attribute that designates one element of
 * a page, with how often it gave the training posts' value.
 */
export const FieldRuleSchema = z.object({
  /**
   * The paper's three: `path` (absolute element path), `class` (CSS classes, all required), `id`
   * (HTML id); and `selector`: a CSS selector anchored at the nearest ancestor with an id or class, or
   * on the element's `itemprop` / `rel` (`#main-article-info h1`, `span[itemprop~="author"]`).
   */
  kind: z.enum(['path', 'class', 'id', 'selector']),
  /** `/html[1]/body[2]/div[3]/h1[1]` (1-based positions among element siblings), `entry-title` or `url fn`, `post-date`, a selector. */
  value: z.string().min(1).max(2048),
  /** `own`: only the element's own text nodes count, not its children's (`<h1>Title <span>date</span></h1>`). */
  text: z.enum(['own']).optional(),
  /**
   * byline: on every training post it was right on, the element introduced the name ("By Jane Doe",
   * "Posted by …"); apply then reads no byline where it introduces none (a dateline in its place).
   */
  announced: z.literal(true).optional(),
  /** The same rule as a CSS selector, for reading (the first element in document order it matches). */
  selector: z.string().min(1).max(4096),
  /** Share of the training posts on which the rule gives the post's value (Algorithm 1). */
  score: z.number().min(0).max(1),
  /** Training posts on which the rule gives the post's value. */
  support: z.number().int().nonnegative(),
});
export type FieldRule = z.infer<typeof FieldRuleSchema>;

export const FieldRulesSchema = z.object({
  /** In the order apply tries them (the first that gives a value wins). Empty when together they were right on fewer than `minScore` of the posts. */
  rules: z.array(FieldRuleSchema).max(10),
  /** Training posts that had a value for this field. */
  posts: z.number().int().nonnegative(),
  /** published: the date locale the site writes in (`en`, `en-GB`, `de`, …), the only one its dates are read in; every locale when absent. */
  locale: z.string().max(16).optional(),
  /** published: the site's UTC offset in minutes, for dates shown with a time but no zone. */
  utcOffsetMinutes: z.number().int().min(-900).max(900).optional(),
});
export type FieldRules = z.infer<typeof FieldRulesSchema>;

/** Where a site's title, byline and published date are in its HTML, learned from its feeds and page metadata. */
export const FieldsSectionSchema = z.object({
  title: FieldRulesSchema.optional(),
  byline: FieldRulesSchema.optional(),
  published: FieldRulesSchema.optional(),
  /** Training posts: pages with at least one value, and where the values came from. */
  training: z.object({
    posts: z.number().int().nonnegative(),
    feedEntries: z.number().int().nonnegative(),
    fromFeed: z.number().int().nonnegative(),
    fromMetadata: z.number().int().nonnegative(),
    /** Bylines from Readability's reading of the rendered page, for pages whose feed entry and metadata name no author (absent: none). */
    fromReadability: z.number().int().nonnegative().optional(),
    /** Dates from the day a page's URL names, for pages whose feed entry and metadata give none (absent: none). */
    fromUrl: z.number().int().nonnegative().optional(),
  }),
  /** Lowest score a kept rule has. */
  minScore: z.number().min(0).max(1),
});
export type FieldsSection = z.infer<typeof FieldsSectionSchema>;

/**
 * Whether the rules give the same article on the HTML as served (no browser) as on the rendered page,
 * checked by learn on its training pages (lib/html/fetch-verdict.ts). `works`: pages of the site may
 * take the fetch path (docs/fetch-path.md).
 */
export const FetchPathVerdictSchema = z.object({
  works: z.boolean(),
  /** Training pages checked: those the rules select something on in their rendered snapshot. */
  pages: z.number().int().nonnegative(),
  /** Lowest token F1 over the checked pages, served against rendered (0 when none was checked). */
  minF1: z.number().min(0).max(1),
  /** The F1 every checked page had to reach (config fetchPathMinF1). */
  threshold: z.number().min(0).max(1),
  /** The page of the lowest F1, when below 1. */
  worstPage: z.string().optional(),
  checkedAt: z.string(),
});
export type FetchPathVerdict = z.infer<typeof FetchPathVerdictSchema>;

/** Most templates in a rules document. */
export const TEMPLATES_MAX = 8;

/**
 * The content rules of one of the site's templates (lib/learn/templates.ts): learned from the
 * training pages of one layout alone. Apply serves a page with the template whose layout
 * selectors it matches best (at least half of them), and with the document's `content` when it
 * matches none.
 */
export const TemplateRuleSchema = z.object({
  /** Kinds of block (CSS selectors) on at least half of this template's training pages and on no other template's page. */
  layout: z.array(z.string().min(1).max(SELECTOR_MAX_LENGTH)).min(1).max(20),
  /** Its training pages (ids), newest first. */
  learnedFrom: z.array(z.string()),
  content: ContentRuleSchema.omit({ boilerplate: true }),
  selfCheck: SelfCheckSchema,
});
export type TemplateRule = z.infer<typeof TemplateRuleSchema>;

export const RulesDocumentSchema = z.object({
  version: z.literal(RULES_DOCUMENT_VERSION),
  site: z.string(),
  /** Increases with every learn of the site; the highest wins. */
  rulesVersion: z.number().int().positive(),
  learnedAt: z.string(),
  /**
   * The first rules version of the site whose content rules and field rules (what apply reads of
   * them) are these: an article made with that version or a later one is what these rules make, so a
   * relearn extracts it again only when this moves. Absent in documents written before it: this version.
   */
  sameExtractionSince: z.number().int().positive().optional(),
  /** Pages the rules were learned from (ids), newest first. */
  learnedFrom: z.array(z.string()),
  /** The rules learned from every training page: a page of no template below is served with these. */
  content: ContentRuleSchema,
  /**
   * When the training pages are of two layouts or more: each layout's own content rules, largest
   * first. Absent when the pages are of one layout, and in documents learned before it.
   */
  templates: z.array(TemplateRuleSchema).max(TEMPLATES_MAX).optional(),
  clusters: z.array(ClusterSummarySchema),
  selfCheck: SelfCheckSchema,
  /** Parameters the learner ran with, so a result can be reproduced. */
  params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  /** Rules for the article's title, byline and published date; absent in documents learned before them. */
  fields: FieldsSectionSchema.optional(),
  /** The fetch-path verdict of this learn; absent in documents learned before it (no fetch path). */
  fetchPath: FetchPathVerdictSchema.optional(),
});
export type RulesDocument = z.infer<typeof RulesDocumentSchema>;

/**
 * `drift/<site>/<pageId>.json`: the site's rules (of `rulesVersion`) selected nothing on this page.
 * Written by apply, counted by learn: enough markers for the current rules version relearn the site.
 */
export const DriftMarkerSchema = z.object({
  version: z.literal(1),
  site: z.string(),
  pageId: z.string(),
  rulesVersion: z.number().int().positive(),
  at: z.string(),
});
export type DriftMarker = z.infer<typeof DriftMarkerSchema>;
