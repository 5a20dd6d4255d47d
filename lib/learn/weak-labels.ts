/**
 * Page-level evidence for learning (issue 13): on each training page, what a strong single-page
 * extractor keeps is a weak label of the page's article. Site-level evidence (clusters across pages,
 * similarity to the titles) finds the article's region; inside it, a kind of block the page-level
 * extractor leaves out on the pages where it found the same article (a related-stories inset, a
 * highlights box, a photo's caption, readers' comments) loses, whatever its name.
 *
 * The labels come from any extractor's text of the page: lib/fallback's combination on the training
 * page's snapshot today, an in-page Readability result in the feature document when there is one.
 */
import type { FeatureDocument } from '../types/feature-document';
import { normalizeText } from '../text/match';

/**
 * Share of words the labels must keep: of a page's article as the learner found it, for the page's
 * label to judge (it found the same article); of a kind of block's, for that kind to count as kept.
 */
export const LABEL_AGREEMENT = 0.5;

/** Per page, per block: the page-level extractor kept the block's text; undefined for a page without a label. */
export type WeakLabels = ReadonlyArray<readonly boolean[] | undefined>;

/**
 * The labels of a page's blocks from the text an extractor kept: a block is kept when its text is in
 * that text, anywhere. Looser than the fallback's training labels (lib/fallback/labels.ts: a line of
 * the text, or three words or more inside one): the rendered page's blocks are not cut as the
 * extractor's lines are. Those stricter labels here cost the tuning sets up to 0.003 a split
 * (latimes.com, google-latlong.blogspot.com, in `npm run bench -- … --train 5`).
 */
export function labelBlocks(doc: FeatureDocument, keptText: string): boolean[] {
  const kept = normalizeText(keptText.replace(/\s+/g, ' '));
  return doc.blocks.map((b) => {
    const t = normalizeText(b.text.replace(/\s+/g, ' '));
    return t.length > 0 && kept.includes(t);
  });
}
