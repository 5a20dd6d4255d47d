/**
 * The article-body metric of the Zyte/Scrapinghub article-extraction-benchmark, as the public
 * datasets' README states it (docs/datasets.md):
 *
 * 1. tokens: maximal runs of word characters, case kept: Python's `re.findall(r'\w+', text)`.
 *    Python's `\w` on str is letters (L*), numbers (Nd, Nl, No) and the underscore; it does NOT
 *    include combining marks (Mn, Mc), so Devanagari "हिन्दी" gives three tokens there and here.
 * 2. shingles: the multiset of 4-grams of consecutive tokens; 1–3 tokens give one shingle of all
 *    of them; no tokens give none.
 * 3. per page: tp = Σ min(g, p), fp = Σ max(0, p − g), fn = Σ max(0, g − p), each divided by
 *    tp + fp + fn.
 * 4. precision: mean of tp/(tp+fp) over pages with tp+fp > 0; recall: mean of tp/(tp+fn) over pages
 *    with tp+fn > 0 (fp = fn = 0 scores 1 on both).
 * 5. F1 = 2PR/(P+R) of the two means.
 * 6. accuracy: share of pages whose predicted token sequence equals the gold one.
 * Uncertainty: standard deviation over 1,000 bootstrap resamples of the pages (seeded).
 */

/** Python 3 `\w` (str patterns): Unicode letters, numbers and the underscore. */
const TOKEN = /[\p{L}\p{N}_]+/gu;

export const SHINGLE_SIZE = 4;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Multiset of shingles, keyed by the tokens joined with a separator no token contains. */
export function shingles(tokens: readonly string[], n = SHINGLE_SIZE): Map<string, number> {
  const out = new Map<string, number>();
  if (tokens.length === 0) return out;
  if (tokens.length < n) {
    out.set(tokens.join('\u0000'), 1);
    return out;
  }
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export interface PageScore {
  /** Normalised by tp + fp + fn (all 0 when both texts have no shingles). */
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  /** Predicted token sequence equals the gold token sequence. */
  readonly exact: boolean;
}

export function scorePage(predicted: string, gold: string): PageScore {
  const pt = tokenize(predicted);
  const gt = tokenize(gold);
  const p = shingles(pt);
  const g = shingles(gt);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [s, pc] of p) {
    const gc = g.get(s) ?? 0;
    tp += Math.min(pc, gc);
    if (pc > gc) fp += pc - gc;
  }
  for (const [s, gc] of g) {
    const pc = p.get(s) ?? 0;
    if (gc > pc) fn += gc - pc;
  }
  const total = tp + fp + fn;
  const exact = pt.length === gt.length && pt.every((t, i) => t === gt[i]);
  if (total === 0) return { tp: 0, fp: 0, fn: 0, exact };
  return { tp: tp / total, fp: fp / total, fn: fn / total, exact };
}

/**
 * A page's F1: 2·tp / (2·tp + fp + fn), the harmonic mean of its precision and recall; 1 for two
 * texts without a word (a text shorter than a shingle is one shingle of all its words).
 */
export function pageF1(s: PageScore): number {
  if (s.tp + s.fp + s.fn === 0) return 1;
  return (2 * s.tp) / (2 * s.tp + s.fp + s.fn);
}

export interface Aggregate {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly accuracy: number;
  readonly pages: number;
}

/** The aggregate over the pages at `indices` (a page may repeat: a bootstrap resample). */
export function aggregateIndices(scores: readonly PageScore[], indices: ArrayLike<number>): Aggregate {
  let pSum = 0;
  let pN = 0;
  let rSum = 0;
  let rN = 0;
  let exact = 0;
  for (let k = 0; k < indices.length; k++) {
    const s = scores[indices[k]];
    if (s.tp + s.fp > 0) {
      pSum += s.tp / (s.tp + s.fp);
      pN++;
    }
    if (s.tp + s.fn > 0) {
      rSum += s.tp / (s.tp + s.fn);
      rN++;
    }
    if (s.exact) exact++;
  }
  const precision = pN ? pSum / pN : 0;
  const recall = rN ? rSum / rN : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const pages = indices.length;
  return { precision, recall, f1, accuracy: pages ? exact / pages : 0, pages };
}

export function aggregate(scores: readonly PageScore[]): Aggregate {
  return aggregateIndices(scores, Array.from(scores.keys()));
}
