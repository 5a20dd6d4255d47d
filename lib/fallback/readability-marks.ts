/**
 * Mozilla Readability's own choice, as the render step marked it in the snapshot
 * (lib/render/readability-in-page.ts): the blocks whose text it mostly kept. The combination
 * (combined.ts) takes the same shares as one vote among its methods; alone it is a method to compare
 * with (bench), and the learner's page-level label.
 */
import type { Document, Text } from 'domhandler';
import type { ArticleContent } from '../html/content';
import { segmentBlocks } from './blocks';
import { readabilityShares, renderBlocks } from './combined';

/** A block counts as Readability's when at least this share of its text was kept. */
export const KEPT_SHARE = 0.5;

export function extractReadabilityMarks(doc: Document, options: { baseUrl?: string } = {}): ArticleContent & { readonly marked: boolean } {
  const textBlock = new Map<Text, number>();
  const seg = segmentBlocks(doc, { textBlock });
  const shares = readabilityShares(seg.blocks, textBlock);
  const chosen = seg.blocks.filter((_, i) => shares[i] >= KEPT_SHARE);
  return { ...renderBlocks(chosen, seg.blocks, options.baseUrl), marked: shares.some((s) => s > 0) };
}
