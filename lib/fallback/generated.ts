/**
 * Labelled pages from the project's own generated news sites (lib/demo): the generator's truth
 * says which text is the article, so every page is a training example for free. The article is the
 * dek (standfirst) where the template shows one, then the body: what apply's text holds
 * (docs/rules-document.md#dek).
 */
import { parseHtml } from '../html/parse';
import { generateSite, pageHtml, pagesOf, type SiteOptions } from '../demo';
import type { LabelledPage } from './labels';

const ORIGIN = 'http://news.example';

export interface GeneratedPagesOptions {
  /** Seeds of the sites (one site each). */
  readonly seeds: readonly string[];
  /** Article pages per template and site. Default 6. */
  readonly pagesPerTemplate?: number;
  /** Templates per site (1-4). Default 4. */
  readonly templates?: number;
  /** Include each site's home page (all blocks negative, no article). Default true. */
  readonly homePages?: boolean;
}

/** Article pages (and home pages) of generated sites, labelled by the generator's truth. */
export function generatedPages(options: GeneratedPagesOptions): LabelledPage[] {
  const out: LabelledPage[] = [];
  for (const seed of options.seeds) {
    const siteOptions: SiteOptions = { seed, pagesPerTemplate: options.pagesPerTemplate ?? 6, templates: options.templates ?? 4 };
    const site = generateSite(siteOptions);
    for (const p of pagesOf(site)) {
      if (p.kind === 'article') {
        out.push({ doc: parseHtml(pageHtml(site, p.path, ORIGIN)), article: p.dek ? `${p.dek}\n${p.bodyText}` : p.bodyText, title: p.title, group: p.template ?? 'article' });
      } else if (p.kind === 'home' && options.homePages !== false) {
        out.push({ doc: parseHtml(pageHtml(site, p.path, ORIGIN)), article: '', group: 'home' });
      }
    }
  }
  return out;
}

/** The shipped default model's training set (scripts/train-fallback.ts): 12 sites × 4 templates × 6 articles + home pages. */
export const DEFAULT_TRAINING = { sites: 12, pagesPerTemplate: 6, templates: 4 } as const;
export const DEFAULT_SEEDS: readonly string[] = Array.from({ length: DEFAULT_TRAINING.sites }, (_, i) => `fallback-train-${i}`);

export function defaultTrainingPages(): LabelledPage[] {
  return generatedPages({ seeds: DEFAULT_SEEDS, pagesPerTemplate: DEFAULT_TRAINING.pagesPerTemplate, templates: DEFAULT_TRAINING.templates });
}

export const DEFAULT_DESCRIPTION = `generated sites (lib/demo): ${DEFAULT_TRAINING.sites} sites × ${DEFAULT_TRAINING.templates} templates × ${DEFAULT_TRAINING.pagesPerTemplate} article pages + their home pages, seeds fallback-train-0..${DEFAULT_TRAINING.sites - 1}`;
