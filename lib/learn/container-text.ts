/**
 * The article's own text in its body element. Blogger, old CMSs and hand-written pages put the
 * article's prose straight into the body element (`<div class="post-body">Intro text<br>…
 * <blockquote>…</blockquote></div>`): that text's closest block is the body element itself, the
 * parent of the chosen blocks, which is larger than their bounding box and so never "inside" it.
 * Such a parent block is chosen when its own text is prose (few links, enough words, at least a tenth
 * of the chosen words inside it: a wrapper with one stray line is not such a body) on at least two
 * pages: its selector then takes the body element whole, the chosen blocks inside it included.
 */
import type { FeatureDocument, PathStep } from '../types/feature-document';
import { namedPath } from './consolidate';

export interface ContainerTextOptions {
  /** Fewest words of own text. */
  readonly minWords: number;
  /** Largest share of the own text's words in links. */
  readonly maxLinkShare: number;
  /** Fewest pages with such a parent. */
  readonly minPages: number;
  /** Smallest share its own text must make of the chosen blocks' words inside it on that page. */
  readonly minOwnShare: number;
}

export const DEFAULT_CONTAINER_TEXT_OPTIONS: ContainerTextOptions = { minWords: 10, maxLinkShare: 0.3, minPages: 2, minOwnShare: 0.1 };

const stepKey = (s: PathStep) => `${s.tag}:${s.index}`;
const pathKey = (path: readonly PathStep[]) => path.map(stepKey).join('>');

/** The chosen mask with the body elements' own text added; the blocks added. */
export function chooseContainerText(
  docs: readonly FeatureDocument[],
  chosen: readonly (readonly boolean[])[],
  options: ContainerTextOptions = DEFAULT_CONTAINER_TEXT_OPTIONS,
): { chosen: boolean[][]; added: number } {
  const candidates: Array<{ doc: number; block: number; kind: string }> = [];
  docs.forEach((doc, d) => {
    const parents = new Set<string>();
    doc.blocks.forEach((b, i) => {
      if (chosen[d]?.[i] && b.path.length > 1) parents.add(pathKey(b.path.slice(0, -1)));
    });
    // the chosen blocks' words under each parent
    const inside = new Map<string, number>();
    doc.blocks.forEach((b, i) => {
      if (chosen[d]?.[i] && b.path.length > 1) {
        const k = pathKey(b.path.slice(0, -1));
        inside.set(k, (inside.get(k) ?? 0) + b.words);
      }
    });
    doc.blocks.forEach((b, i) => {
      if (chosen[d]?.[i] || !parents.has(pathKey(b.path))) return;
      if (b.words < options.minWords || b.linkWords > options.maxLinkShare * b.words) return;
      // a wrapper with a stray line of its own is not a body written straight into its element
      if (b.words < options.minOwnShare * (inside.get(pathKey(b.path)) ?? 0)) return;
      candidates.push({ doc: d, block: i, kind: namedPath(b.path) });
    });
  });
  const pagesOfKind = new Map<string, Set<number>>();
  for (const c of candidates) {
    let p = pagesOfKind.get(c.kind);
    if (!p) pagesOfKind.set(c.kind, (p = new Set()));
    p.add(c.doc);
  }
  const out = chosen.map((m) => [...m]);
  let added = 0;
  for (const c of candidates) {
    if ((pagesOfKind.get(c.kind)?.size ?? 0) < options.minPages) continue;
    out[c.doc][c.block] = true;
    added++;
  }
  return { chosen: out, added };
}
