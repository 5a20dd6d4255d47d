/**
 * What a hand-written extractor cleans out (Postlight Parser's `clean`), learned from the training
 * pages:
 *
 * - a selector whose blocks say the same thing on every page ("Like this:", "Share this:") is the
 *   template's, not the article's: it is dropped;
 * - where a selector also takes blocks the learner left out, and those carry a class no chosen block
 *   it takes has (`div.entry > p.postmeta` beside the body's bare `div.entry > p`), that element is
 *   cleaned: `… > div.entry > p.postmeta` goes to `content.clean`.
 */
import type { FeatureDocument } from '../types/feature-document';
import { normalizeText } from '../fields/text';
import { formatSelector, pathMatches, type SelectorSteps } from './consolidate';

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
