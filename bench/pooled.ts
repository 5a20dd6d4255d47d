/**
 * Pooled figures over several bench runs (one JSON per dataset folder): every scored page of every
 * run counted once, precision and recall averaged per page and F1 from their means, as the metric
 * aggregates a set (lib/metric/metric.ts). Prints, per run and pooled, ours and each peer in the
 * runs' scoring and, where the JSON holds it (`perPage[].otherScoring`), in the other one.
 *
 *   npx tsx bench/pooled.ts out/dragnet-sites.json out/l3s-gn1.json … [--json pooled.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageFigures } from './run';

interface PageRow {
  readonly ours: PageFigures;
  readonly peers: Record<string, PageFigures>;
  readonly otherScoring?: { readonly scoring: string; readonly ours: PageFigures; readonly peers: Record<string, PageFigures> };
}
interface Run {
  readonly dataset?: string;
  readonly options?: { readonly scoring?: string };
  readonly perPage: PageRow[];
}

interface Pooled {
  readonly pages: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Mean precision and recall over the pages that define them, F1 of the means. */
export function pool(rows: readonly PageFigures[]): Pooled {
  let p = 0;
  let pn = 0;
  let r = 0;
  let rn = 0;
  for (const x of rows) {
    if (x.precision !== null) {
      p += x.precision;
      pn++;
    }
    if (x.recall !== null) {
      r += x.recall;
      rn++;
    }
  }
  const precision = pn ? p / pn : 0;
  const recall = rn ? r / rn : 0;
  return { pages: rows.length, precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

type Table = Map<string, Map<string, PageFigures[]>>; // scoring -> tool -> pages

function add(table: Table, scoring: string, tool: string, f: PageFigures): void {
  let t = table.get(scoring);
  if (!t) table.set(scoring, (t = new Map()));
  let rows = t.get(tool);
  if (!rows) t.set(tool, (rows = []));
  rows.push(f);
}

function tableOf(run: Run): Table {
  const table: Table = new Map();
  const scoring = run.options?.scoring ?? 'title+body';
  for (const page of run.perPage) {
    add(table, scoring, 'ours', page.ours);
    for (const [peer, f] of Object.entries(page.peers)) add(table, scoring, peer, f);
    const o = page.otherScoring;
    if (o) {
      add(table, o.scoring, 'ours', o.ours);
      for (const [peer, f] of Object.entries(o.peers)) add(table, o.scoring, peer, f);
    }
  }
  return table;
}

function print(name: string, table: Table): Record<string, Record<string, Pooled>> {
  const out: Record<string, Record<string, Pooled>> = {};
  for (const [scoring, tools] of table) {
    out[scoring] = {};
    const cells: string[] = [];
    for (const [tool, rows] of tools) {
      const p = pool(rows);
      out[scoring][tool] = p;
      cells.push(`${tool} ${p.f1.toFixed(4)}`);
    }
    const pages = tools.get('ours')?.length ?? 0;
    console.log(`${name.padEnd(20)} ${scoring.padEnd(10)} ${String(pages).padStart(5)}  ${cells.join('  ')}`);
  }
  return out;
}

function main(argv: string[]): void {
  const files = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--json');
  const jsonAt = argv.indexOf('--json');
  const pooled: Table = new Map();
  const result: Record<string, unknown> = {};
  for (const file of files) {
    const run = JSON.parse(readFileSync(file, 'utf8')) as Run;
    const table = tableOf(run);
    const name = run.dataset ? path.basename(run.dataset) : path.basename(file, '.json');
    result[name] = print(name, table);
    for (const [scoring, tools] of table) for (const [tool, rows] of tools) for (const r of rows) add(pooled, scoring, tool, r);
  }
  result.pooled = print('pooled', pooled);
  if (jsonAt >= 0) writeFileSync(argv[jsonAt + 1], JSON.stringify(result, null, 2));
}

main(process.argv.slice(2));
