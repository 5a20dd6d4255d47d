/** A site's current rules document, parsed once per stored version (apply and render's routing read it). */
import type { StepContext } from './context';
import { keys } from '../store/keys';
import { RulesDocumentSchema, type RulesDocument } from '../types/rules-document';
import { parseDocument } from '../store/documents';

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
  // A bad rules file is named once per stored version; learn quarantines and replaces it.
  const parsed = parseDocument(obj.body, RulesDocumentSchema);
  const rules = parsed.ok ? parsed.value : undefined;
  if (!parsed.ok) ctx.logger.error('stored rules are a bad file; using the fallback extractor until the site is learned again', { site, key: keys.rules(site), problem: parsed.problem });
  if (rulesCache.size >= MAX_CACHED_SITES && !rulesCache.has(site)) rulesCache.clear();
  rulesCache.set(site, { etag: obj.etag, rules });
  return rules;
}
