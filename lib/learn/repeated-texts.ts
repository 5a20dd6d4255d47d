/**
 * Text the site shows on several pages: the one source of "seen on other pages" for the learner
 * (issue 12). A block whose text is on two of the training pages or more is the template's or an
 * ad's (a share bar, "Advertisement", a standard notice, a list of the newest stories), never one
 * article's: the TF-IDF scoring leaves it out, selection does not take it, the header does not
 * count it, and clean and generalize judge the blocks their selectors would add by it. The pages
 * are those learned together (a template's, when a site has several), except for TF-IDF, which
 * counts over all the site's pages (tfidf.ts blockSimilarities).
 *
 * Texts are compared in their normalised form (lib/text/match.ts normalizeText: case, Unicode
 * forms, typographic quotes and dashes, white space).
 */
import { normalizeText } from '../text/match';
import type { FeatureDocument } from '../types/feature-document';

export class PageTexts {
  private readonly pagesOf = new Map<string, Set<number>>();

  /** The texts of the documents' blocks (those `include` accepts; all by default). */
  constructor(docs: readonly FeatureDocument[], include?: (doc: number, block: number) => boolean) {
    docs.forEach((d, i) =>
      d.blocks.forEach((b, k) => {
        if (!b.text || (include && !include(i, k))) return;
        const key = normalizeText(b.text);
        if (!key) return;
        let pages = this.pagesOf.get(key);
        if (!pages) this.pagesOf.set(key, (pages = new Set()));
        pages.add(i);
      }),
    );
  }

  /** On how many of the pages the text is (0 for a text no included block has). */
  pages(text: string): number {
    return this.pagesOf.get(normalizeText(text))?.size ?? 0;
  }

  /** On two pages or more: the site's, not one page's. */
  repeated(text: string): boolean {
    return this.pages(text) >= 2;
  }

  /**
   * The repeated texts, normalised: those on the most pages first (then in code-unit order, so the
   * list is the same for the same pages), at most `max`, none longer than `maxLength`.
   */
  repeatedTexts(max: number, maxLength: number): string[] {
    return [...this.pagesOf]
      .filter(([text, pages]) => pages.size >= 2 && text.length <= maxLength)
      .sort(([a, pa], [b, pb]) => pb.size - pa.size || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, max)
      .map(([text]) => text);
  }
}
