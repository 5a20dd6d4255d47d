/**
 * Rules document (format version 1): a site's learned extractor, written by learn, read by apply.
 * Reads like a hand-written per-site extractor (Postlight Parser's custom extractors):
 * per field an ordered list of selectors plus what to clean, with provenance.
 * Documented in docs/rules-document.md.
 */
import { z } from 'zod';

export const RULES_DOCUMENT_VERSION = 1 as const;

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
  selectors: z.array(z.string().min(1).max(2048)).max(200),
  /** Selectors of nodes removed from inside the content before output. */
  clean: z.array(z.string().min(1).max(2048)).max(200),
});
export type ContentRule = z.infer<typeof ContentRuleSchema>;

export const RulesDocumentSchema = z.object({
  version: z.literal(RULES_DOCUMENT_VERSION),
  site: z.string(),
  /** Increases with every learn of the site; the highest wins. */
  rulesVersion: z.number().int().positive(),
  learnedAt: z.string(),
  /** Pages the rules were learned from (ids), newest first. */
  learnedFrom: z.array(z.string()),
  content: ContentRuleSchema,
  clusters: z.array(ClusterSummarySchema),
  selfCheck: SelfCheckSchema,
  /** Parameters the learner ran with, so a result can be reproduced. */
  params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
});
export type RulesDocument = z.infer<typeof RulesDocumentSchema>;
