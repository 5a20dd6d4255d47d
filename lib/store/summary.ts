/**
 * What the store holds, counted from its key listing (lib/store/keys.ts): learned sites with their
 * rules version and time, sites with pages but no rules yet, articles and pages. The same on S3 and
 * on the data folder.
 */
import { RulesDocumentSchema } from '../types/rules-document';
import { getJson, type Store } from './store';

export interface LearnedSite {
  readonly site: string;
  readonly rulesVersion: number;
  readonly learnedAt: string;
  readonly pages: number;
  readonly articles: number;
}

export interface StoreSummary {
  readonly learned: LearnedSite[];
  /** Sites with stored pages and no rules yet, with their page count. */
  readonly waitingToLearn: { readonly site: string; readonly pages: number }[];
  /** Pages stored: rendered, or fetched on the fetch path (docs/fetch-path.md). */
  readonly pages: number;
  readonly articles: number;
}

/** Counts of each site's keys under a prefix (`<prefix><site>/…`). */
function perSite(listed: readonly { key: string }[], prefix: string, suffix: RegExp): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { key } of listed) {
    if (!suffix.test(key)) continue;
    const site = key.slice(prefix.length).split('/')[0];
    counts.set(site, (counts.get(site) ?? 0) + 1);
  }
  return counts;
}

export async function summarizeStore(store: Store): Promise<StoreSummary> {
  const [rulesKeys, pageKeys, articleKeys] = await Promise.all([store.list('rules/'), store.list('pages/'), store.list('articles/')]);
  // A page is stored once rendered (feature document) or fetched without a browser (HTML as served).
  const pageDirs = new Set(pageKeys.filter(({ key }) => /\/(features\.json|served\.html)$/.test(key)).map(({ key }) => key.slice(0, key.lastIndexOf('/') + 1)));
  const pages = perSite([...pageDirs].map((key) => ({ key })), 'pages/', /\/$/);
  const articles = perSite(articleKeys, 'articles/', /\.json$/);
  const learned: LearnedSite[] = [];
  for (const { key } of rulesKeys) {
    const rules = await getJson(store, key, (v) => RulesDocumentSchema.parse(v)).catch(() => undefined);
    if (!rules) continue;
    learned.push({ site: rules.site, rulesVersion: rules.rulesVersion, learnedAt: rules.learnedAt, pages: pages.get(rules.site) ?? 0, articles: articles.get(rules.site) ?? 0 });
  }
  const learnedSites = new Set(learned.map((l) => l.site));
  const waitingToLearn = [...pages].filter(([site]) => !learnedSites.has(site)).map(([site, n]) => ({ site, pages: n }));
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return { learned, waitingToLearn, pages: sum(pages), articles: sum(articles) };
}
