/**
 * The single-page fallback's methods, each usable on its own (for comparison), and the combination
 * that lib/apply/fallback.ts serves. All work on the htmlparser2 Document (lib/html/parse.ts).
 */
import type { Document } from 'domhandler';
import { defaultFallbackModel } from './default-model';
import { extractDragnet } from './dragnet';
import { extractCombined } from './extract';
import type { FallbackModel } from './model';
import { extractMss, extractMssBaseline } from './mss';
import type { NaiveBayesModel } from './naive-bayes';
import { extractQRead } from './qread';
import { extractReadabilityLike } from './readability-like';
import { extractReadabilityMarks } from './readability-marks';
import { pageTitle } from './title';

export { extractCombined, type CombinedOptions, type CombinedResult } from './extract';
export { extractDragnet, scoreBlocks, dragnetFeatures, textDensity, cetrFeatures } from './dragnet';
export { extractQRead, qreadLines, segmentLines } from './qread';
export { extractMss, extractMssBaseline, maxSubsequence, cutAtFirstHr, mssTokens } from './mss';
export { extractReadabilityLike } from './readability-like';
export { extractReadabilityMarks } from './readability-marks';
export { segmentBlocks, type Block } from './blocks';
export { trainModel } from './train';
export { trainFromStore, storePages } from './store-training';
export { generatedPages, defaultTrainingPages } from './generated';
export { defaultFallbackModel } from './default-model';
export { parseModel, type FallbackModel } from './model';

export interface MethodContext {
  readonly baseUrl?: string;
  readonly model?: FallbackModel;
}

export interface MethodOutput {
  readonly text: string;
  readonly notArticle?: boolean;
}

export type Method = (doc: Document, context: MethodContext) => MethodOutput;

/** Every method by name, for comparisons (bench/fallback-methods.ts). */
export const METHODS: Readonly<Record<string, Method>> = {
  'mss-baseline': (doc) => extractMssBaseline(doc),
  mss: (doc, c) => extractMss(doc, (c.model ?? defaultFallbackModel()).naiveBayes as NaiveBayesModel),
  qread: (doc) => extractQRead(doc, { title: pageTitle(doc) }),
  dragnet: (doc, c) => extractDragnet(doc, (c.model ?? defaultFallbackModel()).dragnet),
  'readability-like': (doc, c) => extractReadabilityLike(doc, { baseUrl: c.baseUrl }),
  /** Mozilla Readability's choice as the render step marked it in the snapshot (nothing on a page without marks). */
  'readability-marks': (doc, c) => extractReadabilityMarks(doc, { baseUrl: c.baseUrl }),
  combined: (doc, c) => extractCombined(doc, { baseUrl: c.baseUrl, model: c.model }),
};
