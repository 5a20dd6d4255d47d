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
 *   learner may leave out but a reader reads), unless that selector would take or hold a chosen block;
 * - so are such blocks inside the body's elements that are mostly links whatever they say, when the
 *   template shows them (on every page the page-level extractor's labels judge, weak-labels.ts) and
 *   the labels left them out: a box of related stories' headlines inside the story's container
 *   leads away from the article, though each page links other stories (a roundup post's links,
 *   which the labels keep, and a post's own list of links, which other posts lack, stay).
 */
import type { FeatureDocument } from '../types/feature-document';
import { normalizeText } from '../text/match';
import { formatSelector, intersectPaths, pathMatches, pathOrAncestorMatches, tagSequence, type SelectorSteps } from './consolidate';
import { PageTexts } from './repeated-texts';
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
        if (!pathMatches(s, b.path)) return;
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
 * Clean selectors for the left-out blocks inside the elements the selectors take whole. `labels`
 * (the body's call only): the page-level extractor's, judging on the pages where they kept half or
 * more of the chosen blocks' words.
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
    const inside = (path: Path) => path.length > s.length && pathOrAncestorMatches(s, path);
    const left = new Map<string, LeftOut>();
    const leftOut = new Set<string>();
    const kept: Path[] = [];
    // the judging pages on which the selector takes an element with blocks inside
    const judged = new Set<number>();
    docs.forEach((doc, d) => {
      if (!chosen[d]?.some(Boolean)) return;
      doc.blocks.forEach((b, i) => {
        if (!inside(b.path)) return;
        if (judging[d]) judged.add(d);
        if (chosen[d][i]) return void kept.push(b.path);
        const key = tagSequence(b.path);
        let g = left.get(key);
        if (!g) left.set(key, (g = { paths: [], pages: new Set(), texts: [], links: 0, judged: new Set(), labelledWords: 0, keptWords: 0 }));
        // characters, not words: a sentence written without spaces is one "word", its link another
        if (b.chars > 0 && 2 * b.linkChars >= b.chars) g.links++;
        const label = judging[d];
        if (label) {
          g.judged.add(d);
          g.labelledWords += b.words;
          if (label[i]) g.keptWords += b.words;
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
      if (!isLinkBox(g, judged) && g.texts.filter((t) => texts.repeated(t)).length < 0.8 * g.texts.length) continue;
      const below = intersectPaths(g.paths).slice(s.length);
      if (!below.some((step) => step.id || step.classes.length > 0)) continue;
      const steps = [...s, ...below];
      // nor what holds a chosen block
      if (kept.some((p) => pathOrAncestorMatches(steps, p))) continue;
      out.add(formatSelector(steps));
    }
  }
  return [...out];
}

type Path = FeatureDocument['blocks'][number]['path'];

/** The left-out blocks of one tag path inside a selector's elements. */
interface LeftOut {
  readonly paths: Path[];
  readonly pages: Set<number>;
  readonly texts: string[];
  /** Blocks with half or more of their characters in links. */
  links: number;
  /** The judging pages they are on, their words there, and those the labels kept. */
  readonly judged: Set<number>;
  labelledWords: number;
  keptWords: number;
}

/**
 * A box of links the template shows: every block mostly links, on every judging page (two or more)
 * where the selector takes something, and left out by the labels there (a roundup post's links,
 * which the labels keep, or a post's own list, which other posts lack, stay).
 */
function isLinkBox(g: LeftOut, judged: ReadonlySet<number>): boolean {
  return g.links === g.texts.length && judged.size >= 2 && g.judged.size === judged.size && g.keptWords < LABEL_AGREEMENT * g.labelledWords;
}
