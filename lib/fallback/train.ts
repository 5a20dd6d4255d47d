/**
 * Training the fallback's model from labelled pages (labels.ts): generated sites (generated.ts,
 * the shipped default) or the pages of sites the system has learned (`trainFromStore`).
 *
 * - id/class token weights: log odds from block counts, shrunk to the prior (id-class.ts).
 * - Dragnet's logistic regression: on every labelled block. The id/class features of a group's
 *   blocks (a template, a site) are computed with token weights learned WITHOUT that group, so the
 *   classifier learns how far such weights carry to a design it has not seen, not how well they
 *   fit the one it trained on.
 * - MSS's Naive Bayes: token trigrams and most recent unclosed tags, "in" inside the article's span.
 */
import { plural } from '../text/plural';
import { segmentBlocks, type Block } from './blocks';
import { DRAGNET_FEATURES, DRAGNET_SIGNS, dragnetFeatures } from './dragnet';
import { countTokens, emptyTokenCounts, mergeTokenCounts, tokenWeights, type TokenCounts } from './id-class';
import { labelBlocks, labelTokens, type Label, type LabelledPage } from './labels';
import { trainLogistic, type LogisticModel } from './logistic';
import { FALLBACK_MODEL_VERSION, type FallbackModel } from './model';
import { mssTokens, tokenFeatures } from './mss';
import { addExample, emptyNaiveBayes, mergeNaiveBayes, pruneNaiveBayes, type NaiveBayesModel } from './naive-bayes';

export interface TrainingOptions {
  /** Free-text description stored in the model. */
  readonly description: string;
  /** L2 penalty of the logistic regression (on standardised features). Default 3000. */
  readonly l2?: number;
  /** Hold weights to the features' known directions (DRAGNET_SIGNS). Default true. */
  readonly signs?: boolean;
  /** Naive Bayes pruning (model size): minimum count, minimum |log ratio|, maximum features per kind. */
  readonly prune?: { minCount?: number; minLogRatio?: number; maxFeatures?: number };
  /** Progress messages. */
  readonly log?: (message: string) => void;
}

interface PreparedPage {
  readonly page: LabelledPage;
  readonly blocks: Block[];
  readonly labels: Label[];
}

/** Sample weight of a block: longer blocks carry more of the article's words. */
const blockWeight = (b: Block) => Math.sqrt(Math.min(b.words, 200));

function withWeights(blocks: readonly Block[], weights: Readonly<Record<string, number>>): Block[] {
  const w = (t: string) => (Object.prototype.hasOwnProperty.call(weights, t) ? weights[t] : 0);
  return blocks.map((b) => {
    let own = 0;
    for (const t of b.ownTokens) own += w(t);
    let chain = 0;
    for (const t of b.tokens ?? []) chain += w(t);
    return { ...b, ownWeight: own, ancestorWeight: chain };
  });
}

function naiveBayesOf(pages: readonly PreparedPage[]): NaiveBayesModel {
  const nb = emptyNaiveBayes(['tri', 'tag']);
  for (const p of pages) {
    const tokens = mssTokens(p.page.doc);
    const labels = labelTokens(tokens, p.page);
    for (let i = 0; i < tokens.length; i++) addExample(nb, tokenFeatures(tokens, i), labels[i] === 1);
  }
  return nb;
}

/** Train a complete model from labelled pages. */
export function trainModel(pages: readonly LabelledPage[], options: TrainingOptions): FallbackModel {
  const log = options.log ?? (() => {});
  const prepared: PreparedPage[] = pages.map((page) => {
    const { blocks } = segmentBlocks(page.doc, { tokens: true });
    return { page, blocks, labels: labelBlocks(blocks, page) };
  });
  const groups = [...new Set(pages.map((p) => p.group))].sort();
  log(`${plural(pages.length, 'page')} in ${plural(groups.length, 'group')} (${groups.join(', ')})`);

  // Token counts and Naive Bayes counts per group.
  const counts = new Map<string, TokenCounts>();
  const nbs = new Map<string, NaiveBayesModel>();
  for (const g of groups) {
    const c = emptyTokenCounts();
    const members = prepared.filter((p) => p.page.group === g);
    for (const p of members) p.blocks.forEach((b, i) => p.labels[i] >= 0 && countTokens(c, b.tokens ?? [], p.labels[i] === 1));
    counts.set(g, c);
    nbs.set(g, naiveBayesOf(members));
  }
  const allCounts = mergeTokenCounts([...counts.values()]);
  const tokens = tokenWeights(allCounts);
  const naiveBayesAll = pruneNaiveBayes(
    [...nbs.values()].reduce((acc, m) => mergeNaiveBayes(acc, m), emptyNaiveBayes(['tri', 'tag'])),
    { minCount: 5, minLogRatio: 0.3, maxFeatures: 6000, ...options.prune },
  );
  log(`id/class tokens: ${Object.keys(tokens).length}; Naive Bayes trigrams kept: ${Object.keys(naiveBayesAll.kinds.tri?.counts ?? {}).length}`);

  // Held-out id/class features per group.
  const dragnetX: number[][] = [];
  const y: number[] = [];
  const sw: number[] = [];
  let blockCount = 0;
  for (const g of groups) {
    const others = groups.filter((o) => o !== g);
    const heldOutTokens = tokenWeights(mergeTokenCounts(others.map((o) => counts.get(o)!)));
    for (const p of prepared.filter((q) => q.page.group === g)) {
      const blocks = withWeights(p.blocks, heldOutTokens);
      const dx = dragnetFeatures(blocks);
      blocks.forEach((b, i) => {
        if (p.labels[i] < 0) return;
        dragnetX.push(dx[i]);
        y.push(p.labels[i]);
        sw.push(blockWeight(b));
        blockCount++;
      });
    }
  }
  const l2 = options.l2 ?? 3000;
  const signs = options.signs !== false;
  const dragnet = round(trainLogistic(DRAGNET_FEATURES, dragnetX, y, sw, { l2, signs: signs ? DRAGNET_SIGNS : undefined }));
  log(`blocks: ${blockCount} (${y.filter((v) => v === 1).length} article)`);
  return {
    version: FALLBACK_MODEL_VERSION,
    trainedOn: options.description,
    pages: pages.length,
    blocks: blockCount,
    dragnet: { tokens, classifier: dragnet, threshold: 0.5 },
    naiveBayes: naiveBayesAll,
  };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
function round(m: LogisticModel): FallbackModel['dragnet']['classifier'] {
  return { features: [...m.features], mean: m.mean.map(r4), std: m.std.map(r4), weights: m.weights.map(r4), bias: r4(m.bias) };
}
