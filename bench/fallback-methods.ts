/**
 * Score the single-page fallback's methods on a dataset, each alone and combined, next to
 * Readability.js on jsdom as the reference, on the same pages in the same run. Every page goes
 * through every method; time per page is parse included (htmlparser2 for ours, jsdom for
 * Readability), methods interleaved page by page so machine load hits all alike.
 *
 *   npx tsx bench/fallback-methods.ts /work/shared/datasets/dragnet-sites
 *     [--methods combined,dragnet,...] [--no-readability] [--limit N] [--worst K] [--json out.json] [--model file.json]
 *
 * Methods: see lib/fallback/index.ts (`combined` is what lib/apply/fallback.ts serves).
 */
import { writeFile } from 'node:fs/promises';
import { parseHtml } from '../lib/html/parse';
import { METHODS, type FallbackModel } from '../lib/fallback';
import { readDataset } from '../lib/dataset/dataset';
import { pageF1, scorePage, type PageScore } from '../lib/metric/metric';
import { htmlToText } from './html-text';
import { readModelFile } from './model-file';
import { loadReadability } from './readability';
import { aggregateWithBootstrap, median, quantile } from './stats';

type Runner = (html: string, url: string) => Promise<{ text: string; notArticle?: boolean }>;

async function readabilityRunner(): Promise<Runner> {
  const parse = await loadReadability();
  return async (html, url) => {
    const article = parse(html, url);
    return { text: article?.content ? htmlToText(article.content) : '' };
  };
}

interface Row {
  id: string;
  f1: number;
  ms: number;
  notArticle: boolean;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dir = args.find((a, i) => !a.startsWith('--') && !(i > 0 && ['--methods', '--limit', '--worst', '--json', '--model'].includes(args[i - 1])));
  if (!dir) throw new Error('usage: bench/fallback-methods.ts <dataset dir> [--methods a,b] [--no-readability] [--limit N] [--worst K] [--json out.json] [--model file.json]');
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const limit = Number(opt('--limit') ?? Infinity);
  const worst = Number(opt('--worst') ?? 0);
  const names = (opt('--methods') ?? Object.keys(METHODS).join(',')).split(',').filter(Boolean);
  for (const n of names) if (!METHODS[n]) throw new Error(`unknown method ${n}; known: ${Object.keys(METHODS).join(', ')}`);
  const modelPath = opt('--model');
  const model: FallbackModel | undefined = modelPath ? (await readModelFile(modelPath, '--model')).model : undefined;

  const runners = new Map<string, Runner>();
  for (const n of names) {
    const m = METHODS[n];
    runners.set(n, async (html, url) => m(parseHtml(html), { baseUrl: url, model }));
  }
  if (!args.includes('--no-readability')) runners.set('readability.js', await readabilityRunner());

  const dataset = await readDataset(dir);
  const entries = dataset.entries.slice(0, limit);
  const urlOf = (e: (typeof entries)[number]) => e.url ?? `http://unknown.invalid/${e.id}`;

  // Warm up every method (JIT, lazy model parsing) on a few pages.
  for (const e of entries.slice(0, 5)) {
    const html = await e.html();
    for (const r of runners.values()) await r(html, urlOf(e));
  }

  const scores = new Map<string, PageScore[]>([...runners.keys()].map((k) => [k, []]));
  const rows = new Map<string, Row[]>([...runners.keys()].map((k) => [k, []]));
  const texts: Record<string, Record<string, string>> = {};
  for (const e of entries) {
    const html = await e.html();
    const gold = await e.gold();
    for (const [name, run] of runners) {
      const t0 = performance.now();
      const out = await run(html, urlOf(e));
      const ms = performance.now() - t0;
      const s = scorePage(out.text, gold);
      scores.get(name)!.push(s);
      rows.get(name)!.push({ id: e.id, f1: pageF1(s), ms, notArticle: out.notArticle === true });
      if (opt('--json')) (texts[e.id] ??= {})[name] = out.text;
    }
  }

  const f = (x: number) => x.toFixed(3);
  console.log(`${dataset.name}: ${entries.length} pages, every page through each method; time = parse + extract, per page`);
  console.log('method            F1              precision  recall  accuracy  median ms  p90 ms  notArticle');
  const summary: Record<string, unknown> = {};
  for (const name of runners.keys()) {
    const agg = aggregateWithBootstrap(scores.get(name)!);
    const ms = rows.get(name)!.map((r) => r.ms);
    const flagged = rows.get(name)!.filter((r) => r.notArticle).length;
    summary[name] = { ...agg, msMedian: median(ms), msP90: quantile(ms, 0.9), notArticle: flagged };
    console.log(
      `${name.padEnd(17)} ${f(agg.f1)} ± ${f(agg.std.f1)}   ${f(agg.precision)}      ${f(agg.recall)}   ${f(agg.accuracy)}     ${median(ms).toFixed(1).padStart(6)}   ${quantile(ms, 0.9).toFixed(1).padStart(6)}   ${flagged}`,
    );
  }
  for (const name of runners.keys()) {
    const flagged = rows.get(name)!.filter((r) => r.notArticle);
    if (flagged.length) console.log(`${name} notArticle on: ${flagged.slice(0, 15).map((r) => r.id).join(', ')}${flagged.length > 15 ? ', …' : ''}`);
  }
  if (worst > 0) {
    for (const name of runners.keys()) {
      console.log(`worst pages, ${name}:`);
      for (const r of [...rows.get(name)!].sort((a, b) => a.f1 - b.f1).slice(0, worst)) console.log(`  ${r.id}  F1 ${f(r.f1)}${r.notArticle ? '  notArticle' : ''}`);
    }
  }
  const jsonPath = opt('--json');
  if (jsonPath) {
    const perPage = entries.map((e, i) => ({
      id: e.id,
      ...Object.fromEntries([...runners.keys()].map((n) => [n, { f1: rows.get(n)![i].f1, ms: rows.get(n)![i].ms, notArticle: rows.get(n)![i].notArticle }])),
    }));
    await writeFile(jsonPath, JSON.stringify({ dataset: dataset.name, summary, perPage, texts }, null, 1));
    console.log(`wrote ${jsonPath}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
