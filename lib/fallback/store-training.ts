/**
 * Self-training: the sites this system has learned are labelled data for free. Every article a
 * site's learned rules extracted (method 'rules') labels its page's snapshot: the rules-selected
 * text is article, the rest is not. `trainFromStore` turns those pages (plus, by default, the
 * generated sites the default model is trained on, so a store with few sites still gives a
 * balanced model) into a new fallback model, and can measure it leave-one-site-out against the
 * shipped default. `spider train` (lib/cli/main.ts) runs it and stores the model at
 * `models/fallback.json`, where the apply step finds it (lib/apply/fallback.ts).
 */
import { parseHtml } from '../html/parse';
import { aggregate, scorePage, type Aggregate } from '../metric/metric';
import { keys } from '../store/keys';
import type { Store } from '../store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../types/article-document';
import { defaultFallbackModel } from './default-model';
import { extractCombined } from './extract';
import { defaultTrainingPages } from './generated';
import type { LabelledPage } from './labels';
import type { FallbackModel, Holdout } from './model';
import { trainModel } from './train';

export interface StoreTrainingOptions {
  /** Also train on the default model's generated sites. Default true. */
  readonly includeGenerated?: boolean;
  /** Pages per site at most (in key order; keys are hashes, so an arbitrary sample). Default 50. */
  readonly maxPagesPerSite?: number;
  /** Pages in all at most, taken from the sites in turn so none crowds out the others (memory: each is a parsed DOM). Default 1000. */
  readonly maxPages?: number;
  /** Articles with fewer words are not trusted as labels. Default 50. */
  readonly minWords?: number;
  /**
   * Leave-one-site-out estimate on up to this many learned sites (those with the most pages): for
   * each, a model trained without it extracts its pages, and so does the shipped default. One more
   * training per site. Needs 2 learned sites or more. Default 0 (none).
   */
  readonly holdoutSites?: number;
  /** The time recorded as `trainedAt` (tests). Default now. */
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
}

export interface StoreTrainingResult {
  readonly model: FallbackModel;
  /** Pages of learned sites used, per site. */
  readonly sites: Record<string, number>;
  readonly pages: number;
  /** Generated pages trained on besides (0 with includeGenerated: false). */
  readonly generatedPages: number;
  /** Leave-one-site-out figures, when asked for and possible (also in the model). */
  readonly holdout?: Holdout;
}

const ARTICLE_KEY = /^articles\/([^/]+)\/[^/]+\.json$/;
/** Sites read at once. */
const CONCURRENCY = 16;

/** Labelled pages of learned sites: articles extracted by rules, with their snapshots. */
export async function storePages(store: Store, options: StoreTrainingOptions = {}): Promise<{ pages: LabelledPage[]; sites: Record<string, number> }> {
  const maxPerSite = options.maxPagesPerSite ?? 50;
  const maxPages = options.maxPages ?? 1000;
  const minWords = options.minWords ?? 50;

  const candidates = new Map<string, string[]>();
  for (const item of await store.list(keys.articlePrefix())) {
    const site = ARTICLE_KEY.exec(item.key)?.[1];
    if (!site) continue;
    const list = candidates.get(site) ?? [];
    list.push(item.key);
    candidates.set(site, list);
  }

  /** The site's next article usable as a label, or undefined when it has no more. */
  const next = async (site: string): Promise<LabelledPage | undefined> => {
    const list = candidates.get(site)!;
    for (let key = list.shift(); key !== undefined; key = list.shift()) {
      const obj = await store.get(key);
      if (!obj) continue;
      let article: ArticleDocument;
      try {
        article = ArticleDocumentSchema.parse(JSON.parse(obj.body.toString('utf8')));
      } catch {
        continue;
      }
      if (article.method !== 'rules' || article.notArticle || article.wordCount < minWords) continue;
      const snapshot = await store.get(keys.snapshot(article.site, article.pageId));
      if (!snapshot) continue;
      return { doc: parseHtml(snapshot.body), article: article.text, title: article.title, group: article.site };
    }
    return undefined;
  };

  // Round-robin over the sites: one page from each in turn.
  const pages: LabelledPage[] = [];
  const sites: Record<string, number> = {};
  let active = [...candidates.keys()].sort();
  while (active.length && pages.length < maxPages && maxPerSite > 0) {
    const stillActive: string[] = [];
    for (let i = 0; i < active.length && pages.length < maxPages; ) {
      const chunk = active.slice(i, i + Math.min(CONCURRENCY, maxPages - pages.length));
      i += chunk.length;
      const found = await Promise.all(chunk.map(next));
      chunk.forEach((site, j) => {
        const page = found[j];
        if (!page) return;
        pages.push(page);
        sites[site] = (sites[site] ?? 0) + 1;
        if (sites[site] < maxPerSite) stillActive.push(site);
      });
    }
    active = stillActive;
  }
  return { pages, sites: Object.fromEntries(Object.entries(sites).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Train a fallback model from the store's learned sites (and the generated sites, by default). */
export async function trainFromStore(store: Store, options: StoreTrainingOptions = {}): Promise<StoreTrainingResult> {
  const log = options.log ?? (() => {});
  const { pages, sites } = await storePages(store, options);
  if (pages.length === 0) throw new Error('no labelled pages: the store has no articles extracted by learned rules');
  const siteNames = Object.keys(sites);
  log(`labelled pages: ${pages.length} of ${siteNames.length} learned sites`);
  const generated = options.includeGenerated === false ? [] : defaultTrainingPages();
  const description = `store: ${pages.length} pages of ${siteNames.length} learned sites${generated.length ? ' + the default generated sites' : ''}`;

  let holdout: Holdout | undefined;
  const holdoutSites = Math.min(options.holdoutSites ?? 0, siteNames.length);
  if (holdoutSites > 0 && siteNames.length >= 2) {
    const chosen = [...siteNames].sort((a, b) => sites[b] - sites[a] || a.localeCompare(b)).slice(0, holdoutSites);
    holdout = measureHoldout(pages, generated, chosen, log);
  } else if (holdoutSites > 0) {
    log('holdout: needs 2 learned sites or more; skipped');
  }

  const trained = trainModel([...pages, ...generated], { description, log });
  const model: FallbackModel = {
    ...trained,
    trainedAt: (options.now?.() ?? new Date()).toISOString(),
    sites,
    ...(holdout ? { holdout } : {}),
  };
  return { model, sites, pages: pages.length, generatedPages: generated.length, holdout };
}

const figures = (a: Aggregate) => ({ f1: r4(a.f1), precision: r4(a.precision), recall: r4(a.recall) });
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Each chosen site left out of training in turn; its pages extracted with that model and with the default. */
function measureHoldout(pages: readonly LabelledPage[], generated: readonly LabelledPage[], chosen: readonly string[], log: (m: string) => void): Holdout {
  const retrained = [];
  const baseline = [];
  const defaultModel = defaultFallbackModel();
  for (const site of chosen) {
    const heldOut = pages.filter((p) => p.group === site);
    const model = trainModel([...pages.filter((p) => p.group !== site), ...generated], { description: `holdout: without ${site}` });
    for (const p of heldOut) {
      retrained.push(scorePage(extractCombined(p.doc, { model }).text, p.article));
      baseline.push(scorePage(extractCombined(p.doc, { model: defaultModel }).text, p.article));
    }
    log(`holdout: ${site} (${heldOut.length} pages) scored by a model trained without it`);
  }
  return { sites: [...chosen], pages: retrained.length, retrained: figures(aggregate(retrained)), default: figures(aggregate(baseline)) };
}
