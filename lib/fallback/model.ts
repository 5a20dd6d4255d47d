/**
 * The fallback's model: everything learned, in one JSON document. The default ships in the repo
 * (models/fallback-default.json, made by scripts/train-fallback.ts from generated sites) and is
 * bundled with the code; nothing is downloaded at run time. A model retrained from a store
 * (`trainFromStore`) has the same shape.
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

export const FallbackModelSchema = z.object({
  version: z.literal(FALLBACK_MODEL_VERSION),
  /** What it was trained on (free text). */
  trainedOn: z.string(),
  /** Training pages and blocks, for the record. */
  pages: z.number().int().nonnegative(),
  blocks: z.number().int().nonnegative(),
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
