/**
 * How learning grows with the number of pages: render 100+ pages of a generated three-template site
 * once (cached like the datasets), then time the pure learner (`learnRules`) and the learn step
 * (in-memory store: read + validate the feature documents, learn, write the rules) on the newest
 * 10, 25, 50 and 100 pages. One core: everything runs on this thread.
 */
import path from 'node:path';
import { loadConfig, type Config } from '../lib/config/config';
import { articlesOf, generateSite, pageHtml } from '../lib/demo/index';
import { learnRules } from '../lib/learn/learn-rules';
import { learnStep } from '../lib/learn/learn-step';
import { silentLogger } from '../lib/step/context';
import { keys } from '../lib/store/keys';
import { MemoryStore } from '../lib/store/memory-store';
import { putJson } from '../lib/store/store';
import type { FeatureDocument } from '../lib/types/feature-document';
import { BenchRenderer, recordingQueues } from './render';
import { median, round } from './stats';

export interface ScalingRow {
  readonly pages: number;
  readonly blocks: number;
  /** Median of the timed runs of learnRules. */
  readonly learnRulesMs: number;
  readonly learnStepMs: number;
  readonly selectors: number;
}

export interface ScalingResult {
  readonly site: string;
  readonly templates: number;
  readonly rows: ScalingRow[];
  /** Slope of log(time) over log(pages) from the smallest to the largest size. */
  readonly exponent: number | null;
}

const ORIGIN = 'http://scaling.localhost';

export async function runLearnScaling(options: {
  cacheRoot?: string;
  refresh?: boolean;
  sizes?: readonly number[];
  runs?: number;
  config?: Partial<Config>;
  log?: (line: string) => void;
}): Promise<ScalingResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const sizes = options.sizes ?? [10, 25, 50, 100];
  const runs = options.runs ?? 3;
  const largest = Math.max(...sizes);
  const templates = 3;
  const site = generateSite({ seed: 'bench-learn-scaling', pagesPerTemplate: Math.ceil(largest / templates), templates });
  const articles = articlesOf(site).slice(0, largest); // newest first, templates interleaved
  const config = loadConfig({ ...options.config });

  const renderer = new BenchRenderer({ config, cacheDir: options.cacheRoot ? path.join(options.cacheRoot, 'learn-scaling') : undefined, refresh: options.refresh });
  const docs: FeatureDocument[] = [];
  try {
    for (const a of articles) {
      const url = ORIGIN + a.path;
      const page = await renderer.render(a.path.replace(/[^A-Za-z0-9._-]/g, '_'), url, pageHtml(site, a.path, ORIGIN));
      if (!page.features) throw new Error(`render of ${url} failed: ${page.error}`);
      docs.push(page.features);
    }
  } finally {
    await renderer.close();
  }
  log(`learn scaling: ${docs.length} generated pages (${renderer.rendered} rendered, ${renderer.fromCache} from cache)`);

  const { rows, exponent } = await timeLearning(docs, sizes, runs, config, log);
  return { site: `generated site (${templates} templates, seed bench-learn-scaling)`, templates, rows, exponent };
}

/**
 * Time learnRules (median of `runs`) and the learn step (once) on the first n documents for each size.
 * Sizes larger than the documents at hand are left out.
 */
export async function timeLearning(
  docs: readonly FeatureDocument[],
  sizes: readonly number[],
  runs: number,
  config: Config,
  log: (line: string) => void,
): Promise<{ rows: ScalingRow[]; exponent: number | null }> {
  const learnOptions = { eps: config.dbscanEps, minPts: config.dbscanMinPts };
  learnRules(docs.slice(0, Math.min(10, docs.length)), learnOptions); // warm-up
  const rows: ScalingRow[] = [];
  for (const n of sizes) {
    if (n > docs.length) continue;
    const subset = docs.slice(0, n);
    const times: number[] = [];
    let selectors = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const learned = learnRules(subset, learnOptions);
      times.push(performance.now() - t);
      selectors = learned.content.selectors.length;
    }
    const store = new MemoryStore();
    for (const d of subset) await putJson(store, keys.features('scaling.localhost', d.pageId), d);
    const stepConfig = { ...config, learnPages: n };
    const t = performance.now();
    await learnStep({ v: 1, site: 'scaling.localhost', force: true }, { store, queues: recordingQueues(), config: stepConfig, logger: silentLogger });
    const stepMs = performance.now() - t;
    const row: ScalingRow = {
      pages: n,
      blocks: subset.reduce((s, d) => s + d.blocks.length, 0),
      learnRulesMs: round(median(times), 1)!,
      learnStepMs: round(stepMs, 1)!,
      selectors,
    };
    rows.push(row);
    log(`  ${n} pages (${row.blocks} blocks): learnRules ${row.learnRulesMs} ms, learn step ${row.learnStepMs} ms, ${selectors} selectors`);
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  const exponent = rows.length > 1 && first.learnRulesMs > 0 ? Math.log(last.learnRulesMs / first.learnRulesMs) / Math.log(last.pages / first.pages) : null;
  return { rows, exponent: exponent === null ? null : round(exponent, 2) };
}

export function formatScaling(s: ScalingResult): string {
  const lines = [`learn scaling on ${s.site}:`, 'pages  blocks  learnRules ms  learn step ms  selectors'];
  for (const r of s.rows) {
    lines.push(`${String(r.pages).padStart(5)}  ${String(r.blocks).padStart(6)}  ${r.learnRulesMs.toFixed(1).padStart(13)}  ${r.learnStepMs.toFixed(1).padStart(13)}  ${String(r.selectors).padStart(9)}`);
  }
  if (s.exponent !== null) lines.push(`time grows as pages^${s.exponent} (from ${s.rows[0].pages} to ${s.rows[s.rows.length - 1].pages} pages)`);
  return lines.join('\n');
}
