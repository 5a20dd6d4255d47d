/**
 * What a hand-written extractor cleans out (Postlight Parser's `clean`), learned from the training
 * pages:
 *
 * - a selector whose blocks say the same thing on every page ("Like this:", "Share this:") is the
 *   template's, not the article's: it is dropped;
 * - where a selector also takes blocks the learner left out, and those carry a class no chosen block
 *   it takes has (`div.entry > p.postmeta` beside the body's bare `div.entry > p`), that element is
 *   cleaned: `… > div.entry > p.postmeta` goes to `content.clean`;
 * - a selector taking an element whole takes what is inside it too: blocks inside it the learner left
 *   out, of one kind (tag path) on two pages or more, named (an id or class below the selector) and
 *   saying what they say on other pages too, are cleaned (the author's links "View Profile · Email ·
 *   RSS" inside a byline, "HIDE CAPTION" inside a story's container; not a dateline, which the
 *   learner may leave out but a reader reads), unless that selector would take a chosen block too;
 * - so are such blocks that are all links (`isLinkList`) whatever they say, where the page-level
 *   extractor's labels (weak-labels.ts) left most of their words out too, on the pages where they
 *   found the article the learner found: a box of related stories'
 *   headlines inside the story's container leads away from the article, though each page links
 *   other stories (a link roundup's list, which the page-level extractor keeps, stays).
 */
import type { FeatureDocument } from '../types/feature-document';
import { normalizeText } from '../text/match';
import { formatSelector, intersectPaths, pathMatches, tagSequence, type SelectorSteps } from './consolidate';
import { PageTexts } from './repeated-texts';
import { isLinkList } from './tfidf';
import { LABEL_AGREEMENT, type WeakLabels } from './weak-labels';

export interface Cleaned {
  /** The selectors left, in order. */
  readonly steps: SelectorSteps[];
  /** Selectors dropped because their text is the same on every page. */
  readonly dropped: string[];
  /** Selectors of elements to clean out of the content. */
  readonly clean: string[];
}

export function learnClean(docs: readonly FeatureDocument[], chosen: readonly (readonly boolean[])[], selectors: readonly SelectorSteps[]): Cleaned {
  const steps: SelectorSteps[] = [];
  const dropped: string[] = [];
  const clean = new Set<string>();
  for (const s of selectors) {
    const texts = new Set<string>();
    const pages = new Set<number>();
    // classes of the blocks it takes: on chosen blocks, and on left-out ones (with their pages)
    const chosenClasses = new Set<string>();
    const otherClasses = new Map<string, Set<number>>();
    docs.forEach((doc, d) =>
      doc.blocks.forEach((b, i) => {
        if (b.path.length !== s.length || !pathMatches(s, b.path)) return;
        const last = b.path[b.path.length - 1];
        const names = [...last.classes.map((c) => `.${c}`), ...(last.id ? [`#${last.id}`] : [])];
        if (chosen[d]?.[i]) {
          pages.add(d);
          texts.add(normalizeText(b.text));
          for (const n of names) chosenClasses.add(n);
        } else {
          for (const n of names) {
            let p = otherClasses.get(n);
            if (!p) otherClasses.set(n, (p = new Set()));
            p.add(d);
          }
        }
      }),
    );
    if (pages.size >= 2 && texts.size === 1) {
      dropped.push(formatSelector(s));
      continue;
    }
    steps.push(s);
    for (const [name, onPages] of otherClasses) {
      if (chosenClasses.has(name) || onPages.size < 2) continue;
      const last = s[s.length - 1];
      const step = name.startsWith('#') ? { ...last, id: name.slice(1), classes: [] } : { ...last, classes: [name.slice(1)] };
      clean.add(formatSelector([...s.slice(0, -1), step]));
    }
  }
  return { steps, dropped, clean: [...clean] };
}

/**
 * Clean selectors for the left-out blocks inside the elements the selectors take whole. `labels`:
 * the page-level extractor's, judging on the pages where they kept most of the chosen blocks' words.
 */
export function cleanDescendants(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  selectors: readonly SelectorSteps[],
  labels?: WeakLabels,
): string[] {
  const out = new Set<string>();
  const judging = docs.map((doc, d) => {
    const label = labels?.[d];
    if (!label) return undefined;
    let words = 0;
    let kept = 0;
    doc.blocks.forEach((b, i) => {
      if (!chosen[d]?.[i]) return;
      words += b.words;
      if (label[i]) kept += b.words;
    });
    return words > 0 && kept >= LABEL_AGREEMENT * words ? label : undefined;
  });
  for (const s of selectors) {
    const inside = (path: FeatureDocument['blocks'][number]['path']) => path.length > s.length && pathMatches(s, path.slice(0, s.length));
    const left = new Map<string, { paths: FeatureDocument['blocks'][number]['path'][]; pages: Set<number>; texts: string[]; links: number; labelled: number; kept: number }>();
    const leftOut = new Set<string>();
    const kept: FeatureDocument['blocks'][number]['path'][] = [];
    docs.forEach((doc, d) => {
      if (!chosen[d]?.some(Boolean)) return;
      doc.blocks.forEach((b, i) => {
        if (!inside(b.path)) return;
        if (chosen[d][i]) return void kept.push(b.path);
        const key = tagSequence(b.path);
        let g = left.get(key);
        if (!g) left.set(key, (g = { paths: [], pages: new Set(), texts: [], links: 0, labelled: 0, kept: 0 }));
        if (isLinkList(b)) g.links++;
        const label = judging[d];
        if (label) {
          g.labelled += b.words;
          if (label[i]) g.kept += b.words;
        }
        g.paths.push(b.path);
        g.pages.add(d);
        g.texts.push(b.text);
        leftOut.add(`${d}:${i}`);
      });
    });
    // what the left-out blocks say elsewhere among themselves
    const texts = new PageTexts(docs, (d, i) => leftOut.has(`${d}:${i}`));
    for (const g of left.values()) {
      if (g.pages.size < 2) continue;
      // a box of links the page-level extractor left out too (a roundup post's links it keeps)
      const links = g.links === g.texts.length && g.labelled > 0 && g.kept < LABEL_AGREEMENT * g.labelled;
      if (!links && g.texts.filter((t) => texts.repeated(t)).length < 0.8 * g.texts.length) continue;
      const below = intersectPaths(g.paths).slice(s.length);
      if (!below.some((step) => step.id || step.classes.length > 0)) continue;
      const steps = [...s, ...below];
      if (kept.some((p) => p.length === steps.length && pathMatches(steps, p))) continue;
      out.add(formatSelector(steps));
    }
  }
  return [...out];
}
