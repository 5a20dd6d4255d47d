/**
 * Dragnet (Peters & Lecocq, WWW 2013): block features from three sources, combined by a
 * classifier that labels each block content or not.
 *
 * - Shallow text (Kohlschütter, Fankhauser & Nejdl, WSDM 2010): text density (words per line when
 *   the block is wrapped at 80 columns, the last line left out) and link density (words in links
 *   over words), of the block and of its neighbours, and the block's word count.
 * - id/class tokens: every token of the block's element's and its ancestors' id and class names
 *   has a weight, its log odds of content vs boilerplate; the feature is their sum (each token
 *   once), once for the element's own names and once for the whole chain.
 * - CETR (Weninger, Hsu & Han, WWW 2010): content-tag ratio (characters over tags opened since the
 *   previous block), Gaussian-smoothed over neighbouring blocks, and the smoothed difference
 *   (|mean of the next α = 3 smoothed ratios − this one|), both log-scaled.
 *
 * The classifier is a logistic regression whose weights, like the token weights, come from the
 * model (models/fallback-default.json, trained by scripts/train-fallback.ts).
 */
import type { Document } from 'domhandler';
import { segmentBlocks, type Block, type Segmentation } from './blocks';
import { logit, sigmoid, type LogisticModel } from './logistic';

export const DRAGNET_FEATURES = [
  'textDensity',
  'textDensityPrev',
  'textDensityNext',
  'linkDensity',
  'linkDensityPrev',
  'linkDensityNext',
  'logWords',
  'logWordsPrev',
  'logWordsNext',
  'idClassOwn',
  'idClassChain',
  'cetrRatio',
  'cetrDiff',
] as const;

/** Direction of each feature as the papers describe it (+1 content, -1 boilerplate, 0 either): training constraints. */
export const DRAGNET_SIGNS: readonly number[] = [1, 1, 1, -1, -1, -1, 1, 1, 1, 1, 1, 1, 0];

export interface DragnetModel {
  /** Token → log odds of content (tokens of id and class names, see `nameTokens`). */
  readonly tokens: Readonly<Record<string, number>>;
  readonly classifier: LogisticModel;
  /** Probability at or above which a block is content. Default 0.5. */
  readonly threshold?: number;
}

const WRAP = 80;

/** Kohlschütter's text density: words per wrapped line (80 columns), the last, partial line left out. */
export function textDensity(text: string): number {
  const parts = text.split(' ');
  let lines = 1;
  let col = 0;
  let wordsInLine = 0;
  let wordsInFull = 0;
  let total = 0;
  for (const w of parts) {
    if (!w) continue;
    const len = w.length;
    if (col > 0 && col + 1 + len > WRAP) {
      lines++;
      wordsInFull += wordsInLine;
      wordsInLine = 0;
      col = 0;
    }
    col += (col > 0 ? 1 : 0) + len;
    wordsInLine++;
    total++;
  }
  return lines === 1 ? total : wordsInFull / (lines - 1);
}

export function linkDensity(b: Pick<Block, 'words' | 'linkWords'>): number {
  return b.words === 0 ? 0 : b.linkWords / b.words;
}

/** Gaussian smoothing (σ in blocks, radius 3σ) of a sequence. */
export function gaussianSmooth(values: readonly number[], sigma = 1): number[] {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel: number[] = [];
  for (let k = -radius; k <= radius; k++) kernel.push(Math.exp(-(k * k) / (2 * sigma * sigma)));
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    let s = 0;
    let w = 0;
    for (let k = -radius; k <= radius; k++) {
      const j = i + k;
      if (j < 0 || j >= values.length) continue;
      const kw = kernel[k + radius];
      s += kw * values[j];
      w += kw;
    }
    out[i] = w ? s / w : 0;
  }
  return out;
}

/** CETR's tag ratio per block (characters / tags), smoothed, and its smoothed difference over α blocks. */
export function cetrFeatures(blocks: readonly Pick<Block, 'chars' | 'tags'>[], alpha = 3): { ratio: number[]; diff: number[] } {
  const raw = blocks.map((b) => b.chars / Math.max(1, b.tags));
  const ratio = gaussianSmooth(raw, 1);
  const diff = ratio.map((r, i) => {
    let s = 0;
    let n = 0;
    for (let k = i; k < Math.min(ratio.length, i + alpha); k++) {
      s += ratio[k];
      n++;
    }
    return Math.abs(s / n - r);
  });
  return { ratio, diff };
}

/** The Dragnet feature vectors of a page's blocks, in `DRAGNET_FEATURES` order. */
export function dragnetFeatures(blocks: readonly Block[]): number[][] {
  const td = blocks.map((b) => Math.log1p(textDensity(b.text)));
  const ld = blocks.map(linkDensity);
  const lw = blocks.map((b) => Math.log1p(b.words));
  const { ratio, diff } = cetrFeatures(blocks);
  const n = blocks.length;
  const at = (xs: number[], i: number, d: number) => (i >= 0 && i < n ? xs[i] : d);
  return blocks.map((b, i) => [
    td[i],
    at(td, i - 1, 0),
    at(td, i + 1, 0),
    ld[i],
    at(ld, i - 1, 1),
    at(ld, i + 1, 1),
    lw[i],
    at(lw, i - 1, 0),
    at(lw, i + 1, 0),
    clip(b.ownWeight, 6),
    clip(b.ancestorWeight, 10),
    Math.log1p(ratio[i]),
    Math.log1p(diff[i]),
  ]);
}

const clip = (x: number, m: number) => (x > m ? m : x < -m ? -m : x);

/** A token weight function over the model's table (0 for unknown tokens). */
export function tokenWeigher(tokens: Readonly<Record<string, number>>): (t: string) => number {
  return (t) => (Object.prototype.hasOwnProperty.call(tokens, t) ? tokens[t] : 0);
}

export interface ScoredBlocks extends Segmentation {
  /** Probability of content per block. */
  readonly probability: number[];
  /** Log odds per block (the classifier's raw output). */
  readonly logOdds: number[];
}

/** Segment a page and score every block with the Dragnet classifier. */
export function scoreBlocks(doc: Document, model: DragnetModel): ScoredBlocks {
  const seg = segmentBlocks(doc, { tokenWeight: tokenWeigher(model.tokens) });
  const x = dragnetFeatures(seg.blocks);
  const logOdds = x.map((row) => logit(model.classifier, row));
  return { ...seg, logOdds, probability: logOdds.map(sigmoid) };
}

export interface DragnetResult {
  readonly text: string;
  /** The blocks labelled content, in document order. */
  readonly blocks: Block[];
}

/** Dragnet alone: the text of every block the classifier labels content. */
export function extractDragnet(doc: Document, model: DragnetModel): DragnetResult {
  const scored = scoreBlocks(doc, model);
  const threshold = model.threshold ?? 0.5;
  const kept = scored.blocks.filter((_, i) => scored.probability[i] >= threshold);
  return { text: kept.map((b) => b.text).join('\n'), blocks: kept };
}
