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
import type { FeatureDocument } from '../types/feature-document';
import { formatSelector, intersectPaths } from './consolidate';

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
      const raw = b.selector;
      let kind = memo.get(raw);
      if (kind === undefined) memo.set(raw, (kind = formatSelector(intersectPaths([b.path]))));
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
  const sim: number[][] = kinds.map((a, i) => kinds.map((b, j) => (i === j ? 1 : j < i ? 0 : jaccard(a, b))));
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) sim[i][j] = sim[j][i];
  const linkage = (g: readonly number[], h: readonly number[]) => {
    let s = 0;
    for (const i of g) for (const j of h) s += sim[i][j];
    return s / (g.length * h.length);
  };

  const groups = all.map((i) => [i]);
  for (;;) {
    let best = -1;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const s = linkage(groups[i], groups[j]);
        if (s > best) [best, bi, bj] = [s, i, j];
      }
    }
    if (bi < 0 || best < opts.minSimilarity) break;
    groups[bi] = [...groups[bi], ...groups[bj]].sort((a, b) => a - b);
    groups.splice(bj, 1);
  }

  groups.sort((a, b) => b.length - a.length || a[0] - b[0]);
  const kept = groups.filter((g) => g.length >= opts.minPages).slice(0, opts.maxTemplates);
  if (kept.length < 2) return [all];
  // a page of a layout too rare to learn alone is learned with the template most like it
  for (const g of groups) {
    if (kept.includes(g)) continue;
    for (const i of g) {
      let nearest = kept[0];
      let most = -1;
      for (const k of kept) {
        const s = linkage([i], k);
        if (s > most) [most, nearest] = [s, k];
      }
      nearest.push(i);
    }
  }
  return kept.map((g) => g.sort((a, b) => a - b));
}

/**
 * Per group, the selectors that tell its pages from the others': kinds on at least half of its
 * pages and on no page of another group, those on the most of its pages first (ties: by selector),
 * at most `maxLayoutSelectors`. A group whose pages share no kind of their own gets none.
 */
export function layoutSelectors(kinds: readonly ReadonlySet<string>[], groups: readonly (readonly number[])[], options: Partial<TemplateOptions> = {}): string[][] {
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
  return groups.map((g, gi) => {
    const own: [string, number][] = [];
    for (const [k, c] of counts) {
      if (c[gi] * 2 < g.length) continue;
      if (c.some((n, gj) => gj !== gi && n > 0)) continue;
      own.push([k, c[gi]]);
    }
    return own
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, max)
      .map(([k]) => k);
  });
}
