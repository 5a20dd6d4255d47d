/**
 * The combination: the methods vote on every text block, maximum subsequence segmentation turns
 * the votes into one contiguous article, the title starts it.
 *
 * 1. Blocks (blocks.ts) and the Dragnet classifier (dragnet.ts): each block's probability p of
 *    being article text, from its text and link density, id/class tokens and CETR ratios (weights
 *    learned from generated sites, or from the store's learned sites).
 * 2. The DOM heuristic (readability-like.ts) votes twice: with its strict attempt (boilerplate-named
 *    subtrees stripped before scoring) and with the result it keeps (the longest of its attempts).
 * 3. A block's score is q = ¼·strict + ¼·kept + ½·p (0 inside the readers' comments, inComments, and
 *    for a line that says where the post is filed, filingBlocks),
 *    and the article is the maximum-sum run of
 *    blocks with (q − 0.4) × words (Pasternack & Roth's token-level MSS, every word of a block
 *    scoring its block's value): a block the heuristic keeps stays unless the classifier is sure it
 *    is boilerplate, one it drops joins only if the classifier is sure it is text and it sits in
 *    the article's run; separate islands of text (a profile box, the comments) fall away.
 * 4. The <hr> constraint: a run that crosses <hr>s keeps only its best part between them, unless the
 *    page-level DOM votes keep the text on both sides of one (a section break inside the story), or
 *    keep the story on both sides of it and of a few words beside it (an inset it flows around: an
 *    ad's frame and label, which is left out).
 * 5. The title (title.ts; qRead's title similarity): the heading that shows the page's title starts
 *    the article when it sits just before the run. When the run is elsewhere on the page and the
 *    text after the title holds a positive run of its own, that one is the article.
 * 6. Inside the run, blocks no method wants are left out (MSS's cleaning of the extracted block),
 *    and blocks the classifier rates as sure boilerplate far below the run's typical block: its
 *    scale varies with the page, and on a layout it never learned from it rates the whole story low.
 *    It rates every cell of a table so, whatever it holds: the cells of a table declared data are
 *    judged together, kept when the page-level DOM votes keep most of the table (keptDataTables).
 *    On a page of a learned site, so are blocks whose text the site shows on other pages too (the
 *    rules document's `boilerplate`): text that repeats across a site's pages is not one article's.
 *    A line the classifier alone rates as sure boilerplate, which every DOM vote keeps, stays when
 *    it is written as the story's paragraphs are and stands between two of them (linesOfTheStory):
 *    an ingredient, a line of dialogue, which the classifier takes for a menu's item.
 * 7. The output (renderBlocks) runs from the first chosen block to the last: what their shared
 *    container shows before or after them is left out.
 */
import { Element, type Document, type Text } from 'domhandler';
import { normalizeText } from '../text/match';
import { headlineOfTitle } from '../text/titles';
import { READABILITY_MARK } from '../types/feature-document';
import { renderContent, tableUse, type ArticleContent } from '../html/content';
import { elementText } from '../html/element-text';
import { classesOf } from '../html/parse';
import { PROSE_MIN_WORDS } from '../html/prose';
import { segmentBlocks, type Block, type Segmentation } from './blocks';
import { dragnetFeatures, tokenWeigher, type DragnetModel } from './dragnet';
import { logit, sigmoid } from './logistic';
import { maxSubsequence, type Span } from './mss';
import { readabilityAttempts, type Region } from './readability-like';
import { elementTokens } from './tokens';
import { matchTitle } from './title';

/** Weight of the DOM heuristic's strict attempt, of its kept result, and of the classifier. */
export const VOTE_WEIGHTS = { strict: 0.25, kept: 0.25, classifier: 0.5 } as const;
/**
 * The same when the snapshot carries Mozilla Readability's marks (render ran it in the page): its
 * choice is a vote of its own, the share of a block's text it kept. It is the strongest single
 * method on pages it was not tuned on, so it weighs as much as our own heuristic's two votes.
 */
export const VOTE_WEIGHTS_WITH_READABILITY = { strict: 0.15, kept: 0.15, readability: 0.3, classifier: 0.4 } as const;
/** Score threshold of the maximum subsequence. */
export const THRESHOLD = 0.4;
/** Words between the title and the run that the title still bridges (or 10% of the run). */
export const TITLE_GAP_WORDS = 40;
/** Fewest words the run after the title needs to replace a run elsewhere. */
export const TITLE_RUN_WORDS = 30;
/** Inside the run, a block is left out when its score is below this (no heuristic vote, classifier under 0.2)… */
export const CLEAN_SCORE = 0.1;
/** …or when the classifier is all but sure it is boilerplate, whatever the votes (and rates it far below the run: CLEAN_RELATIVE). */
export const CLEAN_PROBABILITY = 0.1;
/** …and below this share of the run's typical probability (runProbability). */
export const CLEAN_RELATIVE = 0.15;

export interface CombinedAnalysis extends Segmentation {
  /** The classifier's probability per block. */
  readonly probability: number[];
  /** Block in the heuristic's strict attempt / its kept result. */
  readonly strict: boolean[];
  readonly kept: boolean[];
  /** Share of each block's text the in-page Readability kept (all 0 when the page has no marks). */
  readonly readability: number[];
  /** The page carries the in-page Readability's marks. */
  readonly hasReadability: boolean;
  /** Block inside the readers' comments (inComments): scores 0. */
  readonly comments: boolean[];
  /** Block that says where the post is filed (filingBlocks): scores 0. */
  readonly filing: boolean[];
  /** Combined score per block (q). */
  readonly score: number[];
  readonly title: string;
  /** The best match of the title among the blocks, -1 when none. */
  readonly titleBlock: number;
  /** Every block that shows the title or a part of it, in document order. */
  readonly titleCandidates: number[];
}

/** Whether each block is in a region of the DOM heuristic. */
export function inRegion(blocks: readonly Block[], region: Region | undefined): boolean[] {
  if (!region) return blocks.map(() => false);
  const roots = new Set(region.roots);
  const memo = new Map<Element, boolean>();
  const test = (el: Element): boolean => {
    const m = memo.get(el);
    if (m !== undefined) return m;
    let v: boolean;
    if (region.skip(el) && !roots.has(el)) v = false;
    else if (roots.has(el)) v = true;
    else v = el.parent instanceof Element ? test(el.parent) : false;
    memo.set(el, v);
    return v;
  };
  return blocks.map((b) => test(b.el));
}

/** Id/class tokens (tokens.ts nameTokens) that name readers' comments: `comments`, `comment-body`, `commentlist`. */
export const COMMENT_TOKENS: ReadonlySet<string> = new Set(['comment', 'comments', 'commentlist']);

/**
 * Whether each block is inside the readers' comments: an element whose id or class names them
 * (COMMENT_TOKENS, whatever else the name says: Readability spares `comments-body` for its "body")
 * and that does not hold the article's headline (a page may set a flag such as `unfollowComments` on
 * the element wrapping everything). Without a headline block there is nothing to tell the
 * article's wrapper from the comments' by: no block is.
 */
export function inComments(blocks: readonly Block[], titleBlock: number): boolean[] {
  if (titleBlock < 0) return blocks.map(() => false);
  const holdsTitle = new Set<Element>();
  for (let e: Element | null = blocks[titleBlock].el; e; e = e.parent instanceof Element ? e.parent : null) holdsTitle.add(e);
  const memo = new Map<Element, boolean>();
  const test = (el: Element): boolean => {
    const m = memo.get(el);
    if (m !== undefined) return m;
    const v = (!holdsTitle.has(el) && elementTokens(el).some((t) => COMMENT_TOKENS.has(t))) || (el.parent instanceof Element && test(el.parent));
    memo.set(el, v);
    return v;
  };
  return blocks.map((b) => test(b.el));
}

/**
 * A link that names a tag or category the page is filed under (the rel-tag microformat: `rel="tag"`,
 * WordPress's `rel="category tag"`), not a hashtag written in the text (Mastodon's `#rustlang`).
 */
function isTagLink(el: Element): boolean {
  return el.name === 'a' && /(?:^|\s)(?:tag|category)(?:\s|$)/i.test(el.attribs.rel ?? '') && !elementText(el, 8).trimStart().startsWith('#');
}

/**
 * A filing line has at most this many words besides its links: a label ("Posted in", "Tags:",
 * "Filed under"), a date. A sentence that links a keyword or two to its tag page has more.
 */
export const FILING_OTHER_WORDS = 5;

/**
 * Whether each block is a filing line of the post: it links tags or categories of the page
 * (isTagLink) and says little else (FILING_OTHER_WORDS): "Posted in News, Sport | 3 Comments »",
 * "Tags: …". Such a line says where the post is filed, which is not its text; it scores 0, as the
 * readers' comments do. A heading is never one (a section titled by its tag's link).
 */
export function filingBlocks(blocks: readonly Block[], textBlock: ReadonlyMap<Text, number>): boolean[] {
  const tagged = blocks.map(() => false);
  for (const [text, b] of textBlock) {
    if (tagged[b]) continue;
    for (let e = text.parent; e instanceof Element && e !== blocks[b].el; e = e.parent) {
      if (isTagLink(e)) {
        tagged[b] = true;
        break;
      }
    }
  }
  return blocks.map((b, i) => tagged[i] && b.heading === 0 && b.words - b.linkWords <= FILING_OTHER_WORDS);
}

/** Steps 1-3 for a page: blocks, probabilities, votes, scores. */
export function analyse(doc: Document, dragnet: DragnetModel, title: string): CombinedAnalysis {
  const textBlock = new Map<Text, number>();
  const seg = segmentBlocks(doc, { tokenWeight: tokenWeigher(dragnet.tokens), textBlock });
  const readability = readabilityShares(seg.blocks, textBlock);
  const hasReadability = readability.some((r) => r > 0);
  const probability = dragnetFeatures(seg.blocks).map((row) => sigmoid(logit(dragnet.classifier, row)));
  const attempts = readabilityAttempts(doc);
  let kept: Region | undefined;
  for (const a of attempts) if (!kept || a.chars > kept.chars) kept = a;
  const strictRegion = inRegion(seg.blocks, attempts[0]);
  const keptRegion = kept === attempts[0] ? strictRegion : inRegion(seg.blocks, kept);
  const w = VOTE_WEIGHTS_WITH_READABILITY;
  const titles = matchTitle(title, seg.blocks);
  const titleBlock = titles.best;
  const comments = inComments(seg.blocks, titleBlock);
  const filing = filingBlocks(seg.blocks, textBlock);
  const score = probability.map((p, i) =>
    comments[i] || filing[i]
      ? 0
      : hasReadability
        ? w.strict * (strictRegion[i] ? 1 : 0) + w.kept * (keptRegion[i] ? 1 : 0) + w.readability * readability[i] + w.classifier * p
        : VOTE_WEIGHTS.strict * (strictRegion[i] ? 1 : 0) + VOTE_WEIGHTS.kept * (keptRegion[i] ? 1 : 0) + VOTE_WEIGHTS.classifier * p,
  );
  return {
    ...seg,
    probability,
    strict: strictRegion,
    kept: keptRegion,
    readability,
    hasReadability,
    score,
    title,
    comments,
    filing,
    titleBlock,
    titleCandidates: titles.shown,
  };
}

/** Share of each block's visible text whose element the in-page Readability marked (READABILITY_MARK). */
export function readabilityShares(blocks: readonly Block[], textBlock: ReadonlyMap<Text, number>): number[] {
  const kept = blocks.map(() => 0);
  for (const [text, b] of textBlock) {
    const parent = text.parent;
    if (parent instanceof Element && parent.attribs[READABILITY_MARK] !== undefined) kept[b] += text.data.replace(/\s+/g, '').length;
  }
  return blocks.map((block, i) => {
    const total = block.text.replace(/\s+/g, '').length;
    return total ? Math.min(1, kept[i] / total) : 0;
  });
}

export interface Selection {
  /** Chosen blocks, in document order. */
  readonly blocks: Block[];
  /** First and last chosen block index (the run, title included), -1 when none. */
  readonly span: Span;
  /** The block showing the title that the article starts at or holds (step 5), -1 when none. */
  readonly titleBlock: number;
}

function wordsBetween(blocks: readonly Block[], from: number, to: number): number {
  let w = 0;
  for (let i = from + 1; i < to; i++) w += blocks[i].words;
  return w;
}

/** The best run after the title block: [title + 1, end] with the largest positive sum. */
function runAfter(scores: readonly number[], blocks: readonly Block[], t: number): { end: number; value: number; words: number } {
  let sum = 0;
  let words = 0;
  let best = { end: -1, value: 0, words: 0 };
  for (let i = t + 1; i < scores.length; i++) {
    sum += scores[i];
    words += blocks[i].words;
    if (sum > best.value) best = { end: i, value: sum, words };
  }
  return best;
}

/**
 * The classifier's probability of the run's typical word (word-weighted median over its blocks).
 * Its scale varies with the page: on a layout unlike any it learned from it rates the whole story
 * low, and a block is boilerplate only when rated far below the text around it.
 */
function runProbability(a: CombinedAnalysis, start: number, end: number): number {
  const rows: { p: number; w: number }[] = [];
  let total = 0;
  for (let i = start; i <= end; i++) {
    rows.push({ p: a.probability[i], w: a.blocks[i].words });
    total += a.blocks[i].words;
  }
  rows.sort((x, y) => x.p - y.p);
  let seen = 0;
  for (const r of rows) if ((seen += r.w) * 2 >= total) return r.p;
  return rows.length ? rows[rows.length - 1].p : 0;
}

/**
 * The page-level DOM votes both keep the block: our heuristic's kept result and Mozilla Readability
 * (most of the block's text), or, on a page without Readability's marks, both our attempts.
 */
function domKeeps(a: CombinedAnalysis, i: number): boolean {
  return a.kept[i] && (a.hasReadability ? a.readability[i] >= 0.5 : a.strict[i]);
}

/**
 * Whether the <hr> before block i lies inside the story, where the text the page-level DOM votes
 * keep nearest before it and nearest after it (within the run) has
 * - no block between them: a section break; or
 * - less than a paragraph of prose between them (PROSE_MIN_WORDS words all told) while on each side
 *   the kept text runs on for a paragraph's worth of words: the rule is part of an inset the story
 *   flows around (an ad's "Advertisement" label between two rules, even in mid-sentence; "Article
 *   continues" above one), whose blocks go into `inset`.
 * A label the votes keep after the rule ("Related to this story:") followed by links is no story
 * resuming, and a larger box between them is a break between two texts.
 */
function framesInset(a: CombinedAnalysis, i: number, start: number, end: number, inset: Set<number>): boolean {
  let before = i - 1;
  let between = 0;
  while (before >= start && !domKeeps(a, before)) between += a.blocks[before--].words;
  let after = i;
  while (after <= end && !domKeeps(a, after)) between += a.blocks[after++].words;
  if (before < start || after > end || between >= PROSE_MIN_WORDS) return false;
  if (before === i - 1 && after === i) return true;
  if (keptWords(a, before, -1, start, end) < PROSE_MIN_WORDS || keptWords(a, after, 1, start, end) < PROSE_MIN_WORDS) return false;
  for (let k = before + 1; k < after; k++) inset.add(k);
  return true;
}

/** Words of the blocks the DOM votes keep from block i on, in one direction, up to the first they do not (within start..end). */
function keptWords(a: CombinedAnalysis, i: number, step: 1 | -1, start: number, end: number): number {
  let words = 0;
  for (let k = i; k >= start && k <= end && domKeeps(a, k) && words < PROSE_MIN_WORDS; k += step) words += a.blocks[k].words;
  return words;
}

export interface SelectBlocksOptions {
  /** Normalised texts (lib/text/match.ts normalizeText) the page's site repeats: left out of the run. */
  readonly boilerplate?: ReadonlySet<string>;
}

/** Steps 3-6: the article's blocks. */
export function selectBlocks(a: CombinedAnalysis, options: SelectBlocksOptions = {}): Selection {
  const { blocks, score } = a;
  const scores = blocks.map((b, i) => (score[i] - THRESHOLD) * b.words);
  let span = maxSubsequence(scores);
  // No run the votes agree on: nothing (not an article, or nothing this extractor can trust).
  if (span.start < 0 || span.value <= 0) return { blocks: [], span: { start: -1, end: -1, value: 0 }, titleBlock: -1 };
  // <hr> constraint, generalised: split the run at its <hr>s and keep the best part. An <hr> that
  // both page-level DOM votes keep text on each side of is a section break inside the story.
  // The blocks of an inset the story flows around (an ad's label between its rules) are left out.
  const cuts = [span.start];
  const inset = new Set<number>();
  for (let i = span.start + 1; i <= span.end; i++) if (blocks[i].hrBefore && !framesInset(a, i, span.start, span.end, inset)) cuts.push(i);
  if (cuts.length > 1) {
    let best = span;
    let bestValue = -Infinity;
    for (let k = 0; k < cuts.length; k++) {
      const part = maxSubsequence(scores, cuts[k], k + 1 < cuts.length ? cuts[k + 1] - 1 : span.end);
      if (part.start >= 0 && part.value > bestValue) {
        bestValue = part.value;
        best = part;
      }
    }
    span = best;
  }
  let start = span.start;
  let end = span.end;
  // The title: a heading showing it inside the run (the headline before a line that shows only the
  // site's or section's name the title holds too), else the nearest one before it, else the one
  // followed by the best run of its own.
  const candidates = a.titleCandidates;
  const inRun = candidates.filter((c) => c >= start && c <= end);
  let t = inRun.find((c) => headlineOfTitle(blocks[c].text, a.title)) ?? inRun[0] ?? -1;
  if (t < 0 && candidates.length) {
    let runWords = 0;
    for (let i = start; i <= end; i++) runWords += blocks[i].words;
    const before = candidates.filter((c) => c < start);
    const nearest = before.length ? before[before.length - 1] : -1;
    if (nearest >= 0 && wordsBetween(blocks, nearest, start) <= Math.max(TITLE_GAP_WORDS, runWords * 0.1)) {
      t = nearest;
      start = nearest;
    } else {
      let best = { t: -1, end: -1, value: 0 };
      for (const c of candidates) {
        const after = runAfter(scores, blocks, c);
        if (after.end >= 0 && after.words >= TITLE_RUN_WORDS && after.value > best.value) best = { t: c, end: after.end, value: after.value };
      }
      if (best.t >= 0) {
        t = best.t;
        start = best.t;
        end = best.end;
      }
    }
  }
  let chosen: Block[] = [];
  const boilerplateBelow = Math.min(CLEAN_PROBABILITY, CLEAN_RELATIVE * runProbability(a, start, end));
  const repeated = options.boilerplate?.size ? options.boilerplate : undefined;
  const keptTable = keptDataTables(a, start, end);
  // blocks the classifier alone left out, though every page-level vote keeps them
  const overruled: Block[] = [];
  for (let i = start; i <= end; i++) {
    if (i !== t && (inset.has(i) || score[i] < CLEAN_SCORE || repeated?.has(normalizeText(blocks[i].text)))) continue;
    if (i !== t && a.probability[i] < boilerplateBelow && !keptTable[i - start]) {
      if (everyVoteKeeps(a, i)) overruled.push(blocks[i]);
      continue;
    }
    chosen.push(blocks[i]);
  }
  const storyLines = overruled.length ? linesOfTheStory(chosen, overruled) : [];
  if (storyLines.length) chosen = [...chosen, ...storyLines].sort((x, y) => x.index - y.index);
  // Cleaning never empties the run (a page of one short paragraph has no neighbours to vouch for it).
  return { blocks: chosen.length ? chosen : blocks.slice(start, end + 1), span: { start, end, value: span.value }, titleBlock: t };
}

/** Every page-level DOM vote keeps the block: both attempts of our heuristic and, on a page with its marks, Mozilla Readability (all of its text). */
function everyVoteKeeps(a: CombinedAnalysis, i: number): boolean {
  return a.strict[i] && a.kept[i] && (!a.hasReadability || a.readability[i] >= 1);
}

/**
 * Of the blocks the classifier alone rates as sure boilerplate (every page-level vote keeps them),
 * those written as the story's paragraphs are and standing between two of them: the same element,
 * with the same classes, in the same container as the chosen blocks that hold most of the chosen
 * words, between the first and the last of those with a paragraph's words (PROSE_MIN_WORDS). The
 * classifier judges a line by its own words and links, so a short line of the story (an
 * ingredient, a line of dialogue, a subheading set as a paragraph) looks to it like a menu's item;
 * what a template adds inside a story (a byline, a share prompt, an ad's label) comes in markup of
 * its own, and keeps being left out, as does a list of short lines after the story's last paragraph.
 */
function linesOfTheStory(chosen: readonly Block[], overruled: readonly Block[]): Block[] {
  // the element's name and its set of classes, in any order or spacing
  const kind = (b: Block) => [b.el.name, ...classesOf(b.el).sort()].join('.');
  const parentOf = (b: Block) => (b.el.parent instanceof Element ? b.el.parent : null);
  const words = new Map<Element | null, Map<string, number>>();
  let story: { parent: Element | null; kind: string; words: number } | undefined;
  for (const b of chosen) {
    const parent = parentOf(b);
    const kinds = words.get(parent) ?? new Map<string, number>();
    const w = (kinds.get(kind(b)) ?? 0) + b.words;
    kinds.set(kind(b), w);
    words.set(parent, kinds);
    if (!story || w > story.words) story = { parent, kind: kind(b), words: w };
  }
  if (!story) return [];
  const { parent, kind: storyKind } = story;
  const paragraphs = chosen.filter((b) => parentOf(b) === parent && kind(b) === storyKind && b.words >= PROSE_MIN_WORDS).map((b) => b.index);
  if (paragraphs.length < 2) return [];
  const first = paragraphs[0];
  const last = paragraphs[paragraphs.length - 1];
  return overruled.filter((b) => b.index > first && b.index < last && parentOf(b) === parent && kind(b) === storyKind);
}

/**
 * For each block of the run (from `start`), whether it lies in a cell of a table its author declared
 * data (tableUse) most of whose words in the run the page-level DOM votes keep (domKeeps). The
 * classifier judges a line by its own words, links and tags, which make any table cell look like a
 * menu item: a figure in a table of figures says nothing about its cell, so such a table's cells are
 * judged together, by the votes that see the page's structure.
 */
function keptDataTables(a: CombinedAnalysis, start: number, end: number): boolean[] {
  const uses = new Map<Element, boolean>();
  const tableOf: (Element | undefined)[] = [];
  const words = new Map<Element, { all: number; kept: number }>();
  for (let i = start; i <= end; i++) {
    const table = declaredTableOf(a.blocks[i].el, uses);
    tableOf.push(table);
    if (!table) continue;
    const w = words.get(table) ?? { all: 0, kept: 0 };
    w.all += a.blocks[i].words;
    if (domKeeps(a, i)) w.kept += a.blocks[i].words;
    words.set(table, w);
  }
  return tableOf.map((table) => {
    const w = table && words.get(table);
    return !!w && w.kept * 2 >= w.all;
  });
}

/** The table the element lies in a cell of, when its author declared it data (verdicts cached per table). */
function declaredTableOf(el: Element, uses: Map<Element, boolean>): Element | undefined {
  let cell = false;
  for (let n: Element | null = el; n; n = n.parent instanceof Element ? n.parent : null) {
    if (n.name === 'td' || n.name === 'th') cell = true;
    else if (n.name === 'table') {
      if (!cell) return undefined;
      let declared = uses.get(n);
      if (declared === undefined) uses.set(n, (declared = tableUse(n) === 'declared'));
      return declared ? n : undefined;
    }
  }
  return undefined;
}

/**
 * Text and clean HTML of chosen blocks: the smallest element holding them all is rendered, every
 * block-level element that holds blocks but none of the chosen ones left out, and so is every element
 * with text wholly before the first chosen block or after the last: the article runs from its first
 * block to its last, and what their shared container shows around them (a dateline in a loose span
 * above the headline, a share line below the story) lies outside it.
 */
export function renderBlocks(chosen: readonly Block[], all: readonly Block[], baseUrl?: string): ArticleContent {
  if (chosen.length === 0) return { text: '', html: '', wordCount: 0 };
  const keep = new Set<Element>();
  for (const b of chosen) for (let e: Element | null = b.el; e && !keep.has(e); e = e.parent instanceof Element ? e.parent : null) keep.add(e);
  const holds = new Set<Element>();
  for (const b of all) for (let e: Element | null = b.el; e && !holds.has(e); e = e.parent instanceof Element ? e.parent : null) holds.add(e);
  // Lowest common ancestor of the chosen blocks' elements.
  let root: Element = chosen[0].el;
  const inside = (anc: Element, el: Element) => {
    for (let e: Element | null = el; e; e = e.parent instanceof Element ? e.parent : null) if (e === anc) return true;
    return false;
  };
  for (const b of chosen) while (!inside(root, b.el) && root.parent instanceof Element) root = root.parent;
  // what the root shows before the first chosen block and after the last: the earlier siblings of the
  // first block's element and of each of its ancestors below the root, the later ones of the last's;
  // an element there is outside the article when it shows text (a lead or closing picture stays)
  const around = new Set<Element>();
  const siblings = (from: Element, later: boolean) => {
    for (let e: Element = from; e !== root && e.parent instanceof Element; e = e.parent) {
      const children = e.parent.children;
      const at = children.indexOf(e);
      for (let i = later ? at + 1 : at - 1; later ? i < children.length : i >= 0; i += later ? 1 : -1) {
        const sibling = children[i];
        if (sibling instanceof Element) around.add(sibling);
      }
    }
  };
  siblings(chosen[0].el, false);
  siblings(chosen[chosen.length - 1].el, true);
  const outside = (el: Element) => around.has(el) && !keep.has(el) && elementText(el, 0) !== '';
  const skip = (el: Element) => (holds.has(el) && !keep.has(el)) || outside(el);
  return renderContent([root], { skip, baseUrl });
}
