/**
 * Selectors as a person writes them for a site: from the named container the content sits in,
 * not from <body>. `body > div#page > div.main > div.post > div.entry-content > p` takes, on every
 * training page, what `div.entry-content > p` takes, so the rules say the latter, as a hand-written
 * extractor would (Postlight's custom extractors: `.entry-content p`). A wrapper the next page adds
 * or drops above the container then does not lose the article.
 *
 * A selector is cut to its shortest tail that starts at a step with an id or a class above the
 * element it selects, and that takes no block the rules did not take on any page they were learned
 * from. Taking follows apply (lib/html/extract-with-rules.ts): a block is taken when a selector
 * matches its element or an ancestor. A selector no such tail serves stays whole.
 */
import type { FeatureDocument, PathStep } from '../types/feature-document';
import { formatSelector, formatStep, stepMatches, type SelectorSteps } from './consolidate';

/** Whether `steps` match `path` from position `start` on, step for step. */
function matchesAt(steps: SelectorSteps, path: readonly PathStep[], start: number): boolean {
  for (let i = 0; i < steps.length; i++) if (!stepMatches(steps[i], path[start + i])) return false;
  return true;
}

/** Whether a selector anchored at <body> matches the element at the end of `path` or an ancestor. */
function rootedTakes(steps: SelectorSteps, path: readonly PathStep[]): boolean {
  return path.length >= steps.length && matchesAt(steps, path, 0);
}

/** Whether a selector matching at any depth matches the element at the end of `path` or an ancestor. */
function anywhereTakes(steps: SelectorSteps, path: readonly PathStep[]): boolean {
  for (let start = 0; start + steps.length <= path.length; start++) if (matchesAt(steps, path, start)) return true;
  return false;
}

/**
 * Whether a selector of the rules (parseRuleSelector's) takes the block at `path`, as apply takes
 * it: the selector matches the block's element or an ancestor.
 */
export function selectorTakes(selector: { readonly steps: SelectorSteps; readonly rooted: boolean }, path: readonly PathStep[]): boolean {
  return selector.rooted ? rootedTakes(selector.steps, path) : anywhereTakes(selector.steps, path);
}

const named = (s: SelectorSteps[number]) => s.id !== undefined || s.classes.length > 0;

/**
 * The selectors' texts, in order, each text once: each selector's shortest tail from a named
 * container that takes on each of `docs` only blocks the selectors together take (a tail takes all
 * its whole selector takes, and may take more); the whole selector, from <body>, where no tail does.
 * Together, the texts take on the pages exactly what the selectors took: the same content at two
 * depths (a page with a wrapper more) becomes one text.
 */
export function shortestSelectors(selectors: readonly SelectorSteps[], docs: readonly FeatureDocument[]): string[] {
  const taken = docs.map((d) => d.blocks.map((b) => selectors.some((s) => rootedTakes(s, b.path))));
  const texts = selectors.map((steps) => {
    for (let start = steps.length - 2; start >= 0; start--) {
      if (!named(steps[start])) continue;
      const tail = steps.slice(start);
      if (docs.every((d, i) => d.blocks.every((b, j) => taken[i][j] || !anywhereTakes(tail, b.path)))) return tail.map(formatStep).join(' > ');
    }
    return formatSelector(steps);
  });
  return [...new Set(texts)];
}
