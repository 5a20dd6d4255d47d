/**
 * The fallback's model: everything learned, in one JSON document. The default ships in the repo
 * (models/fallback-default.json, made by scripts/train-fallback.ts from generated sites) and is
 * bundled with the code; nothing is downloaded at run time. A model retrained from a store
 * (`trainFromStore`, `spider train`) has the same shape and is stored at `models/fallback.json`
 * (lib/store/keys.ts), where the apply step finds it (lib/apply/fallback.ts). docs/fallback.md.
 */
import { z } from 'zod';
import type { DragnetModel } from './dragnet';
import { compileNaiveBayes, type NaiveBayesModel, type NaiveBayesScorer } from './naive-bayes';

export const FALLBACK_MODEL_VERSION = 1 as const;

const LogisticSchema = z.object({
  features: z.array(z.string()),
  mean: z.array(z.number()),
  std: z.array(z.number()),
  weights: z.array(z.number()),
  bias: z.number(),
});

const FeatureCountsSchema = z.object({
  total: z.tuple([z.number(), z.number()]),
  vocabulary: z.number(),
  counts: z.record(z.string(), z.tuple([z.number(), z.number()])),
});

const FiguresSchema = z.object({ f1: z.number(), precision: z.number(), recall: z.number() });

/** Leave-one-site-out figures of a model trained from a store (store-training.ts). */
export const HoldoutSchema = z.object({
  /** Learned sites left out of training one at a time, each scored on its own pages. */
  sites: z.array(z.string()),
  /** Their pages. */
  pages: z.number().int().nonnegative(),
  /** The fallback with a model trained without the site, against the site's rules-extracted articles (lib/metric/metric.ts). */
  retrained: FiguresSchema,
  /** The fallback with the shipped default model, on the same pages. */
  default: FiguresSchema,
});
export type Holdout = z.infer<typeof HoldoutSchema>;

export const FallbackModelSchema = z.object({
  /** The document's format version: a reader refuses other versions (the apply step then uses the shipped default). */
  version: z.literal(FALLBACK_MODEL_VERSION),
  /** What it was trained on (free text). */
  trainedOn: z.string(),
  /** When it was trained (ISO 8601); models trained from a store only. */
  trainedAt: z.string().optional(),
  /** Training pages and blocks, for the record. */
  pages: z.number().int().nonnegative(),
  blocks: z.number().int().nonnegative(),
  /** Pages of each learned site it was trained on; models trained from a store only. */
  sites: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Leave-one-site-out figures, when measured. */
  holdout: HoldoutSchema.optional(),
  dragnet: z.object({
    tokens: z.record(z.string(), z.number()),
    classifier: LogisticSchema,
    threshold: z.number().optional(),
  }),
  naiveBayes: z.object({
    prior: z.tuple([z.number(), z.number()]),
    kinds: z.record(z.string(), FeatureCountsSchema),
  }),
});

export type FallbackModel = z.infer<typeof FallbackModelSchema>;

/** Validate a model document (from the repo, a store, a file). */
export function parseModel(value: unknown): FallbackModel {
  return FallbackModelSchema.parse(value);
}

/** A model with its derived, fast-to-use parts (compiled once per model object). */
export interface CompiledModel {
  readonly model: FallbackModel;
  readonly dragnet: DragnetModel;
  readonly naiveBayes: NaiveBayesScorer;
}

const compiledCache = new WeakMap<FallbackModel, CompiledModel>();

export function compileModel(model: FallbackModel): CompiledModel {
  let c = compiledCache.get(model);
  if (!c) {
    c = {
      model,
      dragnet: model.dragnet,
      naiveBayes: compileNaiveBayes(model.naiveBayes as NaiveBayesModel),
    };
    compiledCache.set(model, c);
  }
  return c;
}

/** The model as the repo stores it: compact JSON and a final newline. */
export function modelJson(model: FallbackModel): string {
  return JSON.stringify(model) + '\n';
}
