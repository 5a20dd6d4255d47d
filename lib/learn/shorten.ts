/**
 * Selectors as a person writes them for a site: from the named container the content sits in,
 * not from <body>. `body > div#page > div.main > div.post > div.entry-content > p` takes, on every
 * training page, what `div.entry-content > p` takes, so the rules say the latter, as a hand-written
 * extractor would (Postlight's custom extractors: `.entry-content p`). A wrapper the next page adds
 * or drops above the container then does not lose the article.
 *
 * A selector is cut to its shortest tail that starts at a step with an id or a class above the
 * element it selects, and that takes no block the rules did not take on any page they were learned
 * from; its steps with an id are written by the id alone where that takes no more such block.
 * Taking follows apply (lib/html/extract-with-rules.ts): a block is taken when a selector matches
 * its element or an ancestor. A selector no such tail serves (of the MAX_TAIL_STARTS named steps
 * nearest its element) stays whole.
 *
 * The pages are read as they were rendered, every id and class kept (not with the site's stable
 * names only, names.ts): a tail is matched against the page as CSS will match it. A block whose path
 * was cut (nested deeper than the feature document records, or named at such length that its
 * selector was cut) has ancestors nobody knows: any tail may take it, so on a site whose training
 * pages hold one the rules stay whole, as they were learned.
 */
import type { FeatureDocument, PathStep } from '../types/feature-document';
import { formatSelector, formatStep, matchesFrom, parseSelector, pathOrAncestorMatches, type SelectorSteps } from './consolidate';

/** Named steps tried as a tail's start, nearest the element first; past them the selector stays whole. */
export const MAX_TAIL_STARTS = 6;

/** Whether a selector matching at any depth matches the element at the end of `path` or an ancestor. */
function anywhereTakes(steps: SelectorSteps, path: readonly PathStep[]): boolean {
  for (let start = 0; start + steps.length <= path.length; start++) if (matchesFrom(steps, path, start)) return true;
  return false;
}

/**
 * Whether a selector of the rules (parseRuleSelector's) takes the block at `path`, as apply takes
 * it: the selector matches the block's element or an ancestor.
 */
export function selectorTakes(selector: { readonly steps: SelectorSteps; readonly rooted: boolean }, path: readonly PathStep[]): boolean {
  return selector.rooted ? pathOrAncestorMatches(selector.steps, path) : anywhereTakes(selector.steps, path);
}

const named = (s: SelectorSteps[number]) => s.id !== undefined || s.classes.length > 0;

/** A block's path as its selector records it: cut when it does not start at <body>. */
const isCut = (b: FeatureDocument['blocks'][number]) => b.path.length > 0 && !b.selector.startsWith('body > ');

const pathKey = (path: readonly PathStep[]) => JSON.stringify(path);

/**
 * The selectors' texts, in order, each text once: each selector's shortest tail from a named
 * container that takes on each of `docs` only blocks the selectors together take (a tail takes all
 * its whole selector takes, and may take more); the whole selector, from <body>, where no tail does.
 * Together, the texts take on the pages exactly what the selectors took: the same content at two
 * depths (a page with a wrapper more) becomes one text. `docs` are the pages as rendered.
 */
export function shortestSelectors(selectors: readonly SelectorSteps[], docs: readonly FeatureDocument[]): string[] {
  // a block whose ancestors are unknown may be taken by any tail
  if (docs.some((d) => d.blocks.some(isCut))) return [...new Set(selectors.map(formatSelector))];
  // what a tail must not take: the blocks no selector takes, each distinct path once, found by the
  // names on them (a tail starts at a named step, so only paths with that name can match it)
  const byName = new Map<string, (readonly PathStep[])[]>();
  const seen = new Set<string>();
  for (const d of docs) {
    for (const b of d.blocks) {
      if (selectors.some((s) => pathOrAncestorMatches(s, b.path))) continue;
      const key = pathKey(b.path);
      if (seen.has(key)) continue;
      seen.add(key);
      const names = new Set<string>();
      for (const step of b.path) for (const n of namesOf(step)) names.add(n);
      for (const n of names) {
        let list = byName.get(n);
        if (!list) byName.set(n, (list = []));
        list.push(b.path);
      }
    }
  }
  const takesNone = (tail: SelectorSteps) => (byName.get(namesOf(tail[0])[0]) ?? []).every((p) => !anywhereTakes(tail, p));
  const texts = selectors.map((steps) => {
    let tried = 0;
    for (let start = steps.length - 2; start >= 0 && tried < MAX_TAIL_STARTS; start--) {
      if (!named(steps[start])) continue;
      tried++;
      const tail = steps.slice(start);
      // an id usually names one element of a page (where a training page repeats it, the classes and
      // position stay): they only tell pages apart, and a page without them (a layout modifier, one
      // more sibling) would lose the article
      if (tail.some((step) => step.id !== undefined && (step.classes.length > 0 || step.nthChild !== undefined))) {
        const byId = tail.map((step) => (step.id !== undefined ? { tag: step.tag, id: step.id, classes: [] } : step));
        if (takesNone(byId)) return byId.map(formatStep).join(' > ');
      }
      if (takesNone(tail)) return tail.map(formatStep).join(' > ');
    }
    return formatSelector(steps);
  });
  return [...new Set(texts)];
}

/** A step's names as keys (`div#main`, `div.entry`): an element a step with one of them matches has it. */
function namesOf(step: { readonly tag: string; readonly id?: string; readonly classes: readonly string[] }): string[] {
  const tag = step.tag.toLowerCase();
  return [...(step.id !== undefined ? [`${tag}#${step.id}`] : []), ...step.classes.map((c) => `${tag}.${c}`)];
}

/** shortestSelectors for selectors as formatSelector wrote them; one it cannot read stays as it is. */
export function shortestSelectorTexts(selectors: readonly string[], docs: readonly FeatureDocument[]): string[] {
  const parsed = selectors.map((s) => parseSelector(s));
  const readable = parsed.filter((p): p is NonNullable<typeof p> => p !== null);
  const short = shortestSelectors(readable, docs);
  return [...new Set([...short, ...selectors.filter((_, i) => parsed[i] === null)])];
}
