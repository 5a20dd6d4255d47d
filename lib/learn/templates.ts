/**
 * A site's templates: its training pages grouped by layout, each group to be learned on its own
 * (learn-rules.ts), and what tells a page of one template from the others' (its layout selectors).
 *
 * The reason in one sentence: pages of one template are built of the same kinds of block, and
 * rules learned from pages of one layout fit that layout better than rules learned from a mix (two
 * blogs under one domain, a news site's story and its blog post, an old and a new layout).
 *
 * A page's layout is the set of its blocks' kinds: their tag paths with the site's stable ids and
 * classes (names.ts withSiteStableNames, intersectPaths), as CSS selectors. Two pages' similarity
 * is the Jaccard index of those sets; pages are grouped by average linkage while the groups are at
 * least `minSimilarity` alike. Pages of one template share most of their kinds (0.6 to 1 on the
 * benchmark sites), pages of two templates little beyond the site's chrome.
 */
import type { FeatureDocument, PathStep } from '../types/feature-document';
import { SELECTOR_MAX_LENGTH } from '../types/rules-document';
import { formatSelector, intersectPaths, namedPath, parseSelector, pathMatches, tagSequence } from './consolidate';

export interface TemplateOptions {
  /** Average Jaccard similarity of two groups' layouts at which they are one template. */
  readonly minSimilarity: number;
  /** Pages a group needs to be learned as a template of its own; smaller groups join the nearest. */
  readonly minPages: number;
  /** Most templates kept (the largest groups); the other pages join the nearest kept one. */
  readonly maxTemplates: number;
  /** Most layout selectors per template. */
  readonly maxLayoutSelectors: number;
}

export const DEFAULT_TEMPLATE_OPTIONS: TemplateOptions = {
  minSimilarity: 0.3,
  minPages: 2,
  maxTemplates: 8,
  maxLayoutSelectors: 10,
};

/** Per document, the kinds of its blocks as CSS selectors (stable names only: pass documents through withSiteStableNames). */
export function layoutKinds(docs: readonly FeatureDocument[]): Set<string>[] {
  const memo = new Map<string, string>();
  return docs.map((d) => {
    const kinds = new Set<string>();
    for (const b of d.blocks) {
      if (b.path.length === 0) continue;
      const named = namedPath(b.path);
      let kind = memo.get(named);
      if (kind === undefined) memo.set(named, (kind = formatSelector(intersectPaths([b.path]))));
      kinds.add(kind);
    }
    return kinds;
  });
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const k of a) if (b.has(k)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * The documents' indices grouped by layout, largest group first (ties: the group of the earlier
 * document first). One group holding every document when fewer than two groups reach `minPages`.
 */
export function groupByLayout(kinds: readonly ReadonlySet<string>[], options: Partial<TemplateOptions> = {}): number[][] {
  const opts = { ...DEFAULT_TEMPLATE_OPTIONS, ...options };
  const n = kinds.length;
  const all = [...Array(n).keys()];
  if (n < 2 * opts.minPages) return [all];
  const sim: number[][] = kinds.map(() => new Array<number>(n).fill(1));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) sim[i][j] = sim[j][i] = jaccard(kinds[i], kinds[j]);

  // average linkage: the similarity of two groups is the mean of their pages' pairs; sum[a][b]
  // holds the sum over the pairs of groups a and b, updated on each merge (Lance and Williams)
  const members: (number[] | undefined)[] = all.map((i) => [i]);
  const sum = sim.map((row) => [...row]);
  for (;;) {
    let best = -1;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < n; i++) {
      const gi = members[i];
      if (!gi) continue;
      for (let j = i + 1; j < n; j++) {
        const gj = members[j];
        if (!gj) continue;
        const s = sum[i][j] / (gi.length * gj.length);
        if (s > best) [best, bi, bj] = [s, i, j];
      }
    }
    if (bi < 0 || best < opts.minSimilarity) break;
    members[bi] = [...members[bi]!, ...members[bj]!].sort((a, b) => a - b);
    members[bj] = undefined;
    for (let k = 0; k < n; k++) sum[bi][k] = sum[k][bi] = sum[bi][k] + sum[bj][k];
  }

  const bySize = (a: readonly number[], b: readonly number[]) => b.length - a.length || a[0] - b[0];
  const groups = members.filter((g): g is number[] => g !== undefined).sort(bySize);
  const kept = groups.filter((g) => g.length >= opts.minPages).slice(0, opts.maxTemplates);
  if (kept.length < 2) return [all];
  // a page of a layout too rare to learn alone is learned with the template most like it, as the
  // templates were before any such page joined them (so the order of the pages does not matter)
  const joined = kept.map((g) => [...g]);
  for (const g of groups) {
    if (kept.includes(g)) continue;
    for (const i of g) {
      let nearest = 0;
      let most = -1;
      kept.forEach((k, t) => {
        const s = k.reduce((acc, j) => acc + sim[i][j], 0) / k.length;
        if (s > most) [most, nearest] = [s, t];
      });
      joined[nearest].push(i);
    }
  }
  return joined.map((g) => g.sort((a, b) => a - b)).sort(bySize);
}

/**
 * Per group, the selectors that tell its pages from the others': kinds on at least half of its
 * pages that match no element of another group's pages, those on the most of its pages first
 * (ties: by selector), at most `maxLayoutSelectors`. A kind is tested as apply tests it, as a CSS
 * selector against every element the other pages' blocks lie in (`pages`: the documents with all
 * their names, in the order of `kinds`): `body > div` names a block written straight into a
 * template's wrapper, and matches every other template's wrapper too. A group whose pages share no
 * kind of their own gets none.
 */
export function layoutSelectors(
  kinds: readonly ReadonlySet<string>[],
  groups: readonly (readonly number[])[],
  pages: readonly FeatureDocument[],
  options: Partial<TemplateOptions> = {},
): string[][] {
  const max = options.maxLayoutSelectors ?? DEFAULT_TEMPLATE_OPTIONS.maxLayoutSelectors;
  const groupOf = new Map<number, number>();
  groups.forEach((g, gi) => g.forEach((i) => groupOf.set(i, gi)));
  // kind → pages per group
  const counts = new Map<string, number[]>();
  kinds.forEach((set, i) => {
    const gi = groupOf.get(i);
    if (gi === undefined) return;
    for (const k of set) {
      let c = counts.get(k);
      if (!c) counts.set(k, (c = groups.map(() => 0)));
      c[gi]++;
    }
  });
  const elements = pages.map(elementPaths);
  const matchesElsewhere = (kind: string, gi: number) => {
    const steps = parseSelector(kind);
    if (!steps) return true;
    const key = tagSequence(steps);
    return groups.some((g, gj) => gj !== gi && g.some((i) => elements[i].get(key)?.some((path) => pathMatches(steps, path))));
  };
  return groups.map((g, gi) => {
    const own: [string, number][] = [];
    for (const [k, c] of counts) if (c[gi] * 2 >= g.length) own.push([k, c[gi]]);
    own.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const out: string[] = [];
    for (const [k] of own) {
      if (out.length >= max) break;
      // a selector longer than a rules document holds (deep paths of long class lists) is skipped
      if (k.length <= SELECTOR_MAX_LENGTH && !matchesElsewhere(k, gi)) out.push(k);
    }
    return out;
  });
}

/** The elements a page's blocks lie in (every step of their paths), by tag sequence. */
function elementPaths(doc: FeatureDocument): Map<string, PathStep[][]> {
  const out = new Map<string, PathStep[][]>();
  const seen = new Set<string>();
  for (const b of doc.blocks) {
    for (let n = 1; n <= b.path.length; n++) {
      const path = b.path.slice(0, n);
      const named = namedPath(path);
      if (seen.has(named)) continue;
      seen.add(named);
      const key = tagSequence(path);
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      list.push(path);
    }
  }
  return out;
}
