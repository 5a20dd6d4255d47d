/**
 * Rules from the chosen blocks, checked on the pages they were learned from.
 *
 * Each tag sequence of the chosen blocks gives one consolidated selector, one per name of the
 * blocks' own element where the names part kinds of block (`splitByOwnNames`), and one per layout
 * where the blocks are named at every step but differently (`splitByNamedPaths`). A selector that also
 * matches blocks outside the chosen clusters is tightened: first split by the step whose ids/classes
 * best separate the chosen blocks from the others (each part keeps the classes it shares, e.g.
 * `div > p` becomes `div.article-body > p` and `div.pullquote > p`), then pinned with :nth-child at
 * steps where all its chosen blocks share a position. What still selects mostly non-content is
 * dropped. Precision and recall are counted in words, on the training pages where something was
 * chosen (a page where the learner found no content says nothing about what is content there).
 */
import type { Block, FeatureDocument, PathStep } from '../types/feature-document';
import { SELECTOR_MAX_LENGTH, type SelfCheck } from '../types/rules-document';
import { formatSelector, intersectPaths, pathMatches, tagSequence, type SelectorStep, type SelectorSteps } from './consolidate';
import { stableClasses, stableId, stepSignature } from './names';
import { blockDistance, DEFAULT_WEIGHTS, vectorizeBlock, withinEps, type BlockVector, type FeatureWeights } from './vectorize';

export interface SelfCheckOptions {
  /** A selector selecting a smaller share of content words on the training pages is dropped. */
  readonly minSelectorPrecision: number;
  /** Most selectors kept (the ones selecting the most content words first). */
  readonly maxSelectors: number;
  /** Longest selector kept, in characters. */
  readonly maxSelectorLength?: number;
  /**
   * Per document, per block: not chosen but maybe content (select.ts `uncertain`). Selectors are not
   * tightened to leave these out; precision still counts them as not chosen.
   */
  readonly uncertain?: readonly (readonly boolean[])[];
  /**
   * Blocks this close (vectorize.ts `blockDistance`, their own classes, position and width left out)
   * look alike: the clustering's eps. Without it, chosen blocks named apart at their own element are not split
   * (`splitByOwnNames`).
   */
  readonly kindDistance?: number;
}

export interface CheckedRules {
  /** Selectors, most content words first. */
  readonly selectors: string[];
  readonly steps: SelectorSteps[];
  readonly selfCheck: SelfCheck;
}

interface Item {
  readonly doc: number;
  /** The block, to compare how it looks. */
  readonly block: Block;
  readonly viewportWidth: number;
  readonly path: readonly PathStep[];
  readonly words: number;
  readonly chosen: boolean;
  /** Neither content nor not: ignored when tightening. */
  readonly uncertain: boolean;
}

interface Evaluation {
  readonly chosenWords: number;
  readonly otherWords: number;
}

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

function evaluate(steps: SelectorSteps, pool: readonly Item[]): Evaluation {
  let chosenWords = 0;
  let otherWords = 0;
  for (const it of pool) {
    if (it.uncertain || !pathMatches(steps, it.path)) continue;
    if (it.chosen) chosenWords += it.words;
    else otherWords += it.words;
  }
  return { chosenWords, otherWords };
}

const precisionOf = (e: Evaluation) =>
  e.chosenWords + e.otherWords === 0 ? 1 : e.chosenWords / (e.chosenWords + e.otherWords);

interface RefineOptions {
  readonly minPrecision: number;
  /** Pages each part of a split must have chosen blocks on (a layout's own names, `splitByNamedPaths`, excepted); under 2: one judged page. */
  readonly minPartPages: number;
  /** SelfCheckOptions.kindDistance. */
  readonly kindDistance?: number;
}

interface Refined {
  kept: { steps: SelectorSteps; chosenWords: number }[];
  /** `why`: the reason when it is not the precision. */
  dropped: { steps: SelectorSteps; precision: number; why?: string }[];
}

/** The items grouped by their step's signature (its stable names) at `step`. */
function partsAt(items: readonly Item[], step: number): Map<string, Item[]> {
  const parts = new Map<string, Item[]>();
  for (const c of items) {
    const key = stepSignature(c.path[step]);
    let part = parts.get(key);
    if (!part) parts.set(key, (part = []));
    part.push(c);
  }
  return parts;
}

/** On how many pages the items are. */
const pagesOf = (items: readonly Item[]) => new Set(items.map((c) => c.doc)).size;

/**
 * The template names the boxes it places in one spot (a story's body, its subhead, its byline:
 * `div.storybody`, `div.storysubhead`, `div.storybyline`), and a hand-written rule keeps those
 * names: intersected, they leave a step with no name at the block's own element, which takes
 * whatever the next page puts in that spot (a box of photo links, a subscription offer), even where
 * it took nothing else on the training pages. So each name keeps its selector when the names part
 * kinds of block: no two of them (nor a nameless one) look alike with their own names left out, in
 * style and structure (`lookAlike`). Blocks that look alike under different names are one kind
 * named by position or by page (`li.first`, `li.last` and the next list's nameless middle items; a
 * table's `td.column-1`, `td.column-2`; a heading's `h2#methods`), and keep the nameless selector.
 * Each name must be chosen on two pages or more. A nameless block there chosen on one page only,
 * looking like none of the named ones and a small part of the words chosen in that spot on its page
 * (`ACCIDENT_MAX_SHARE`), is that page's accident and does not widen the rule: it is dropped. A
 * larger one is the page's content in another dress (a body without its class), and the selector
 * stays nameless. True when it split.
 */
function splitByOwnNames(steps: SelectorSteps, chosen: readonly Item[], pool: readonly Item[], opts: RefineOptions, out: Refined): boolean {
  const own = steps.length - 1;
  if (opts.kindDistance === undefined || opts.minPartPages < 2 || steps[own].id !== undefined || steps[own].classes.length > 0) return false;
  const parts = partsAt(chosen, own);
  const named = (part: readonly Item[]) => stableId(part[0].path[own]) !== undefined || stableClasses(part[0].path[own]).length > 0;
  const kept = [...parts.values()].filter(named);
  const nameless = [...parts.values()].filter((part) => !named(part));
  if (!kept.length || kept.some((part) => pagesOf(part) < opts.minPartPages) || nameless.some((part) => pagesOf(part) >= opts.minPartPages)) return false;
  // a nameless block that carries much of what was chosen in that spot on its page is that page's content
  const wordsOn = (items: readonly Item[], doc: number) => items.reduce((n, c) => n + (c.doc === doc ? c.words : 0), 0);
  if (nameless.some((part) => wordsOn(part, part[0].doc) > ACCIDENT_MAX_SHARE * wordsOn(chosen, part[0].doc))) return false;
  const looks = [...kept, ...nameless].map(looksOf);
  for (let i = 0; i < looks.length; i++) for (let j = i + 1; j < looks.length; j++) if (lookAlike(looks[i], looks[j], opts.kindDistance)) return false;
  for (const part of nameless) out.dropped.push({ steps: intersectPaths(part.map((c) => c.path)), precision: 0, why: 'chosen on one page, like no named block, with no name at its own element' });
  for (const part of kept) refine(part, pool, opts, out);
  return true;
}

/** A nameless block chosen on one page is an accident of it when it holds at most this share of the words chosen in its spot there. */
const ACCIDENT_MAX_SHARE = 0.2;

/**
 * How a part's blocks look with their own classes left out (the own id is no feature), and their
 * position and width too: blocks of one kind side by side (a table's columns, an inline list's
 * items) stand at different x. Distinct vectors only, as a part is mostly one: keyed by `values`,
 * which holds every feature `LOOKS` weighs.
 */
function looksOf(part: readonly Item[]): BlockVector[] {
  const seen = new Map<string, BlockVector>();
  for (const c of part) {
    const v = vectorizeBlock(c.block, c.viewportWidth);
    const key = v.values.join('\u0000');
    if (!seen.has(key)) seen.set(key, v);
  }
  return [...seen.values()];
}

const LOOKS: FeatureWeights = { ...DEFAULT_WEIGHTS, classes: 0, x: 0, width: 0 };

/** Whether a block of one part is a neighbour at `distance` of a block of the other (`looksOf`). */
function lookAlike(a: readonly BlockVector[], b: readonly BlockVector[], distance: number): boolean {
  return a.some((x) => b.some((y) => withinEps(blockDistance(x, y, LOOKS), distance)));
}

/**
 * Chosen blocks whose paths carry names, but different ones at every step (a story's
 * `div#content-container > … > div.story-text > p` on the pages of one layout and
 * `div#section-content > … > div.article-text > p` on a redesign's first page) intersect to a
 * selector with no name at all: it takes any block at that depth, on the next page of either layout
 * a caption or a list of links as well as the story. A hand-written extractor names each layout's
 * element. So the blocks are parted at an enclosing element every one of them names (the step that
 * parts them in the fewest, the nearest the blocks on a tie), and each part keeps its own selector,
 * however few pages it is on: unlike a name on one page of a layout, it is the only name its layout
 * gives that spot. A name there that only some of one layout's pages add (`.has-video`) would part
 * them at that step but not at the next one up, which parts them in fewer. The blocks' own element is
 * `splitByOwnNames`'s: under elements that name nothing, a table's `td.column-1` and `td.column-2`
 * stay one selector. Body selectors only, from two judged pages. True when it split.
 */
function splitByNamedPaths(steps: SelectorSteps, chosen: readonly Item[], pool: readonly Item[], opts: RefineOptions, out: Refined): boolean {
  if (opts.kindDistance === undefined || opts.minPartPages < 2 || steps.some((s) => s.id !== undefined || s.classes.length > 0)) return false;
  let best: Item[][] | undefined;
  for (let i = steps.length - 2; i >= 0; i--) {
    const parts = [...partsAt(chosen, i).values()];
    const named = parts.every((part) => stableId(part[0].path[i]) !== undefined || stableClasses(part[0].path[i]).length > 0);
    if (parts.length >= 2 && named && (!best || parts.length < best.length)) best = parts;
  }
  if (!best) return false;
  for (const part of best) refine(part, pool, opts, out);
  return true;
}

/** Tighten the selector of `chosen` (one tag sequence) until it matches no other block of `pool`. */
function refine(chosen: readonly Item[], pool: readonly Item[], opts: RefineOptions, out: Refined): void {
  const steps = intersectPaths(chosen.map((c) => c.path));
  if (splitByOwnNames(steps, chosen, pool, opts, out)) return;
  if (splitByNamedPaths(steps, chosen, pool, opts, out)) return;
  const ev = evaluate(steps, pool);
  if (ev.otherWords === 0) {
    out.kept.push({ steps, chosenWords: ev.chosenWords });
    return;
  }

  // split by the step whose signature best separates chosen from other blocks
  let best: { parts: Item[][]; other: number; step: number } | undefined;
  for (let i = 0; i < steps.length; i++) {
    const parts = partsAt(chosen, i);
    if (parts.size < 2) continue;
    // a part seen on a single page is an accident of that page, not a rule for the next one
    // (unlike a layout named apart at every step: splitByNamedPaths)
    if ([...parts.values()].some((part) => pagesOf(part) < opts.minPartPages)) continue;
    let other = 0;
    for (const part of parts.values()) other += evaluate(intersectPaths(part.map((c) => c.path)), pool).otherWords;
    const candidate = { parts: [...parts.values()], other, step: i };
    if (
      other < ev.otherWords &&
      (!best || other < best.other || (other === best.other && candidate.parts.length < best.parts.length))
    ) {
      best = candidate;
    }
  }
  if (best) {
    for (const part of best.parts) refine(part, pool, opts, out);
    return;
  }

  // pin positions all chosen blocks share, one step at a time, while it removes other blocks
  let current: SelectorStep[] = [...steps];
  let currentEv = ev;
  while (currentEv.otherWords > 0) {
    let next: { steps: SelectorStep[]; ev: Evaluation } | undefined;
    for (let i = 0; i < current.length; i++) {
      if (current[i].nthChild !== undefined) continue;
      const index = chosen[0].path[i].index;
      if (!chosen.every((c) => c.path[i].index === index)) continue;
      const trial = current.map((s, k) => (k === i ? { ...s, nthChild: index } : s));
      const trialEv = evaluate(trial, pool);
      if (trialEv.otherWords < (next?.ev.otherWords ?? currentEv.otherWords)) next = { steps: trial, ev: trialEv };
    }
    if (!next) break;
    current = next.steps;
    currentEv = next.ev;
  }
  const precision = precisionOf(currentEv);
  if (precision < opts.minPrecision) out.dropped.push({ steps: current, precision });
  else out.kept.push({ steps: current, chosenWords: currentEv.chosenWords });
}

/**
 * Fewer classes per step, as a person writing the rule would keep: one per step is enough where it
 * selects no more than all of them did on the training pages. The training posts may all share a
 * category or tag (`article.category-web-tools.hentry.post`), and the next post will not; so classes
 * go first from the rarest on the site, then layout helpers (`clearfix`), then the ones of most
 * words (a category's name), down to one per step.
 */
/** Layout helpers that say nothing about what an element holds: the first to go. */
const LAYOUT_CLASS = /^(?:clearfix|cf|clear|group|row|container|wrapper|inner|outer|left|right|fl|fr|alignleft|alignright|aligncenter|col|span\d*|grid|(?:col|grid|span)[-_].*)$/;

function simplify(steps: SelectorSteps, pool: readonly Item[], pagesWith: ReadonlyMap<string, number>): SelectorSteps {
  const baseline = evaluate(steps, pool).otherWords;
  let current: SelectorStep[] = [...steps];
  for (let i = 0; i < current.length; i++) {
    const order = [...current[i].classes].sort(
      (a, b) =>
        (pagesWith.get(a) ?? 0) - (pagesWith.get(b) ?? 0) ||
        Number(LAYOUT_CLASS.test(b)) - Number(LAYOUT_CLASS.test(a)) ||
        b.split(/[-_]/).length - a.split(/[-_]/).length ||
        b.length - a.length ||
        (a < b ? -1 : 1),
    );
    for (const name of order) {
      if (current[i].classes.length <= 1) break;
      const trial = current.map((s, k) => (k === i ? { ...s, classes: s.classes.filter((c) => c !== name) } : s));
      if (evaluate(trial, pool).otherWords <= baseline) current = trial;
    }
  }
  return current;
}

/** Consolidated, self-checked selectors for the chosen blocks (chosen[doc][block]). */
export function buildSelectors(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  options: SelfCheckOptions,
): CheckedRules {
  const maxLength = options.maxSelectorLength ?? SELECTOR_MAX_LENGTH;
  const pools = new Map<string, Item[]>();
  const chosenBySeq = new Map<string, Item[]>();
  // pages where nothing was chosen say nothing about what is content there: leave them out
  const judged = judgedPages(chosen);
  docs.forEach((doc, d) =>
    doc.blocks.forEach((b, i) => {
      if (b.path.length === 0 || !judged.has(d)) return;
      const key = tagSequence(b.path);
      const isChosen = chosen[d]?.[i] ?? false;
      const item: Item = {
        doc: d,
        block: b,
        viewportWidth: doc.viewport.width,
        path: b.path,
        words: b.words,
        chosen: isChosen,
        uncertain: !isChosen && (options.uncertain?.[d]?.[i] ?? false),
      };
      let pool = pools.get(key);
      if (!pool) pools.set(key, (pool = []));
      pool.push(item);
      if (item.chosen) {
        let c = chosenBySeq.get(key);
        if (!c) chosenBySeq.set(key, (c = []));
        c.push(item);
      }
    }),
  );

  // on how many pages each class is, anywhere: the rarer, the likelier it names one post's category or tag
  const pagesWith = new Map<string, number>();
  for (const doc of docs) {
    const names = new Set<string>();
    for (const b of doc.blocks) for (const step of b.path) for (const c of step.classes) names.add(c);
    for (const c of names) pagesWith.set(c, (pagesWith.get(c) ?? 0) + 1);
  }

  const refineOptions: RefineOptions = {
    minPrecision: options.minSelectorPrecision,
    minPartPages: Math.min(2, judged.size),
    ...(options.kindDistance !== undefined ? { kindDistance: options.kindDistance } : {}),
  };
  const adjusted: string[] = [];
  const kept = new Map<string, { steps: SelectorSteps; chosenWords: number }>();
  for (const [key, items] of chosenBySeq) {
    const original = formatSelector(intersectPaths(items.map((c) => c.path)));
    const result: Refined = { kept: [], dropped: [] };
    refine(items, pools.get(key)!, refineOptions, result);
    const keptStrings = result.kept.map((k) => formatSelector(k.steps));
    if (!(keptStrings.length === 1 && keptStrings[0] === original && result.dropped.length === 0)) {
      if (keptStrings.length > 0) adjusted.push(`tightened: ${original} → ${keptStrings.join(' | ')}`);
      for (const d of result.dropped) {
        const s = formatSelector(d.steps);
        adjusted.push(`dropped: ${s}${s === original ? '' : ` (from ${original})`} (${d.why ?? `precision ${round4(d.precision)}`})`);
      }
    }
    for (const k of result.kept) {
      k.steps = simplify(k.steps, pools.get(key)!, pagesWith);
      const s = formatSelector(k.steps);
      const prev = kept.get(s);
      kept.set(s, { steps: k.steps, chosenWords: (prev?.chosenWords ?? 0) + k.chosenWords });
    }
  }

  let ranked = [...kept.entries()].sort((a, b) => b[1].chosenWords - a[1].chosenWords || (a[0] < b[0] ? -1 : 1));
  for (const [s] of ranked.filter(([s]) => s.length > maxLength)) adjusted.push(`dropped: ${s.slice(0, 200)}… (longer than ${maxLength})`);
  ranked = ranked.filter(([s]) => s.length <= maxLength);
  for (const [s] of ranked.slice(options.maxSelectors)) adjusted.push(`dropped: ${s} (over ${options.maxSelectors} selectors)`);
  ranked = ranked.slice(0, options.maxSelectors);

  const steps = ranked.map(([, v]) => v.steps);
  const metrics = measureSelectors(docs, chosen, steps);
  return {
    selectors: ranked.map(([s]) => s),
    steps,
    selfCheck: { pages: judged.size, recall: metrics.recall, precision: metrics.precision, adjusted },
  };
}

export interface SelectorMetrics {
  /** Share of the chosen blocks' words the selectors select. */
  readonly recall: number;
  /** Share of the selected words that are chosen blocks' words. */
  readonly precision: number;
  readonly chosenWords: number;
  readonly selectedWords: number;
}

/** The pages with at least one chosen block. */
export function judgedPages(chosen: readonly (readonly boolean[])[]): Set<number> {
  const pages = new Set<number>();
  chosen.forEach((row, d) => {
    if (row.some(Boolean)) pages.add(d);
  });
  return pages;
}

/**
 * Word precision and recall of selectors against the chosen blocks, rounded to 4 decimals, on the
 * pages with at least one chosen block.
 */
export function measureSelectors(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  selectors: readonly SelectorSteps[],
): SelectorMetrics {
  const bySeq = new Map<string, SelectorSteps[]>();
  for (const s of selectors) {
    const key = s.map((st) => st.tag).join('>');
    let list = bySeq.get(key);
    if (!list) bySeq.set(key, (list = []));
    list.push(s);
  }
  let chosenWords = 0;
  let selectedWords = 0;
  let both = 0;
  const judged = judgedPages(chosen);
  docs.forEach((doc, d) =>
    doc.blocks.forEach((b, i) => {
      if (!judged.has(d)) return;
      const isChosen = chosen[d]?.[i] ?? false;
      const candidates = bySeq.get(tagSequence(b.path));
      const selected = candidates !== undefined && candidates.some((s) => pathMatches(s, b.path));
      if (isChosen) chosenWords += b.words;
      if (selected) selectedWords += b.words;
      if (isChosen && selected) both += b.words;
    }),
  );
  return {
    recall: chosenWords === 0 ? 0 : round4(both / chosenWords),
    precision: selectedWords === 0 ? 0 : round4(both / selectedWords),
    chosenWords,
    selectedWords,
  };
}
