/**
 * Rules for what the next pages' article bodies hold and the training pages' did not.
 *
 * Five training pages may have paragraphs only, and the sixth a list, a table of steps in <pre>, a
 * subhead or a quote. The selectors learned from the blocks then take its paragraphs and miss the
 * rest. A hand-written extractor names the body's element instead; the learned equivalent is to
 * add, for the selectors that take the body's paragraphs (`… > div.entry > p`), the other prose
 * children of that same element (`… > div.entry > ul > li`, `… > div.entry > h3`, …), each checked
 * on the training pages: one that takes blocks the learner did not choose there, and that say what
 * other pages say too (a widget's list inside the body element), is not added. A left-out block of
 * its own page's text (the author's list of links, which the learner leaves out as links) does not
 * count against it.
 */
import type { FeatureDocument } from '../types/feature-document';
import { formatSelector, pathMatches, tagSequence, type SelectorStep, type SelectorSteps } from './consolidate';
import { PageTexts } from './repeated-texts';

/** What else an article body's element holds, as steps below it. */
const BODY_CHILDREN: readonly (readonly string[])[] = [
  ['p'],
  ['ul', 'li'],
  ['ol', 'li'],
  ['blockquote'],
  ['blockquote', 'p'],
  ['h2'],
  ['h3'],
  ['h4'],
  ['pre'],
];

export interface GeneralizeOptions {
  /** A selector is the body's when it ends in <p> and takes at least this share of the chosen words. */
  readonly minBodyShare: number;
  /** Smallest precision (words) on the training pages for an added selector. */
  readonly minPrecision: number;
}

export const DEFAULT_GENERALIZE_OPTIONS: GeneralizeOptions = { minBodyShare: 0.25, minPrecision: 0.9 };

export interface Generalized {
  /** The selectors' steps, the added ones after the others. */
  readonly steps: SelectorSteps[];
  /** The added selectors. */
  readonly added: string[];
}

export function generalizeBodySelectors(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  selectors: readonly SelectorSteps[],
  options: GeneralizeOptions = DEFAULT_GENERALIZE_OPTIONS,
): Generalized {
  // a widget's list says the same on other pages, an author's list of links says its own thing (the
  // learner leaves both out as links)
  const texts = new PageTexts(docs);
  // blocks by tag sequence, with their chosen flag
  const blocks = new Map<string, { path: FeatureDocument['blocks'][number]['path']; words: number; chosen: boolean; own: boolean }[]>();
  let chosenTotal = 0;
  docs.forEach((doc, d) =>
    doc.blocks.forEach((b, i) => {
      const key = tagSequence(b.path);
      let list = blocks.get(key);
      if (!list) blocks.set(key, (list = []));
      const isChosen = chosen[d]?.[i] ?? false;
      list.push({ path: b.path, words: b.words, chosen: isChosen, own: !texts.repeated(b.text) });
      if (isChosen) chosenTotal += b.words;
    }),
  );
  /** Words the candidate takes that were chosen, and that were left out and say what other pages say too. */
  const evaluate = (steps: SelectorSteps) => {
    let mine = 0;
    let other = 0;
    for (const b of blocks.get(steps.map((s) => s.tag).join('>')) ?? []) {
      if (!pathMatches(steps, b.path)) continue;
      if (b.chosen) mine += b.words;
      else if (!b.own) other += b.words;
    }
    return { mine, other };
  };

  const existing = new Set(selectors.map(formatSelector));
  const out: SelectorSteps[] = [...selectors];
  const added: string[] = [];
  for (const steps of selectors) {
    if (steps.length < 2 || steps[steps.length - 1].tag !== 'p') continue;
    if (chosenTotal === 0 || evaluate(steps).mine < options.minBodyShare * chosenTotal) continue;
    const parent = steps.slice(0, -1);
    for (const child of BODY_CHILDREN) {
      const candidate: SelectorStep[] = [...parent, ...child.map((tag) => ({ tag, classes: [] }))];
      const s = formatSelector(candidate);
      if (existing.has(s)) continue;
      const { mine, other } = evaluate(candidate);
      if (mine + other > 0 && mine / (mine + other) < options.minPrecision) continue;
      existing.add(s);
      out.push(candidate);
      added.push(s);
    }
  }
  return { steps: out, added };
}
