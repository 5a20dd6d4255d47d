/**
 * The learn step, per site: decide whether the site needs (re)learning, learn its rules from its
 * newest feature documents, write the rules document (versioned, compare-and-swap), and queue its
 * pages for extraction again with the new rules.
 */
import type { StepContext } from '../step/context';
import { keys, pageIdFromFeaturesKey } from '../store/keys';
import { PreconditionFailedError, putJson, type Store, type StoredObject } from '../store/store';
import { extractCombined } from '../fallback/extract';
import { parseHtml } from '../html/parse';
import { FeatureDocumentSchema, type FeatureDocument } from '../types/feature-document';
import type { LearnMessage } from '../types/messages';
import {
  DriftMarkerSchema,
  RULES_DOCUMENT_VERSION,
  RulesDocumentSchema,
  type DriftMarker,
  type RulesDocument,
} from '../types/rules-document';
import { learnSiteFields } from '../fields/learn-fields';
import { learnRules } from './learn-rules';

export type LearnOutcome =
  | { readonly learned: false; readonly site: string; readonly reason: string }
  | { readonly learned: true; readonly site: string; readonly rules: RulesDocument; readonly reapplied: number };

export async function learnStep(message: LearnMessage, ctx: StepContext): Promise<LearnOutcome> {
  const { store, config, logger } = ctx;
  const site = message.site;

  const pages = (await store.list(keys.pagePrefix(site)))
    .map((o) => ({ ...o, pageId: pageIdFromFeaturesKey(o.key) }))
    .filter((o): o is typeof o & { pageId: string } => o.pageId !== undefined)
    .sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime() || (a.key < b.key ? -1 : 1));

  const stored = await store.get(keys.rules(site));
  const current = stored ? parseRules(stored, logger) : undefined;

  if (pages.length === 0) return { learned: false, site, reason: 'the site has no rendered pages' };
  if (!message.force) {
    if (!current && pages.length < config.learnMinPages) {
      return { learned: false, site, reason: `${pages.length} of the ${config.learnMinPages} pages needed to learn` };
    }
    if (current) {
      // Pages rendered since the last learn read the site's pages (not: pages outside learnedFrom,
      // which on a site with more than learnPages pages would be every older page, every time).
      const since = Date.parse(current.learnedAt);
      const known = new Set(current.learnedFrom);
      const fresh = pages.filter((p) => !known.has(p.pageId) && !(p.lastModified.getTime() < since)).length;
      const drifted = fresh >= config.relearnAfter ? 0 : await driftCount(site, current.rulesVersion, ctx);
      if (fresh < config.relearnAfter && drifted < config.driftRelearnAfter) {
        return {
          learned: false,
          site,
          reason:
            `${fresh} new pages since rules v${current.rulesVersion} (relearning after ${config.relearnAfter}), ` +
            `${drifted} they selected nothing on (relearning after ${config.driftRelearnAfter})`,
        };
      }
      if (drifted >= config.driftRelearnAfter) logger.info('rules drifted: relearning', { site, rulesVersion: current.rulesVersion, drifted });
    }
  }
  const started = new Date();

  const docs: FeatureDocument[] = [];
  for (const page of pages.slice(0, config.learnPages)) {
    const obj = await store.get(page.key);
    if (!obj) continue;
    const parsed = FeatureDocumentSchema.safeParse(JSON.parse(obj.body.toString('utf8')));
    if (parsed.success) docs.push(parsed.data);
    else logger.warn('skipping an invalid feature document', { key: page.key, error: parsed.error.message });
  }
  if (docs.length === 0) return { learned: false, site, reason: 'no valid feature documents' };

  const learned = learnRules(docs, { eps: config.dbscanEps, minPts: config.dbscanMinPts }, await pageLabels(docs, store));
  if (learned.content.selectors.length === 0) {
    logger.warn('learned no content selectors; keeping the current rules', { site, pages: docs.length });
    return { learned: false, site, reason: 'no content cluster found' };
  }

  // Where the title, byline and date are, supervised by the site's feeds and its pages' metadata.
  // Content rules do not wait on them: a failure here leaves the fields to the pages' metadata.
  const fields = await learnSiteFields(site, docs, store, { logger }).catch((error: unknown) => {
    logger.error('field learning failed; rules without fields', { site, error: String(error) });
    return undefined;
  });

  const rules: RulesDocument = RulesDocumentSchema.parse({
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion: (current?.rulesVersion ?? 0) + 1,
    // when this learn read the site's pages: a page rendered after it counts as new for the next one
    learnedAt: started.toISOString(),
    ...learned,
    ...(fields ? { fields } : {}),
  });
  try {
    // Compare-and-swap: if another learn of this site wrote in between, the higher version stands.
    await putJson(store, keys.rules(site), rules, stored ? { ifMatch: stored.etag } : { ifNoneMatch: '*' });
  } catch (error) {
    if (!(error instanceof PreconditionFailedError)) throw error;
    const winner = await store.get(keys.rules(site));
    const winnerVersion = winner ? parseRules(winner, logger)?.rulesVersion ?? 0 : 0;
    if (winnerVersion >= rules.rulesVersion) {
      return { learned: false, site, reason: `a concurrent learn wrote rules v${winnerVersion} first` };
    }
    throw error; // retry: the queue redelivers and the next attempt reads the newer rules
  }

  // The site's pages were extracted with other rules (or none): extract them again, unless the
  // rules select exactly what the previous ones did.
  const changed = !current || extractsDifferently(current, rules);
  if (changed) for (const page of pages) await ctx.queues.apply.send({ v: 1, site, pageId: page.pageId, reason: 'relearned' });
  await clearDrift(site, rules.rulesVersion, ctx);
  logger.info('learned', {
    site,
    rulesVersion: rules.rulesVersion,
    pages: docs.length,
    selectors: rules.content.selectors.length,
    reapplied: changed ? pages.length : 0,
  });
  return { learned: true, site, rules, reapplied: changed ? pages.length : 0 };
}

/** Whether two rules documents can extract anything differently (content selectors or field rules). */
export function extractsDifferently(a: RulesDocument, b: RulesDocument): boolean {
  const fieldRules = (r: RulesDocument) =>
    JSON.stringify([r.fields?.title?.rules, r.fields?.byline?.rules, r.fields?.published?.rules]);
  return JSON.stringify(a.content) !== JSON.stringify(b.content) || fieldRules(a) !== fieldRules(b);
}

/** Pages the site's rules of this version selected nothing on (apply's drift markers). */
async function driftCount(site: string, rulesVersion: number, ctx: StepContext): Promise<number> {
  let n = 0;
  for (const obj of await ctx.store.list(keys.driftPrefix(site))) {
    const marker = await readDrift(obj.key, ctx);
    if (marker?.rulesVersion === rulesVersion) n++;
  }
  return n;
}

/** Drop the markers of older rules versions: they said nothing about the new rules. */
async function clearDrift(site: string, rulesVersion: number, ctx: StepContext): Promise<void> {
  for (const obj of await ctx.store.list(keys.driftPrefix(site))) {
    const marker = await readDrift(obj.key, ctx);
    if (!marker || marker.rulesVersion < rulesVersion) await ctx.store.delete(obj.key);
  }
}

async function readDrift(key: string, ctx: StepContext): Promise<DriftMarker | undefined> {
  const obj = await ctx.store.get(key);
  if (!obj) return undefined;
  try {
    return DriftMarkerSchema.parse(JSON.parse(obj.body.toString('utf8')));
  } catch {
    return undefined;
  }
}

function parseRules(obj: StoredObject, logger: StepContext['logger']): RulesDocument | undefined {
  try {
    return RulesDocumentSchema.parse(JSON.parse(obj.body.toString('utf8')));
  } catch (error) {
    logger.warn('ignoring an unreadable rules document', { error: String(error) });
    return undefined;
  }
}

/**
 * The weak labels of the training pages (weak-labels.ts): the text the single-page extractor
 * (lib/fallback's combination, with the shipped model) keeps on each page's snapshot. A page
 * without a snapshot has none.
 */
async function pageLabels(docs: readonly FeatureDocument[], store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const d of docs) {
    const obj = await store.get(d.snapshotKey);
    if (!obj) continue;
    out.set(d.pageId, extractCombined(parseHtml(obj.body.toString('utf8'))).text);
  }
  return out;
}
