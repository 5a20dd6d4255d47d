/**
 * The learning algorithm, pure: a site's feature documents in, its content rules out.
 *
 *   text → TF-IDF similarity of each block to its page's title and descriptions (tfidf.ts)
 *   blocks → vectors → DBSCAN across all pages (vectorize.ts, dbscan.ts)
 *   clusters → scored, the top one and the ones inside its region (select.ts)
 *   chosen blocks' paths → consolidated selectors (consolidate.ts), self-checked (self-check.ts)
 *   selectors → written from the named container of what they take (shorten.ts)
 *   pages of two layouts or more → the same, per layout (templates.ts)
 *
 * Deterministic: the documents are ordered newest first (renderedAt, then pageId) before anything
 * else, so the same set of pages gives the same rules in any input order.
 */
import type { FeatureDocument } from '../types/feature-document';
import { BOILERPLATE_TEXTS_MAX, BOILERPLATE_TEXT_MAX_LENGTH, TEMPLATES_MAX, type ClusterSummary, type RulesDocument, type TemplateRule } from '../types/rules-document';
import { withSiteStableNames } from './names';
import { cleanDescendants, learnClean } from './clean';
import { generalizeBodySelectors } from './generalize';
import { chooseContainerText } from './container-text';
import { chooseHeaderBlocks } from './header';
import { PageTexts } from './repeated-texts';
import { buildSelectors, measureSelectors } from './self-check';
import { selectClusters, type ScoredCluster } from './select';
import { shortestSelectors, shortestSelectorTexts } from './shorten';
import { blockSimilarities } from './tfidf';
import { clusterBlocks } from './vectorize';
import { groupByLayout, layoutKinds, layoutSelectors } from './templates';
import { labelBlocks } from './weak-labels';

export interface LearnOptions {
  /** DBSCAN neighbourhood radius, in the units of vectorize.ts DEFAULT_WEIGHTS. */
  readonly eps: number;
  /** DBSCAN: blocks (weight) within eps that make a core block. */
  readonly minPts: number;
  /** Blocks with fewer words are not clustered, scored or chosen. */
  readonly minWords: number;
  /** Pixels a block may stick out of the top cluster's bounding box. */
  readonly bboxTolerance: number;
  /** Share of a cluster's blocks inside the bounding box for the cluster to be chosen. */
  readonly bboxMinShare: number;
  /** Smallest score of a top cluster, and of a cluster inside the box to count as non-zero. */
  readonly minClusterScore: number;
  /** Or: share of a cluster's blocks inside the box that score above 0, for it to count as non-zero. */
  readonly minScoringShare: number;
  /** Share of a block's TF-IDF weight on the article's terms that makes it prose (inside the box). */
  readonly minBodyCoverage: number;
  /** Choose zero-score clusters inside the box whose blocks are mostly prose (subheads). */
  readonly acceptUnscoredProse: boolean;
  /** Choose noise blocks inside the box that score or are prose. */
  readonly acceptNoiseInBox: boolean;
  /** Share of a page's top-cluster words the element taken as the article's container holds. */
  readonly containerShare: number;
  /** Share of the first top cluster's page share another layout's top cluster needs. */
  readonly secondaryTopShare: number;
  /** Selectors selecting a smaller share of content words on the training pages are dropped. */
  readonly minSelectorPrecision: number;
  /** Most selectors in the rules. */
  readonly maxSelectors: number;
  /** Most header selectors (dek, byline and dateline, lead caption) in the rules. */
  readonly maxHeaderSelectors: number;
  /** Most clusters listed in the rules (highest scores first). */
  readonly maxClusterSummaries: number;
  /** Average layout similarity at which pages are of one template (templates.ts); 0: one template. */
  readonly templateSimilarity: number;
}

export const DEFAULT_LEARN_OPTIONS: LearnOptions = {
  eps: 0.5,
  minPts: 4,
  minWords: 1,
  bboxTolerance: 4,
  bboxMinShare: 0.5,
  minClusterScore: 0.001,
  minScoringShare: 0.5,
  minBodyCoverage: 0.5,
  acceptUnscoredProse: true,
  acceptNoiseInBox: true,
  containerShare: 0.9,
  secondaryTopShare: 0.1,
  minSelectorPrecision: 0.5,
  maxSelectors: 200,
  maxHeaderSelectors: 10,
  maxClusterSummaries: 100,
  templateSimilarity: 0.3,
};

export type LearnedRules = Omit<RulesDocument, 'version' | 'site' | 'rulesVersion' | 'learnedAt'>;

/**
 * `weakLabels`, when given, holds per page (by pageId) the text a single-page extractor kept there
 * (weak-labels.ts): blocks inside the article's region it leaves out lose.
 */
export function learnRules(docs: readonly FeatureDocument[], options: Partial<LearnOptions> = {}, weakLabels?: ReadonlyMap<string, string>): LearnedRules {
  const opts: LearnOptions = { ...DEFAULT_LEARN_OPTIONS, ...stripUndefined(options) };
  const sorted = [...docs].sort((a, b) => compare(b.renderedAt, a.renderedAt) || compare(a.pageId, b.pageId));
  // names on one page only (post-28, category-politics) would split clusters and selectors per page
  const ordered = withSiteStableNames(sorted);
  const learned = learnContent(ordered, sorted, opts, weakLabels, ordered);
  const templates = learnTemplates(sorted, ordered, opts, weakLabels);
  return templates ? { ...learned, templates } : learned;
}

/**
 * Each layout's own content rules, when the pages are of two layouts or more that have selectors
 * of their own (templates.ts); undefined otherwise. Pages are grouped by their kinds of block with
 * the site's stable names; a template is then learned from its pages alone, and its layout
 * selectors taken from them, with the names stable among them: a template's own names are on
 * every page of it, however few of the site's pages it has (`div#blog` on 3 of 7 pages is not a
 * site's stable name, and is its blog template's).
 */
function learnTemplates(sorted: readonly FeatureDocument[], ordered: readonly FeatureDocument[], opts: LearnOptions, weakLabels?: ReadonlyMap<string, string>): TemplateRule[] | undefined {
  if (!(opts.templateSimilarity > 0)) return undefined;
  const groups = groupByLayout(layoutKinds(ordered), { minSimilarity: opts.templateSimilarity, maxTemplates: TEMPLATES_MAX });
  if (groups.length < 2) return undefined;
  const groupDocs = groups.map((g) => withSiteStableNames(g.map((i) => sorted[i])));
  const ownKinds: Set<string>[] = [];
  groups.forEach((g, gi) => layoutKinds(groupDocs[gi]).forEach((k, x) => (ownKinds[g[x]] = k)));
  const layouts = layoutSelectors(ownKinds, groups, sorted);
  const templates: TemplateRule[] = [];
  groups.forEach((g, gi) => {
    if (!layouts[gi].length) return;
    const own = learnContent(groupDocs[gi], g.map((i) => sorted[i]), opts, weakLabels, ordered);
    if (!own.content.selectors.length) return;
    // a template's content rules are the site's less the boilerplate, which serves the fallback (site-wide)
    const { boilerplate: _, ...content } = own.content;
    templates.push({ layout: layouts[gi], learnedFrom: own.learnedFrom, content, selfCheck: own.selfCheck });
  });
  return templates.length >= 2 ? templates : undefined;
}

/**
 * The content rules of these pages (ordered newest first, names made stable); `rendered`: the same
 * pages with every name, as CSS sees them, which the selectors are written against (shorten.ts);
 * `site`: all the site's training pages, these among them, over which TF-IDF counts (tfidf.ts).
 */
function learnContent(
  ordered: readonly FeatureDocument[],
  rendered: readonly FeatureDocument[],
  opts: LearnOptions,
  weakLabels: ReadonlyMap<string, string> | undefined,
  site: readonly FeatureDocument[],
): LearnedRules {
  const weak = weakLabels ? ordered.map((d) => { const t = weakLabels.get(d.pageId); return t === undefined ? undefined : labelBlocks(d, t); }) : undefined;

  const { similarity, vectors } = blockSimilarities(ordered, site);
  // a kind of block shown once on every training page is a cluster, however few the pages
  const minPts = Math.max(2, Math.min(opts.minPts, ordered.length));
  const clustering = clusterBlocks(ordered, { eps: opts.eps, minPts, minWords: opts.minWords });
  const selected = selectClusters(ordered, clustering.labels, similarity, opts, vectors, weak);
  // prose written straight into the body element: the element is the article's too
  const selection = { ...selected, chosen: chooseContainerText(ordered, selected.chosen).chosen };
  const rules = buildSelectors(ordered, selection.chosen, {
    minSelectorPrecision: opts.minSelectorPrecision,
    maxSelectors: opts.maxSelectors,
    uncertain: selection.uncertain,
    kindDistance: opts.eps,
  });
  // what the pages show between the headline and the body: dek, byline and dateline, lead caption
  const header = chooseHeaderBlocks(ordered, selection.chosen);
  const headerSelectors = (mask: boolean[][]) => buildSelectors(ordered, mask, { minSelectorPrecision: opts.minSelectorPrecision, maxSelectors: opts.maxHeaderSelectors });
  // the header's dek, the article's summary under its headline: the head of the body
  const dekRules = header.dekKinds.length ? headerSelectors(header.dek) : undefined;
  // a dek no selector tells apart stays in the header
  const dekLost = !!dekRules && !dekRules.selectors.length;
  const headerMask = dekLost ? header.header.map((row, d) => row.map((h, i) => h || header.dek[d][i])) : header.header;
  const headerRules = header.kinds.length || dekLost ? headerSelectors(headerMask) : undefined;

  // the body's other prose children (lists, subheads, quotes) the training pages happened not to show
  const general = generalizeBodySelectors(ordered, selection.chosen, rules.steps);
  // template text taken as content ("Like this:") dropped, left-out elements the selectors take cleaned
  const cleaned = learnClean(ordered, selection.chosen, general.steps);
  const changed = general.added.length > 0 || cleaned.dropped.length > 0;
  const metrics = changed ? measureSelectors(ordered, selection.chosen, cleaned.steps) : undefined;
  const selfCheck = {
    ...rules.selfCheck,
    ...(metrics ? { recall: metrics.recall, precision: metrics.precision } : {}),
    adjusted: [
      ...rules.selfCheck.adjusted,
      ...general.added.map((s) => `generalized: ${s}`),
      ...cleaned.dropped.map((s) => `dropped: ${s} (the same text on every page)`),
      ...(headerRules?.selfCheck.adjusted ?? []).map((s) => `header ${s}`),
      ...(dekRules?.selfCheck.adjusted ?? []).map((s) => `dek ${s}`),
    ],
  };

  return {
    learnedFrom: ordered.map((d) => d.pageId),
    content: {
      // written from the named container each takes, as a person writes them (shorten.ts)
      selectors: shortestSelectors(cleaned.steps, rendered),
      ...(dekRules?.selectors.length ? { dek: shortestSelectors(dekRules.steps, rendered) } : {}),
      ...(headerRules?.selectors.length ? { header: shortestSelectors(headerRules.steps, rendered) } : {}),
      clean: shortestSelectorTexts(
        [
          ...new Set([
            ...cleaned.clean,
            ...cleanDescendants(ordered, selection.chosen, cleaned.steps, weak),
            ...(headerRules ? cleanDescendants(ordered, headerMask, headerRules.steps) : []),
            ...(dekRules ? cleanDescendants(ordered, header.dek, dekRules.steps) : []),
          ]),
        ],
        rendered,
      ),
      // for the single-page extractor on the site's pages the selectors give way on
      ...boilerplateOf(ordered),
    },
    clusters: [
      ...selection.clusters.slice(0, opts.maxClusterSummaries),
      ...(selection.noise ? [selection.noise] : []),
    ].map((c) => summarize(ordered, c)),
    selfCheck,
    params: {
      ...opts,
      pages: ordered.length,
      blocks: ordered.reduce((n, d) => n + d.blocks.length, 0),
      distinctVectors: clustering.distinctVectors,
      clusters: clustering.clusters,
    },
  };
}

/** The texts the pages repeat (repeated-texts.ts), as the rules document keeps them (`content.boilerplate`). */
export function repeatedTextsOf(docs: readonly FeatureDocument[]): string[] {
  return new PageTexts(docs).repeatedTexts(BOILERPLATE_TEXTS_MAX, BOILERPLATE_TEXT_MAX_LENGTH);
}

/** The site's repeated texts, absent when its pages share none. */
function boilerplateOf(docs: readonly FeatureDocument[]): { boilerplate?: string[] } {
  const texts = repeatedTextsOf(docs);
  return texts.length ? { boilerplate: texts } : {};
}

function summarize(docs: readonly FeatureDocument[], c: ScoredCluster): ClusterSummary {
  const selectors = new Map<string, number>();
  for (const ref of c.blocks) {
    const s = docs[ref.doc].blocks[ref.block].selector;
    selectors.set(s, (selectors.get(s) ?? 0) + 1);
  }
  let selector = '';
  let most = 0;
  for (const [s, n] of selectors) if (n > most || (n === most && s < selector)) [selector, most] = [s, n];
  // the sample: the cluster's longest block text among its first few, shortened
  let sample = '';
  for (const ref of c.blocks.slice(0, 20)) {
    const t = docs[ref.doc].blocks[ref.block].text.replace(/\s+/g, ' ').trim();
    if (t.length > sample.length) sample = t;
  }
  if (sample.length > 160) sample = sample.slice(0, 159).trimEnd() + '…';
  return {
    id: c.id,
    blocks: c.blocks.length,
    pages: c.pages,
    score: Math.round(c.score * 1e6) / 1e6,
    chosen: c.chosen,
    ...(c.reason ? { reason: c.reason } : {}),
    selector,
    sample,
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
