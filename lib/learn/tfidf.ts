/**
 * TF-IDF similarity of text blocks to their page's own description of itself (Zhou & Sun §5).
 *
 * The "documents" for IDF are the site's pages: a term's document frequency is the number of pages
 * whose text (its blocks that are not mostly links nor found word for word on other pages, plus its
 * reference text) contains it, and
 * idf = log(N / df). Boilerplate repeated on every page ("Share this article", the site name in
 * every title) gets idf 0 and so adds nothing to any similarity. With a single page there is
 * nothing to contrast, so idf is 1.
 */
import { descriptionValues, titleValues } from '../fields/sources';
import type { Block, FeatureDocument, PageMetadata } from '../types/feature-document';
import { terms } from '../text/terms';
import { PageTexts } from './repeated-texts';

export type TermVector = Map<string, number>;

/** How often each term occurs (tf). */
export function termCounts(list: Iterable<string>): TermVector {
  const counts: TermVector = new Map();
  for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

export interface IdfTable {
  /** Number of documents (pages). */
  readonly documents: number;
  /** Documents each term occurs in. */
  readonly df: ReadonlyMap<string, number>;
  /** log(N / df); 0 for a term in every document or in none; 1 for every term when N < 2. */
  idf(term: string): number;
}

/** Document frequencies over documents given as their terms (repeats within a document count once). */
export function idfTable(documents: Iterable<Iterable<string>>): IdfTable {
  const df = new Map<string, number>();
  let n = 0;
  for (const doc of documents) {
    n++;
    for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const cache = new Map<string, number>();
  return {
    documents: n,
    df,
    idf(term: string): number {
      let v = cache.get(term);
      if (v === undefined) {
        const d = df.get(term) ?? 0;
        v = d === 0 ? 0 : n < 2 ? 1 : Math.log(n / d);
        cache.set(term, v);
      }
      return v;
    },
  };
}

/** tf × idf, without the terms whose idf is 0. */
export function tfidf(counts: ReadonlyMap<string, number>, table: IdfTable): TermVector {
  const v: TermVector = new Map();
  for (const [t, tf] of counts) {
    const w = tf * table.idf(t);
    if (w > 0) v.set(t, w);
  }
  return v;
}

export function norm(v: ReadonlyMap<string, number>): number {
  let s = 0;
  for (const x of v.values()) s += x * x;
  return Math.sqrt(s);
}

/** Cosine similarity, 0 when either vector is empty. */
export function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, x] of small) {
    const y = large.get(t);
    if (y !== undefined) dot += x * y;
  }
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}

/**
 * What the page says about itself: title, meta/og/twitter titles and descriptions, JSON-LD headline
 * and description. Each distinct string once (case and whitespace ignored), so a title repeated in
 * five places does not count five times.
 */
export function referenceTexts(page: PageMetadata): string[] {
  const candidates = [...titleValues(page), ...descriptionValues(page)];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of candidates) {
    if (!c) continue;
    const key = c.replace(/\s+/g, ' ').trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

export interface BlockSimilarities {
  /** Per document, per block: cosine similarity of the block's TF-IDF vector to the page's reference. */
  readonly similarity: number[][];
  /**
   * Per document, per block: the block's TF-IDF vector (empty when its terms are all on every page,
   * or only in link lists).
   */
  readonly vectors: TermVector[][];
  readonly idf: IdfTable;
}

/**
 * Similarity of every block of every page to its page's reference text. IDF and the texts found on
 * other pages are over `site`, which must hold `docs`' pages (all of them by default; the same
 * texts, whatever their names): how common a term is, is a site's property, and a template's two
 * pages alone would zero the title's terms of each that the other's teaser names. A page of `docs`
 * missing from `site` would count its own terms nowhere: those no other page has would weigh 0,
 * the rest too much.
 */
export function blockSimilarities(docs: readonly FeatureDocument[], site: readonly FeatureDocument[] = docs): BlockSimilarities {
  const blockTerms = docs.map((d) => d.blocks.map((b) => terms(b.text)));
  const refTerms = docs.map((d) => terms(referenceTexts(d.page).join('\n')));
  // Link lists, and blocks found word for word on other pages, are left out of the pages' text: a
  // "latest stories" box lists the titles of the newest articles, the very pages a learn reads, on
  // every page (as links, or as headings a script makes clickable), and would zero their titles' idf.
  const texts = new PageTexts(site);
  const siteTerms = site === docs ? blockTerms : site.map((d) => d.blocks.map((b) => terms(b.text)));
  const siteRefTerms = site === docs ? refTerms : site.map((d) => terms(referenceTexts(d.page).join('\n')));
  const table = idfTable(
    site.map((d, i) => pageTerms(siteTerms[i].filter((_, k) => !isLinkList(d.blocks[k]) && !texts.repeated(d.blocks[k].text)), siteRefTerms[i])),
  );
  const vectors = blockTerms.map((page) => page.map((bt) => tfidf(termCounts(bt), table)));
  // a block found word for word on other pages is the site's, not this page's: it scores 0
  const similarity = docs.map((d, i) => {
    const ref = tfidf(termCounts(refTerms[i]), table);
    return vectors[i].map((v, k) => (ref.size === 0 || v.size === 0 || texts.repeated(d.blocks[k].text) ? 0 : cosine(v, ref)));
  });
  return { similarity, vectors, idf: table };
}

/** The sum of vectors (the TF-IDF vector of the blocks' text taken together). */
export function sumVectors(vectors: Iterable<ReadonlyMap<string, number>>): TermVector {
  const out: TermVector = new Map();
  for (const v of vectors) for (const [t, w] of v) out.set(t, (out.get(t) ?? 0) + w);
  return out;
}

/** Half or more of the block's words are in links. */
export function isLinkList(block: Block): boolean {
  return block.words > 0 && 2 * block.linkWords >= block.words;
}

function* pageTerms(blocks: string[][], reference: string[]): Iterable<string> {
  for (const b of blocks) yield* b;
  yield* reference;
}
