/**
 * Which clusters are the article (Zhou & Sun §5 and §8.1).
 *
 * A block's relevance is its TF-IDF similarity to its page's reference text times its words not in
 * links. A cluster's score is its share of each page's relevance, averaged over all pages, so a
 * cluster holding most of the relevant text on every page scores near 1 and boilerplate (idf 0)
 * scores 0.
 *
 * 1. The top cluster is chosen. If it leaves pages without content (another template of the site),
 *    the best cluster on those pages is chosen for them too.
 * 2. On each page the top blocks give the article's region: their bounding box (§8.1), and the
 *    deepest element holding nearly all their words, so that a lede above the first paragraph or a
 *    quote after the last one is inside too. A stray top block elsewhere widens neither.
 * 3. Every other cluster whose blocks lie mostly inside the region and that scores above 0 (as a
 *    cluster, or most of its blocks) is chosen: subheads, blockquotes, lists styled apart from the
 *    paragraphs. Beyond the paper, so is a cluster inside that scores 0 but whose words are the
 *    article's words (subheads rarely repeat the title, inline ads never repeat the article), and
 *    so are noise blocks inside that score or are of that kind (a quote on too few pages to make a
 *    cluster). Not a cluster whose text is mostly found word for word on other pages too (rotating
 *    ads, standard notices).
 */
import type { Block, BoundingBox, FeatureDocument, PathStep } from '../types/feature-document';
import { NOISE } from './dbscan';
import { namedLikeBoilerplate } from './names';
import { PageTexts } from './repeated-texts';
import { LABEL_AGREEMENT, type WeakLabels } from './weak-labels';
import { isLinkList, sumVectors, type TermVector } from './tfidf';

export interface BlockRef {
  readonly doc: number;
  readonly block: number;
}

export interface SelectOptions {
  /** Blocks with fewer words neither score nor are chosen. */
  readonly minWords: number;
  /** Pixels a block may stick out of the top cluster's bounding box and still be inside. */
  readonly bboxTolerance: number;
  /** Share of a cluster's blocks that must be inside the bounding box for it to be chosen. */
  readonly bboxMinShare: number;
  /** Smallest score of a top cluster, and of a cluster inside the box to count as non-zero. */
  readonly minClusterScore: number;
  /**
   * Share of a cluster's blocks inside the box that must score above 0 (share words with their
   * page's title or description) for the cluster to count as non-zero and be chosen.
   */
  readonly minScoringShare: number;
  /**
   * A block inside the box is prose of the article when it is not mostly links, its text is on no
   * other page word for word, and at least this share of its TF-IDF weight is on terms the page's
   * top-cluster text also has (default 0.5; needs the block vectors). Subheads, list items and captions use the article's words; inline ads,
   * newsletter boxes and share bars mostly do not (on the demo site's pages: subheads 0.5 to 1,
   * ads 0.1 to 0.35, boilerplate 0).
   */
  readonly minBodyCoverage?: number;
  /**
   * Also choose zero-score clusters inside the box whose blocks inside are prose (taken together);
   * false keeps the paper's rule (non-zero score only). Default true.
   */
  readonly acceptUnscoredProse?: boolean;
  /**
   * Also choose noise blocks (in no cluster: one-off elements, or too few of a kind for minPts)
   * inside the box that are prose, or score above 0 with text of their own page. Default true.
   */
  readonly acceptNoiseInBox?: boolean;
  /**
   * Share of a page's top-cluster words the container element must hold (default 0.9): blocks under
   * that element count as inside even where they stick out of the bounding box (a lede above the
   * first paragraph of the top cluster, a last paragraph below it).
   */
  readonly containerShare?: number;
  /**
   * A cluster becomes another top cluster, for the pages the ones above leave without content, when
   * its mean share of those pages' relevance (where it has blocks) is at least this fraction of the
   * first top cluster's share of its pages' (default 0.1). Pages of another template carry their own
   * boilerplate, which is not on every page of the site and so not idf 0: their article's share is
   * lower (0.13 against 0.64 on the demo site).
   */
  readonly secondaryTopShare?: number;
  /**
   * With weak labels (weak-labels.ts): share of words a page's label must keep of the top clusters'
   * for the page to judge, and of a cluster's words inside for the cluster to stay (default
   * LABEL_AGREEMENT, 0.5).
   */
  readonly minLabelAgreement?: number;
  /**
   * With weak labels: a cluster's score for the top choice is scaled by 1 − w + w × the share of its
   * words the page-level labels kept (default w = 0.5): the page-level extractor's word breaks a
   * near tie, as between a short story and the readers' comments that quote its title, and a wrong
   * label can at most halve a cluster's score.
   */
  readonly topLabelWeight?: number;
}

/** Per document, per block: the block's TF-IDF vector (tfidf.ts blockSimilarities). */
export type BlockVectors = readonly (readonly ReadonlyMap<string, number>[])[];

export interface ScoredCluster {
  readonly id: number;
  /** Its blocks (with at least minWords words), in document order. */
  readonly blocks: readonly BlockRef[];
  readonly pages: number;
  readonly score: number;
  chosen: boolean;
  reason?: string;
  /** The blocks taken as content: all of a top cluster, the ones inside the box for the others. */
  chosenBlocks: BlockRef[];
}

export interface Selection {
  /** Every cluster, highest score first (ties: lower id first). */
  readonly clusters: ScoredCluster[];
  /** The blocks DBSCAN left as noise, as a pseudo-cluster with id -1 (absent when there are none). */
  readonly noise?: ScoredCluster;
  /** Per document, per block: taken as content. */
  readonly chosen: boolean[][];
  /**
   * Per document, per block: noise inside the article's region that was not taken, the blocks the
   * learner is least sure about; the self-check does not tighten selectors to leave them out.
   */
  readonly uncertain: boolean[][];
}

const HEADING = /^h[1-6]$/;

/** similarity × words outside links (a heading's links count as words), 0 for blocks under minWords. */
export function blockRelevance(doc: FeatureDocument, similarity: readonly number[], minWords: number): number[] {
  return doc.blocks.map((b, i) => {
    if (b.words < minWords || b.words === 0) return 0;
    // A headline is often a link to the article's own permalink; that is no sign of boilerplate.
    const linkShare = HEADING.test(b.path.at(-1)?.tag ?? '') ? 0 : Math.min(1, b.linkWords / b.words);
    return similarity[i] * b.words * (1 - linkShare);
  });
}

export function selectClusters(
  docs: readonly FeatureDocument[],
  labels: readonly (readonly number[])[],
  similarity: readonly (readonly number[])[],
  options: SelectOptions,
  vectors?: BlockVectors,
  weak?: WeakLabels,
): Selection {
  const scoring = new Scoring(docs, similarity, options.minWords);
  const { clusters, noiseBlocks } = scoredClusters(docs, labels, scoring, options);
  const tops = chooseTopClusters(docs, clusters, scoring, options, weak);
  const evidence = new RegionEvidence(docs, scoring, options, vectors, weak);
  evidence.add(tops.flatMap((t) => t.chosenBlocks));
  evidence.trustLabels(tops.flatMap((t) => t.chosenBlocks));
  if (tops.length > 0) chooseClustersInside(clusters, evidence, scoring, options);
  evidence.add(clusters.flatMap((c) => (c.chosen ? c.chosenBlocks : [])));
  const noise = noiseBlocks.length > 0 ? noiseCluster(noiseBlocks, scoring, tops.length > 0 ? evidence : undefined, options) : undefined;

  const chosen = docs.map((d) => d.blocks.map(() => false));
  for (const c of [...clusters, ...(noise ? [noise] : [])]) {
    for (const ref of c.chosenBlocks) chosen[ref.doc][ref.block] = true;
  }
  const uncertain = docs.map((d) => d.blocks.map(() => false));
  for (const ref of noiseBlocks) if (!chosen[ref.doc][ref.block] && evidence.isInside(ref)) uncertain[ref.doc][ref.block] = true;
  return { clusters, ...(noise ? { noise } : {}), chosen, uncertain };
}

/** Each block's relevance (similarity × words outside links) and each page's total, and a cluster's score from them. */
class Scoring {
  readonly relevance: number[][];
  private readonly pageTotal: number[];
  constructor(private readonly docs: readonly FeatureDocument[], similarity: readonly (readonly number[])[], minWords: number) {
    this.relevance = docs.map((d, i) => blockRelevance(d, similarity[i], minWords));
    this.pageTotal = this.relevance.map((r) => r.reduce((a, b) => a + b, 0));
  }

  /** Mean over the given pages (all by default) of the blocks' share of each page's relevance. */
  scoreOn(blocks: readonly BlockRef[], pages?: ReadonlySet<number>): number {
    const n = pages ? pages.size : this.docs.length;
    if (n === 0) return 0;
    let sum = 0;
    for (const ref of blocks) {
      if (pages && !pages.has(ref.doc)) continue;
      const total = this.pageTotal[ref.doc];
      if (total > 0) sum += this.relevance[ref.doc][ref.block] / total;
    }
    return sum / n;
  }

  /** Mean share of the pages' relevance over the given pages (all by default) where the cluster has blocks. */
  docsBlock(ref: BlockRef): Block {
    return this.docs[ref.doc].blocks[ref.block];
  }

  shareWherePresent(c: ScoredCluster, pages?: ReadonlySet<number>): number {
    const present = new Set(c.blocks.map((b) => b.doc).filter((d) => !pages || pages.has(d)));
    return this.scoreOn(c.blocks, present);
  }
}

/** The clusters' blocks (with minWords words or more), scored, highest first; and the noise blocks. */
function scoredClusters(docs: readonly FeatureDocument[], labels: readonly (readonly number[])[], scoring: Scoring, options: SelectOptions) {
  const members = new Map<number, BlockRef[]>();
  const noiseBlocks: BlockRef[] = [];
  docs.forEach((doc, d) =>
    doc.blocks.forEach((b, i) => {
      const l = labels[d][i];
      if (b.words < options.minWords || b.words === 0) return;
      if (l === NOISE) {
        noiseBlocks.push({ doc: d, block: i });
        return;
      }
      let list = members.get(l);
      if (!list) members.set(l, (list = []));
      list.push({ doc: d, block: i });
    }),
  );
  const clusters: ScoredCluster[] = [...members.entries()]
    .map(([id, blocks]) => ({
      id,
      blocks,
      pages: new Set(blocks.map((b) => b.doc)).size,
      score: scoring.scoreOn(blocks),
      chosen: false,
      chosenBlocks: [] as BlockRef[],
    }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
  return { clusters, noiseBlocks };
}

/**
 * Step 1, the top clusters: the best overall, then the best on pages still without content (another
 * layout) when it holds a fair part (secondaryTopShare) of what the first holds of its pages' relevance.
 * With weak labels, each score is weighed by how much of the cluster the page-level extractor kept.
 */
function chooseTopClusters(docs: readonly FeatureDocument[], clusters: ScoredCluster[], scoring: Scoring, options: SelectOptions, weak?: WeakLabels): ScoredCluster[] {
  const secondaryTopShare = options.secondaryTopShare ?? 0.1;
  // the page-level labels' say in the top choice: comments that quote the title lose to the story
  const labelWeight = options.topLabelWeight ?? 0.5;
  const agreement = (c: ScoredCluster) => {
    if (!weak || labelWeight <= 0) return 1;
    let kept = 0;
    let all = 0;
    for (const ref of c.blocks) {
      const label = weak[ref.doc];
      if (!label) continue;
      const w = docs[ref.doc].blocks[ref.block].words;
      all += w;
      if (label[ref.block]) kept += w;
    }
    return all > 0 ? 1 - labelWeight + labelWeight * (kept / all) : 1;
  };
  const tops: ScoredCluster[] = [];
  const covered = new Set<number>();
  let topShare = 0;
  for (;;) {
    const uncovered = new Set(docs.map((_, i) => i).filter((i) => !covered.has(i)));
    if (uncovered.size === 0) break;
    let best: ScoredCluster | undefined;
    let bestScore = 0;
    for (const c of clusters) {
      if (c.chosen) continue;
      const s = (tops.length === 0 ? c.score : scoring.scoreOn(c.blocks, uncovered)) * agreement(c);
      if (s <= bestScore) continue;
      if (tops.length > 0 && scoring.shareWherePresent(c, uncovered) < secondaryTopShare * topShare) continue;
      best = c;
      bestScore = s;
    }
    if (!best || bestScore < options.minClusterScore) break;
    if (tops.length === 0) topShare = scoring.shareWherePresent(best);
    best.chosen = true;
    if (tops.length === 0) {
      best.reason = 'top-scoring cluster';
      best.chosenBlocks = [...best.blocks];
    } else {
      best.reason = `top-scoring cluster on the ${uncovered.size} page(s) the clusters above leave without content`;
      best.chosenBlocks = best.blocks.filter((b) => uncovered.has(b.doc));
    }
    tops.push(best);
    for (const b of best.chosenBlocks) covered.add(b.doc);
  }
  return tops;
}

/**
 * Step 2, what each page's article is: the region of its chosen blocks (the deepest element holding
 * nearly all their words and the bounding box of those inside it; a stray block elsewhere widens
 * neither), and its text as one TF-IDF vector, for telling its subheads from inline ads. The first
 * blocks given for a page fix its region and vector.
 */
class RegionEvidence {
  private readonly regions = new Map<number, Region>();
  private readonly bodyVectors = new Map<number, TermVector>();
  /** Text found word for word on more than one page is a template's or an ad's, not an article's. */
  private readonly texts: PageTexts;
  private readonly minBodyCoverage: number;

  constructor(
    private readonly docs: readonly FeatureDocument[],
    private readonly scoring: Scoring,
    private readonly options: SelectOptions,
    private readonly vectors?: BlockVectors,
    private readonly labels?: WeakLabels,
  ) {
    this.texts = new PageTexts(docs);
    this.minBodyCoverage = options.minBodyCoverage ?? 0.5;
  }

  /** Pages whose weak label found the article the top clusters found (kept most of their words): only there does it judge. */
  private readonly labelled = new Set<number>();

  trustLabels(tops: readonly BlockRef[]): void {
    if (!this.labels) return;
    const words = new Map<number, [number, number]>();
    for (const ref of tops) {
      const w = words.get(ref.doc) ?? [0, 0];
      const n = this.docs[ref.doc].blocks[ref.block].words;
      w[1] += n;
      if (this.labels[ref.doc]?.[ref.block]) w[0] += n;
      words.set(ref.doc, w);
    }
    for (const [d, [kept, total]] of words) if (total > 0 && kept >= (this.options.minLabelAgreement ?? LABEL_AGREEMENT) * total) this.labelled.add(d);
  }

  /**
   * Whether the page-level extractor left these blocks out where it found the article: their words
   * on the labelled pages mostly not kept (undefined: no labelled page to judge on).
   */
  leftOutByLabels(refs: readonly BlockRef[]): boolean | undefined {
    if (!this.labels) return undefined;
    let kept = 0;
    let total = 0;
    for (const ref of refs) {
      if (!this.labelled.has(ref.doc)) continue;
      const n = this.docs[ref.doc].blocks[ref.block].words;
      total += n;
      if (this.labels[ref.doc]?.[ref.block]) kept += n;
    }
    if (total === 0) return undefined;
    return kept < (this.options.minLabelAgreement ?? LABEL_AGREEMENT) * total;
  }

  /** Regions and article vectors for the pages of these blocks that have none yet. */
  add(seeds: readonly BlockRef[]): void {
    const blocksOf = new Map<number, BlockRef[]>();
    for (const ref of seeds) {
      let list = blocksOf.get(ref.doc);
      if (!list) blocksOf.set(ref.doc, (list = []));
      list.push(ref);
    }
    for (const [d, refs] of blocksOf) {
      if (!this.regions.has(d)) this.regions.set(d, articleRegion(refs.map((r) => this.docs[d].blocks[r.block]), this.options.containerShare ?? 0.9));
      if (this.vectors && !this.bodyVectors.has(d)) this.bodyVectors.set(d, sumVectors(refs.map((r) => this.vectors![d][r.block])));
    }
  }

  pagesWithRegion(): Set<number> {
    return new Set(this.regions.keys());
  }

  isInside(ref: BlockRef): boolean {
    const region = this.regions.get(ref.doc);
    return region !== undefined && inRegion(region, this.docs[ref.doc].blocks[ref.block], this.options.bboxTolerance);
  }

  sameTextElsewhere(ref: BlockRef): boolean {
    return this.texts.repeated(this.docs[ref.doc].blocks[ref.block].text);
  }

  /** Neither mostly links nor found on other pages. */
  ownText(ref: BlockRef): boolean {
    return !isLinkList(this.docs[ref.doc].blocks[ref.block]) && !this.sameTextElsewhere(ref);
  }

  /** TF-IDF weight of the block on the article's terms, and in all. */
  private bodyWeight(ref: BlockRef): [number, number] {
    const body = this.bodyVectors.get(ref.doc);
    if (!this.vectors || !body) return [0, 0];
    let covered = 0;
    let total = 0;
    for (const [t, w] of this.vectors[ref.doc][ref.block]) {
      total += w;
      if (body.has(t)) covered += w;
    }
    return [covered, total];
  }

  /** The blocks' own text (taken together) is mostly on the article's terms. */
  isProse(refs: readonly BlockRef[]): boolean {
    let covered = 0;
    let total = 0;
    for (const ref of refs) {
      if (!this.ownText(ref)) continue;
      const [c, t] = this.bodyWeight(ref);
      covered += c;
      total += t;
    }
    return total > 0 && covered >= this.minBodyCoverage * total;
  }

  scores(ref: BlockRef): boolean {
    return this.scoring.relevance[ref.doc][ref.block] > 0;
  }
}

/**
 * Step 3, clusters inside the region on the pages that have one: chosen when they score (as a
 * cluster, or most of their blocks) or are prose, unless mostly text of other pages too or named
 * like boilerplate. Their blocks on pages without a region (no top block there) are taken too.
 */
function chooseClustersInside(clusters: ScoredCluster[], evidence: RegionEvidence, scoring: Scoring, options: SelectOptions): void {
  const pagesWithRegion = evidence.pagesWithRegion();
  for (const c of clusters) {
    if (c.chosen) continue;
    const judged = c.blocks.filter((ref) => pagesWithRegion.has(ref.doc));
    const inside = judged.filter((ref) => evidence.isInside(ref));
    if (inside.length === 0 || inside.length < options.bboxMinShare * judged.length) continue;
    // "non-zero score": as a cluster (minClusterScore), or block by block, most of its blocks
    // sharing words with their page's title or description (a subhead on a long page holds a tiny
    // share of the page's relevance, but scores; an ad scores only by chance)
    const scoringBlocks = inside.filter((ref) => evidence.scores(ref) && !isLinkList(scoring.docsBlock(ref))).length;
    const scored =
      (c.score > 0 && c.score >= options.minClusterScore) ||
      (scoringBlocks > 0 && scoringBlocks >= options.minScoringShare * inside.length);
    const prose = !scored && options.acceptUnscoredProse !== false && evidence.isProse(inside);
    if (!scored && !prose) continue;
    // mostly text found word for word on other pages: a rotating ad or a standard notice
    if (inside.filter((ref) => !evidence.sameTextElsewhere(ref)).length < 0.5 * inside.length) continue;
    // mostly in elements named like boilerplate: inline ads, captions, share bars
    if (inside.filter((ref) => namedLikeBoilerplate(scoring.docsBlock(ref).path)).length > 0.5 * inside.length) continue;
    // left out by the page-level extractor on the pages where it found the article: an inset, a box
    if (evidence.leftOutByLabels(inside)) continue;
    c.chosen = true;
    const why = scored ? '' : ", not scoring but sharing the article's words";
    c.reason = `inside the top cluster's bounding box (${inside.length} of ${judged.length} blocks)${why}`;
    c.chosenBlocks = [...inside, ...c.blocks.filter((ref) => !pagesWithRegion.has(ref.doc))].sort(byPosition);
  }
}

/**
 * Step 4, the noise blocks (in no cluster) as a pseudo-cluster; those inside a region that are prose,
 * or score with text of their own page, are chosen (a quote on too few pages to make a cluster).
 */
function noiseCluster(noiseBlocks: BlockRef[], scoring: Scoring, evidence: RegionEvidence | undefined, options: SelectOptions): ScoredCluster {
  const noise: ScoredCluster = {
    id: NOISE,
    blocks: noiseBlocks,
    pages: new Set(noiseBlocks.map((b) => b.doc)).size,
    score: scoring.scoreOn(noiseBlocks),
    chosen: false,
    chosenBlocks: [],
  };
  if (evidence && options.acceptNoiseInBox !== false) {
    const inside = noiseBlocks.filter(
      (ref) =>
        evidence.isInside(ref) &&
        !namedLikeBoilerplate(scoring.docsBlock(ref).path) &&
        evidence.leftOutByLabels([ref]) !== true &&
        (evidence.isProse([ref]) || (evidence.scores(ref) && evidence.ownText(ref))),
    );
    if (inside.length > 0) {
      noise.chosen = true;
      noise.reason = `noise blocks inside the top cluster's bounding box that score or share the article's words (${inside.length} of ${noiseBlocks.length})`;
      noise.chosenBlocks = inside;
    }
  }
  return noise;
}

/** An element on a page, as the tag:index steps of its path from body. */
export interface Container {
  readonly depth: number;
  readonly key: string;
}

/** Where a page's article is: an element and a bounding box; a block in either is inside. */
export interface Region {
  readonly container?: Container;
  readonly box: BoundingBox;
}

const prefixKey = (path: readonly PathStep[], depth: number) =>
  path
    .slice(0, depth)
    .map((s) => s.tag + ':' + s.index)
    .join('>');

export function isUnder(path: readonly PathStep[], container: Container): boolean {
  return path.length > container.depth && prefixKey(path, container.depth) === container.key;
}

/**
 * The deepest element (below body) that holds at least `share` of the blocks' words, or undefined
 * when no child of body does.
 */
export function mainContainer(blocks: readonly Block[], share: number): Container | undefined {
  const total = blocks.reduce((n, b) => n + b.words, 0);
  if (total === 0) return undefined;
  let found: Container | undefined;
  for (let depth = 1; ; depth++) {
    const words = new Map<string, number>();
    for (const b of blocks) {
      if (b.path.length <= depth) continue;
      const key = prefixKey(b.path, depth);
      words.set(key, (words.get(key) ?? 0) + b.words);
    }
    let best: string | undefined;
    let most = 0;
    for (const [key, n] of words) if (n > most) [best, most] = [key, n];
    if (best === undefined || most < share * total) return found;
    found = { depth, key: best };
  }
}

/** The region of one page's top blocks (at least one block). */
export function articleRegion(blocks: readonly Block[], containerShare: number): Region {
  const container = mainContainer(blocks, containerShare);
  const inContainer = container ? blocks.filter((b) => isUnder(b.path, container)) : blocks;
  const box = (inContainer.length > 0 ? inContainer : blocks).map((b) => b.bbox).reduce((a, b) => union(a, b));
  return { ...(container ? { container } : {}), box: { ...box } };
}

export function inRegion(region: Region, block: Block, tolerance: number): boolean {
  return contains(region.box, block.bbox, tolerance) || (region.container !== undefined && isUnder(block.path, region.container));
}

const byPosition = (a: BlockRef, b: BlockRef) => a.doc - b.doc || a.block - b.block;

export function union(a: BoundingBox, b: BoundingBox): BoundingBox {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** Whether inner lies inside outer, allowing tolerance pixels on each side. */
export function contains(outer: BoundingBox, inner: BoundingBox, tolerance: number): boolean {
  return (
    inner.x >= outer.x - tolerance &&
    inner.y >= outer.y - tolerance &&
    inner.x + inner.width <= outer.x + outer.width + tolerance &&
    inner.y + inner.height <= outer.y + outer.height + tolerance
  );
}
