/**
 * What the page-level evidence costs a render (issue 14: Mozilla Readability in the page, the
 * rendered and served text counts): `npx tsx bench/render-cost.ts <dataset dir>... [--rounds 1]
 * [--seed 1] [--json out.json]`.
 *
 * Every page of every set is rendered from its archived HTML (as the bench renders it: no network)
 * by two renderers, one with the evidence and one without (RendererOptions.withoutPageEvidence),
 * one after the other in a random order, `rounds` times. A render's time is `Renderer.render`'s wall
 * clock. On this shared machine the time of one page moves by tens of percent between renders, and
 * a set's render times are steep around their median, so the figures are paired: each page's mean
 * time with and without, the growth of the median (with a bootstrap interval over the pages), and
 * the median of the per-page differences and ratios. The pooled row takes every page of every set.
 * The seed fixes the order of the renders and the bootstrap's resamples (the sets in the same
 * order); the times themselves differ from run to run.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../lib/config/config';
import { scriptArgs } from '../lib/util/script-args';
import { readDataset } from '../lib/dataset/dataset';
import { Renderer } from '../lib/render/browser';
import { placeholderUrl } from './render';
import { mean, median, quantile, round, seededRandom } from './stats';

const { values: args, positionals } = scriptArgs(
  {
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      json: { type: 'string' },
    },
  },
  'usage: npx tsx bench/render-cost.ts <dataset dir>... [--rounds 1] [--seed 1] [--json out.json]',
);
const say = (line: string) => process.stderr.write(line + '\n');

interface PageTimes {
  readonly set: string;
  readonly id: string;
  /** Render times with the evidence, ms. */
  readonly with: number[];
  readonly without: number[];
}

export interface CostRow {
  readonly set: string;
  readonly pages: number;
  /** Medians over the pages of each page's mean render time, ms. */
  readonly medianWith: number | null;
  readonly medianWithout: number | null;
  /** medianWith / medianWithout − 1, and its 95% bootstrap interval over the pages. */
  readonly growth: number | null;
  readonly growthInterval: readonly [number | null, number | null];
  /** Medians of the per-page differences (ms) and ratios − 1. */
  readonly medianDifferenceMs: number | null;
  readonly medianRatio: number | null;
}

/** The paired figures of a set of pages (pages rendered both ways only). */
export function costRow(set: string, pages: readonly { with: number; without: number }[], random: () => number, resamples = 1000): CostRow {
  const growthOf = (sample: readonly { with: number; without: number }[]) =>
    median(sample.map((p) => p.with)) / median(sample.map((p) => p.without)) - 1;
  const boots: number[] = [];
  for (let r = 0; r < resamples && pages.length; r++) boots.push(growthOf(pages.map(() => pages[Math.floor(random() * pages.length)])));
  return {
    set,
    pages: pages.length,
    medianWith: round(median(pages.map((p) => p.with)), 1),
    medianWithout: round(median(pages.map((p) => p.without)), 1),
    growth: round(growthOf(pages)),
    growthInterval: [round(quantile(boots, 0.025)), round(quantile(boots, 0.975))],
    medianDifferenceMs: round(median(pages.map((p) => p.with - p.without)), 1),
    medianRatio: round(median(pages.map((p) => p.with / p.without - 1))),
  };
}

export function formatCostRows(rows: readonly CostRow[]): string {
  const pct = (x: number | null) => (x === null ? '-' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);
  const ms = (x: number | null) => (x === null ? '-' : x.toFixed(0));
  const lines = [
    '| set | pages | median render, with / without (ms) | growth of the median (95% interval) | per page: median difference | median ratio |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.set} | ${r.pages} | ${ms(r.medianWith)} / ${ms(r.medianWithout)} | ${pct(r.growth)} (${pct(r.growthInterval[0])} to ${pct(r.growthInterval[1])}) | ${ms(r.medianDifferenceMs)} ms | ${pct(r.medianRatio)} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!positionals.length) throw new Error('usage: npx tsx bench/render-cost.ts <dataset dir>... [--rounds 1] [--seed 1] [--json out.json]');
  const rounds = Number(args.rounds);
  const random = seededRandom(Number(args.seed));
  const config = loadConfig({});
  const renderers = { with: new Renderer(config), without: new Renderer(config, { withoutPageEvidence: true }) };
  const times: PageTimes[] = [];
  try {
    for (const dir of positionals) {
      const dataset = await readDataset(dir);
      say(`${dataset.name}: ${dataset.entries.length} pages, ${rounds} round(s)`);
      for (const entry of dataset.entries) {
        const html = await entry.html();
        const page: PageTimes = { set: dataset.name, id: entry.id, with: [], without: [] };
        for (let r = 0; r < rounds; r++) {
          const order = random() < 0.5 ? (['with', 'without'] as const) : (['without', 'with'] as const);
          for (const mode of order) {
            const started = performance.now();
            try {
              await renderers[mode].render({ url: entry.url ?? placeholderUrl(entry.id), archivedHtml: html });
              page[mode].push(performance.now() - started);
            } catch {
              // a page that fails its render is left out of the pairs
            }
          }
        }
        times.push(page);
      }
    }
  } finally {
    await Promise.all([renderers.with.close(), renderers.without.close()]);
  }
  const paired = (pages: readonly PageTimes[]) =>
    pages.filter((p) => p.with.length && p.without.length).map((p) => ({ with: mean(p.with), without: mean(p.without) }));
  const sets = [...new Set(times.map((t) => t.set))];
  const rows = [...sets.map((s) => costRow(s, paired(times.filter((t) => t.set === s)), random)), costRow('pooled', paired(times), random)];
  process.stdout.write(formatCostRows(rows) + '\n');
  if (args.json) await writeFile(args.json, JSON.stringify({ rounds, rows, pages: times }, null, 1));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error) => {
    say(error instanceof Error ? error.stack ?? error.message : String(error));
    process.exit(1);
  });
}
