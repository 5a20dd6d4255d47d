/**
 * The single-page extractor for sites without rules (and pages their rules select nothing on).
 * It is lib/fallback's combination: Dragnet's block classifier, the Readability-style DOM
 * heuristic, maximum subsequence segmentation and the title, with the model retrained from the
 * store (`spider train`, stored at `models/fallback.json`) when there is one, else the default
 * shipped in models/fallback-default.json. See lib/fallback/ and docs/fallback.md.
 *
 * `notArticle` flags pages that look like a listing or a home page (lib/html/not-article.ts, the test
 * the rules' text takes too; lib/fallback/not-article.ts reads its evidence off the blocks).
 */
import type { Document } from 'domhandler';
import type { ArticleContent } from '../html/content';
import { extractCombined } from '../fallback/extract';
import { parseModel, type FallbackModel } from '../fallback/model';
import type { StepContext } from '../step/context';
import type { RulesDocument } from '../types/rules-document';
import { keys } from '../store/keys';
import type { Store, StoredObject } from '../store/store';
import { describeError } from '../util/errors';

export interface FallbackOptions {
  readonly baseUrl?: string;
  /** A model retrained from the store (`trainFromStore`); the shipped default when absent. */
  readonly model?: FallbackModel;
  /** The page's title when the caller has it already (lib/html/metadata.ts), to save reading it again. */
  readonly title?: string;
  /** The site's repeated texts, when it has rules (`siteBoilerplate`): left out of the article. */
  readonly boilerplate?: ReadonlySet<string>;
}

export interface FallbackResult extends ArticleContent {
  /** The page looks like a listing or home page rather than an article. */
  readonly notArticle: boolean;
  /** Blocks output. */
  readonly nodes: number;
  /** Diagnostics: why notArticle was set, or '' when it wasn't. */
  readonly reason: string;
}

export function extractFallback(doc: Document, options: FallbackOptions = {}): FallbackResult {
  return extractCombined(doc, options);
}

const boilerplateSets = new WeakMap<RulesDocument, ReadonlySet<string>>();

/** The rules document's repeated texts as a set, built once per document (apply caches the documents). */
export function siteBoilerplate(rules: RulesDocument | undefined): ReadonlySet<string> | undefined {
  const texts = rules?.content.boilerplate;
  if (!rules || !texts?.length) return undefined;
  let set = boilerplateSets.get(rules);
  if (!set) boilerplateSets.set(rules, (set = new Set(texts)));
  return set;
}

export interface LoadFallbackModelOptions {
  /**
   * How long a process goes on using what it last found under the key before it reads the key
   * again (a retrained model reaches running apply processes within this time). Default 60 s;
   * 0 reads it on every call.
   */
  readonly recheckMs?: number;
  /** Clock (tests). */
  readonly now?: () => number;
}

export const FALLBACK_MODEL_RECHECK_MS = 60_000;

interface CachedModel {
  /** Etag of the stored model; undefined when there is none. */
  readonly etag: string | undefined;
  /** Undefined when there is none or it is invalid (remembered so it is not re-parsed every time). */
  readonly model: FallbackModel | undefined;
  readonly checkedAt: number;
}

/** Per store object (a process normally has one; tests and benchmarks have several). */
let cache = new WeakMap<Store, CachedModel>();
let loading = new WeakMap<Store, Promise<FallbackModel | undefined>>();

/** Forget the cached stored models (tests). */
export function clearFallbackModelCache(): void {
  cache = new WeakMap();
  loading = new WeakMap();
}

/**
 * The fallback model stored at `models/fallback.json`, parsed once per stored version (etag), or
 * undefined for the shipped default: when there is none, when it is invalid (logged once per
 * version) and when the store cannot be read (logged; the model found before, if any, stays in
 * use). It never throws: a bad or unreadable model must not fail an extraction.
 */
export async function loadFallbackModel(ctx: Pick<StepContext, 'store' | 'logger'>, options: LoadFallbackModelOptions = {}): Promise<FallbackModel | undefined> {
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? FALLBACK_MODEL_RECHECK_MS;
  const cached = cache.get(ctx.store);
  if (cached && now() - cached.checkedAt < recheckMs) return cached.model;
  // Concurrent extractions of a batch share one read.
  let pending = loading.get(ctx.store);
  if (!pending) {
    pending = refresh(ctx, now).finally(() => loading.delete(ctx.store));
    loading.set(ctx.store, pending);
  }
  return pending;
}

async function refresh(ctx: Pick<StepContext, 'store' | 'logger'>, now: () => number): Promise<FallbackModel | undefined> {
  const key = keys.fallbackModel();
  const cached = cache.get(ctx.store);
  const remember = (entry: CachedModel) => {
    cache.set(ctx.store, entry);
    return entry.model;
  };
  let obj: StoredObject | undefined;
  try {
    obj = await ctx.store.get(key);
  } catch (error) {
    ctx.logger.error('cannot read the stored fallback model; keeping the model in use (the default if none)', { key, error: describeError(error) });
    return remember({ etag: cached?.etag, model: cached?.model, checkedAt: now() });
  }
  if (!obj) return remember({ etag: undefined, model: undefined, checkedAt: now() });
  if (cached && cached.etag === obj.etag) return remember({ ...cached, checkedAt: now() });
  let model: FallbackModel | undefined;
  try {
    model = parseModel(JSON.parse(obj.body.toString('utf8')));
    ctx.logger.info('using the stored fallback model', { key, trainedOn: model.trainedOn, trainedAt: model.trainedAt });
  } catch (error) {
    ctx.logger.error('stored fallback model is invalid; using the default model', { key, error: describeError(error) });
    model = undefined;
  }
  return remember({ etag: obj.etag, model, checkedAt: now() });
}
