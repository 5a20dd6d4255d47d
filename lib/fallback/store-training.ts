/**
 * Self-training: the sites this system has learned are labelled data for free. Every article a
 * site's learned rules extracted (method 'rules') labels its page's snapshot: the rules-selected
 * text is article, the rest is not. `trainFromStore` turns those pages (plus, by default, the
 * generated sites the default model is trained on, so a store with few sites still gives a
 * balanced model) into a new fallback model.
 */
import { parseHtml } from '../apply/parse';
import { keys } from '../store/keys';
import type { Store } from '../store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../types/article-document';
import { defaultTrainingPages } from './generated';
import type { LabelledPage } from './labels';
import type { FallbackModel } from './model';
import { trainModel } from './train';

export interface StoreTrainingOptions {
  /** Also train on the default model's generated sites. Default true. */
  readonly includeGenerated?: boolean;
  /** Pages per site at most (the newest by key order are not preferred; keys are hashes). Default 50. */
  readonly maxPagesPerSite?: number;
  /** Articles with fewer words are not trusted as labels. Default 50. */
  readonly minWords?: number;
  readonly log?: (message: string) => void;
}

export interface StoreTrainingResult {
  readonly model: FallbackModel;
  /** Pages of learned sites used, per site. */
  readonly sites: Record<string, number>;
  readonly pages: number;
}

/** Labelled pages of learned sites: articles extracted by rules, with their snapshots. */
export async function storePages(store: Store, options: StoreTrainingOptions = {}): Promise<{ pages: LabelledPage[]; sites: Record<string, number> }> {
  const maxPerSite = options.maxPagesPerSite ?? 50;
  const minWords = options.minWords ?? 50;
  const pages: LabelledPage[] = [];
  const sites: Record<string, number> = {};
  for (const item of await store.list(keys.articlePrefix())) {
    if (!item.key.endsWith('.json')) continue;
    const obj = await store.get(item.key);
    if (!obj) continue;
    let article: ArticleDocument;
    try {
      article = ArticleDocumentSchema.parse(JSON.parse(obj.body.toString('utf8')));
    } catch {
      continue;
    }
    if (article.method !== 'rules' || article.notArticle || article.wordCount < minWords) continue;
    if ((sites[article.site] ?? 0) >= maxPerSite) continue;
    const snapshot = await store.get(keys.snapshot(article.site, article.pageId));
    if (!snapshot) continue;
    pages.push({ doc: parseHtml(snapshot.body.toString('utf8')), article: article.text, title: article.title, group: article.site });
    sites[article.site] = (sites[article.site] ?? 0) + 1;
  }
  return { pages, sites };
}

/** Train a fallback model from the store's learned sites (and the generated sites, by default). */
export async function trainFromStore(store: Store, options: StoreTrainingOptions = {}): Promise<StoreTrainingResult> {
  const { pages, sites } = await storePages(store, options);
  if (pages.length === 0) throw new Error('no labelled pages: the store has no articles extracted by learned rules');
  const all = options.includeGenerated === false ? pages : [...pages, ...defaultTrainingPages()];
  const model = trainModel(all, {
    description: `store: ${pages.length} pages of ${Object.keys(sites).length} learned sites${options.includeGenerated === false ? '' : ' + the default generated sites'}`,
    log: options.log,
  });
  return { model, sites, pages: pages.length };
}
