/** A site's current rules document, parsed once per stored version (apply and render's routing read it). */
import type { StepContext } from './context';
import { keys } from '../store/keys';
import { RulesDocumentSchema, type RulesDocument } from '../types/rules-document';
import { describeError } from '../util/errors';

interface CachedRules {
  readonly etag: string;
  /** Undefined when the stored document is invalid (remembered so it is not re-parsed every time). */
  readonly rules: RulesDocument | undefined;
}

/** Parsed rules per site, for as long as the process lives; refreshed when the stored etag changes. */
const rulesCache = new Map<string, CachedRules>();
const MAX_CACHED_SITES = 5000;

/** Forget every cached rules document (tests). */
export function clearRulesCache(): void {
  rulesCache.clear();
}

/** The site's current rules, parsed once per stored version; undefined when it has none (or they are invalid). */
export async function loadRules(site: string, ctx: StepContext): Promise<RulesDocument | undefined> {
  const obj = await ctx.store.get(keys.rules(site));
  if (!obj) {
    rulesCache.delete(site);
    return undefined;
  }
  const cached = rulesCache.get(site);
  if (cached && cached.etag === obj.etag) return cached.rules;
  let rules: RulesDocument | undefined;
  try {
    rules = RulesDocumentSchema.parse(JSON.parse(obj.body.toString('utf8')));
  } catch (error) {
    ctx.logger.error('stored rules are invalid; using the fallback extractor', { site, error: describeError(error) });
    rules = undefined;
  }
  if (rulesCache.size >= MAX_CACHED_SITES && !rulesCache.has(site)) rulesCache.clear();
  rulesCache.set(site, { etag: obj.etag, rules });
  return rules;
}
