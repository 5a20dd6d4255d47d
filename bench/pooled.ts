/**
 * Several dataset folders in one run (`npm run bench -- a b c d`): one row per set and a pooled row
 * over all of them, ours beside every peer, on the pages of learned sites (with --train 0, no site is
 * learned and every page goes through the fallback: then on every scored page). The pooled figures
 * aggregate the pages of every set as one set (mean per-page precision and recall, F1 of the two,
 * as lib/metric does), so a set counts by its pages. Where every page holds the other scoring's
 * figures (`perPage[].otherScoring`: body alone when the run scored title+body, and the reverse), the
 * same table in that scoring too, from the same run. Also runnable alone on saved JSON results:
 *
 *   npx tsx bench/pooled.ts a.json b.json …
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { splitLabel } from './report';
import type { BenchResult, PageFigures, PageResult } from './run';
import { round, seededRandom } from './stats';

export interface PooledFigures {
  readonly pages: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  /** Bootstrap standard deviation of F1 (1,000 resamples of the pages). */
  readonly f1Std: number | null;
}

export interface PooledRow {
  readonly set: string;
  readonly pages: number;
  readonly ours: PooledFigures;
  readonly peers: Record<string, PooledFigures>;
  readonly bestPeer?: { readonly name: string; readonly f1: number };
  /** ours F1 − best peer F1. */
  readonly delta?: number;
  /** ours' apply median on these pages; Readability's median over it. */
  readonly applyMsMedian?: number | null;
  readonly readabilityOverApply?: number | null;
}

export interface PooledResult {
  /** `learned`: the learned-site pages; `all`: every scored page (no run learned a site, --train 0). */
  readonly group: 'learned' | 'all';
  /** The runs' scoring (title+body or body). */
  readonly scoring?: string;
  readonly sets: PooledRow[];
  readonly pooled: PooledRow;
  /** The same rows in the other scoring, when every page holds it. */
  readonly other?: PooledResult;
}

type PickFigures = (p: PageResult) => Pick1 | undefined;
type Pick1 = Pick<PageFigures, 'precision' | 'recall'>;

function aggregate(rows: readonly Pick1[], idx: ArrayLike<number>): { precision: number; recall: number; f1: number } {
  let pSum = 0, pN = 0, rSum = 0, rN = 0;
  for (let k = 0; k < idx.length; k++) {
    const r = rows[idx[k]];
    if (r.precision !== null) { pSum += r.precision; pN++; }
    if (r.recall !== null) { rSum += r.recall; rN++; }
  }
  const precision = pN ? pSum / pN : 0;
  const recall = rN ? rSum / rN : 0;
  return { precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Figures of per-page precision/recall rows, as lib/metric aggregates them, with a bootstrap F1 deviation. */
export function pooledFigures(rows: readonly Pick1[], resamples = 1000): PooledFigures {
  if (rows.length === 0) return { pages: 0, precision: null, recall: null, f1: null, f1Std: null };
  const base = aggregate(rows, Array.from(rows.keys()));
  const random = seededRandom(42);
  const f1s: number[] = [];
  const idx = new Uint32Array(rows.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < rows.length; i++) idx[i] = Math.floor(random() * rows.length);
    f1s.push(aggregate(rows, idx).f1);
  }
  const m = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  const std = Math.sqrt(f1s.reduce((a, v) => a + (v - m) ** 2, 0) / f1s.length);
  return { pages: rows.length, precision: round(base.precision), recall: round(base.recall), f1: round(base.f1), f1Std: round(std) };
}

const medianOf = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)] + s[Math.ceil(mid)]) / 2;
};

function rowOf(set: string, pages: readonly PageResult[], peerNames: readonly string[]): PooledRow {
  const pick = (f: PickFigures) => pages.map(f).filter((x): x is Pick1 => x !== undefined);
  const ours = pooledFigures(pick((p) => p.ours));
  const peers: Record<string, PooledFigures> = {};
  let best: PooledRow['bestPeer'];
  for (const name of peerNames) {
    peers[name] = pooledFigures(pick((p) => p.peers[name]));
    const f = peers[name].f1;
    if (f !== null && (!best || best.f1 < f)) best = { name, f1: f };
  }
  const applyMs = medianOf(pages.map((p) => p.applyMs).filter((x): x is number => x !== undefined));
  const readMs = medianOf(pages.map((p) => p.peers.readability?.ms).filter((x): x is number => x !== undefined));
  return {
    set,
    pages: pages.length,
    ours,
    peers,
    ...(best ? { bestPeer: best } : {}),
    ...(best && ours.f1 !== null ? { delta: round(ours.f1 - best.f1) ?? undefined } : {}),
    applyMsMedian: applyMs === null ? null : round(applyMs, 2),
    readabilityOverApply: applyMs && readMs ? round(readMs / applyMs, 1) : null,
  };
}

type Results = ReadonlyArray<Pick<BenchResult, 'dataset' | 'perPage' | 'options'>>;

/**
 * One row per set and the pooled row, on the pages of learned sites (every scored page when no run
 * learned a site); and in the other scoring where the runs hold it.
 */
export function poolResults(results: Results): PooledResult {
  const peerNames = [...new Set(results.flatMap((r) => r.options.peers))].filter((n) => results.every((r) => r.options.peers.includes(n)));
  const group: PooledResult['group'] = results.some((r) => r.perPage.some((p) => p.group === 'learned')) ? 'learned' : 'all';
  const learned = (r: (typeof results)[number]) => r.perPage.filter((p) => group === 'all' || p.group === 'learned');
  const scorings = new Set(results.map((r) => r.options.scoring));
  const others = new Set(results.flatMap((r) => r.perPage.map((p) => p.otherScoring?.scoring)));
  const otherScoring = others.size === 1 ? [...others][0] : undefined;
  const inOther = (p: PageResult): PageResult => {
    const o = p.otherScoring!;
    return { ...p, ours: { ...p.ours, ...o.ours }, peers: Object.fromEntries(Object.entries(p.peers).map(([n, f]) => [n, { ...f, ...o.peers[n] }])) };
  };
  return {
    group,
    ...(scorings.size === 1 ? { scoring: [...scorings][0] } : {}),
    sets: results.map((r) => rowOf(r.dataset, learned(r), peerNames)),
    pooled: rowOf('pooled', results.flatMap(learned), peerNames),
    ...(otherScoring
      ? { other: { group, scoring: otherScoring, sets: results.map((r) => rowOf(r.dataset, learned(r).map(inOther), peerNames)), pooled: rowOf('pooled', results.flatMap(learned).map(inOther), peerNames) } }
      : {}),
  };
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));

export function formatPooled(p: PooledResult): string {
  const peerNames = Object.keys(p.pooled.peers);
  const header = [p.group === 'learned' ? 'set (learned-site pages)' : 'set (every page)', 'pages', 'ours F1', ...peerNames, 'best peer', 'Δ', 'apply ms', 'readab./apply'];
  const rows = [...p.sets, p.pooled].map((r) => [
    r.set,
    String(r.pages),
    r.ours.f1 === null ? '-' : `${f3(r.ours.f1)} ± ${f3(r.ours.f1Std)}`,
    ...peerNames.map((n) => f3(r.peers[n]?.f1)),
    r.bestPeer ? `${r.bestPeer.name} ${f3(r.bestPeer.f1)}` : '-',
    r.delta === undefined ? '-' : (r.delta >= 0 ? '+' : '') + r.delta.toFixed(3),
    r.applyMsMedian === null || r.applyMsMedian === undefined ? '-' : r.applyMsMedian.toFixed(2),
    r.readabilityOverApply ? `${r.readabilityOverApply}×` : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const lines = [fmt(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  rows.forEach((r, i) => {
    if (i === rows.length - 1) lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
    lines.push(fmt(r));
  });
  lines.push(`pooled: the ${p.group === 'learned' ? 'learned-site' : 'scored'} pages of every set as one set (a set weighs by its pages); Δ: ours − best peer on the same pages`);
  const table = lines.join('\n');
  if (!p.other) return table;
  return `scoring: ${p.scoring ?? '?'}\n${table}\n\nscoring: ${p.other.scoring ?? '?'} (same run)\n${formatPooled(p.other)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = process.argv.slice(2);
  // a file holds one set's result, or several (`{ sets: [...] }`, as a run of several folders writes it)
  const read = async (f: string) => JSON.parse(await readFile(f, 'utf8')) as BenchResult | { sets: BenchResult[] };
  const results = (await Promise.all(files.map(read))).flatMap((r) => ('sets' in r ? r.sets : [r]));
  // pages learned from in one run are scored in another: such rows are not one set of pages; and
  // rows of two fallback models are not one extractor's
  const splits = [...new Set(results.map((r) => splitLabel(r.options)))];
  if (splits.length > 1) {
    process.stderr.write(`pooled: the results split the sites' pages differently or used other fallback models (${splits.join('; ')}): pool runs of one split and one model\n`);
    process.exit(2);
  }
  process.stdout.write(`=== ${results.length} sets, ${splits[0] ?? ''} ===\n` + formatPooled(poolResults(results)) + '\n');
}
