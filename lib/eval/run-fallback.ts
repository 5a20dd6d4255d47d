/**
 * Score the single-page fallback extractor on a dataset and time the instant path (parse +
 * metadata + extract) per page:
 *
 *   npx tsx lib/eval/run-fallback.ts /work/shared/datasets/dragnet-sites [--limit N] [--worst K]
 */
import { extractFallback } from '../apply/fallback';
import { extractMetadata } from '../apply/metadata';
import { parseHtml } from '../apply/parse';
import { readDataset } from './dataset';
import { aggregateWithBootstrap, scorePage, type PageScore } from './metric';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) throw new Error('usage: run-fallback.ts <dataset dir> [--limit N] [--worst K]');
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const limit = opt('--limit') ?? Infinity;
  const worst = opt('--worst') ?? 0;
  const dataset = await readDataset(dir);
  const entries = dataset.entries.slice(0, limit);

  const scores: PageScore[] = [];
  const rows: Array<{ id: string; kb: number; parseMs: number; extractMs: number; f1: number; notArticle: boolean; reason: string }> = [];
  // Warm up the JIT on a few pages so timings reflect a warm Lambda.
  for (const e of entries.slice(0, 5)) extractFallback(parseHtml(await e.html()));

  for (const e of entries) {
    const html = await e.html();
    const gold = await e.gold();
    const t0 = performance.now();
    const doc = parseHtml(html);
    const t1 = performance.now();
    extractMetadata(doc);
    const result = extractFallback(doc, { baseUrl: e.url ?? undefined });
    const t2 = performance.now();
    const s = scorePage(result.text, gold);
    scores.push(s);
    const p = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0;
    const r = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : 0;
    rows.push({
      id: e.id,
      kb: Buffer.byteLength(html) / 1024,
      parseMs: t1 - t0,
      extractMs: t2 - t1,
      f1: p + r ? (2 * p * r) / (p + r) : 0,
      notArticle: result.notArticle,
      reason: result.reason,
    });
  }

  const agg = aggregateWithBootstrap(scores);
  const f = (x: number) => x.toFixed(3);
  console.log(`${dataset.name}: ${agg.pages} pages`);
  console.log(`precision ${f(agg.precision)} ± ${f(agg.std.precision)}  recall ${f(agg.recall)} ± ${f(agg.std.recall)}  F1 ${f(agg.f1)} ± ${f(agg.std.f1)}  accuracy ${f(agg.accuracy)} ± ${f(agg.std.accuracy)}`);
  const flagged = rows.filter((r) => r.notArticle);
  console.log(`notArticle flagged on ${flagged.length} pages${flagged.length ? ': ' + flagged.slice(0, 20).map((r) => `${r.id} (${r.reason})`).join(', ') : ''}`);

  const total = rows.map((r) => r.parseMs + r.extractMs).sort((a, b) => a - b);
  const q = (p: number) => total[Math.min(total.length - 1, Math.floor(p * total.length))];
  console.log(`time per page (parse + metadata + fallback): median ${q(0.5).toFixed(1)} ms, p90 ${q(0.9).toFixed(1)} ms, max ${q(1).toFixed(1)} ms`);
  const big = rows.filter((r) => r.kb >= 120 && r.kb <= 200);
  if (big.length) {
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `pages of 120-200 KB (${big.length}): parse ${avg(big.map((r) => r.parseMs)).toFixed(1)} ms, metadata + extract ${avg(big.map((r) => r.extractMs)).toFixed(1)} ms on average`,
    );
  }
  if (worst > 0) {
    console.log('worst pages:');
    for (const r of [...rows].sort((a, b) => a.f1 - b.f1).slice(0, worst)) console.log(`  ${r.id}  F1 ${f(r.f1)}${r.notArticle ? '  notArticle: ' + r.reason : ''}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
