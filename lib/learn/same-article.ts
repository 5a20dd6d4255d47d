/**
 * One article submitted under two URLs (as an AMP or print variant, over http and https, with and
 * without a trailing slash; tracking parameters make no other URL: lib/store/keys.ts normalizeUrl)
 * is two pages of its site: learned from as two,
 * its whole text is on two training pages, and the learner's central evidence, "text that repeats
 * across a site's pages is the template's" (repeated-texts.ts, tfidf.ts), takes the article for the
 * template's. Learn reads such pages as one page.
 *
 * The reason in one sentence: two pages hold the same article when their metadata names them alike
 * (the same title, or the same canonical URL, or the one's canonical URL is the other's URL) and the
 * article texts the single-page extractor finds on each, read on its own, agree as the benchmark's
 * metric sees two texts (F1 of one against the other, lib/metric/metric.ts) to SAME_ARTICLE_MIN_F1.
 *
 * The metadata only nominates: two articles of a site whose canonical URLs all name its home page,
 * or whose titles are all the site's name, are told apart by their texts. The text alone is not
 * enough: a photo post whose caption the extractor misses gives it the sidebar's paragraph about the
 * site, the same on every such post (tweetrightbrain.posterous.com in dragnet-sites: four posts of
 * different titles, their extracted texts equal). Only pages the metadata nominates are extracted,
 * so a site whose pages are all different articles (every page of the benchmark sets) costs nothing.
 */
import { pageF1, scorePage } from '../metric/metric';
import { normalizeText } from '../text/match';
import type { FeatureDocument } from '../types/feature-document';

/** The metric's F1 of one page's extracted text against the other's at which they are the same article. */
export const SAME_ARTICLE_MIN_F1 = 0.9;

/** The article text the single-page extractor finds on a page read on its own; undefined when it cannot be read (no snapshot). */
export type ArticleTextOf = (doc: FeatureDocument) => Promise<string | undefined>;

/**
 * The pages read so far, one per article: `copyOf` answers, for each page in turn (newest first),
 * the page kept before it that holds the same article, or keeps it.
 */
export class SameArticles {
  /** The kept pages by each name their metadata gives them. */
  private readonly byName = new Map<string, FeatureDocument[]>();
  private readonly texts = new Map<string, Promise<string | undefined>>();

  constructor(private readonly articleText: ArticleTextOf) {}

  /** The kept page holding the same article as `doc`, or undefined: then `doc` is kept. */
  async copyOf(doc: FeatureDocument): Promise<FeatureDocument | undefined> {
    const names = namesOf(doc);
    const nominated = new Set(names.flatMap((n) => this.byName.get(n) ?? []));
    for (const kept of nominated) {
      if (sameText(await this.textOf(kept), await this.textOf(doc))) return kept;
    }
    for (const n of names) {
      const list = this.byName.get(n);
      if (list) list.push(doc);
      else this.byName.set(n, [doc]);
    }
    return undefined;
  }

  private textOf(doc: FeatureDocument): Promise<string | undefined> {
    let text = this.texts.get(doc.pageId);
    if (!text) this.texts.set(doc.pageId, (text = this.articleText(doc)));
    return text;
  }
}

/** The names a page's metadata gives it: its title, its URL and its canonical URL. */
function namesOf(doc: FeatureDocument): string[] {
  const names: string[] = [];
  const title = normalizeText(doc.page.title);
  if (title) names.push(`title ${title}`);
  for (const url of [doc.url, doc.page.canonical]) {
    const href = url ? absolute(url, doc.url) : undefined;
    if (href) names.push(`url ${href}`);
  }
  return [...new Set(names)];
}

function absolute(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).href;
  } catch {
    return undefined;
  }
}

/** Both texts have words and agree to SAME_ARTICLE_MIN_F1. */
function sameText(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const score = scorePage(a, b);
  return score.tp + score.fp + score.fn > 0 && pageF1(score) >= SAME_ARTICLE_MIN_F1;
}
