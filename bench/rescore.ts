/**
 * Score a bench run's dumped texts again against a dataset's gold with parts of the gold taken out,
 * to see how much of a gap is the gold's: text after a marker the dataset meant to cut (`--cut`),
 * lines it should not hold (`--drop-lines`). Every tool in the dump is scored the same way, on the
 * same pages (`--group learned|fallback|all`, default learned).
 *
 *   npx tsx bench/rescore.ts ../shared/datasets/dragnet-sites out.json dump/ \
 *     --cut '!@#?\s?\$%\^&\*\s*\(?\)?\s*COMMENTS' --drop-lines '^(Guidelines: Fan feedback|Comments may be no longer)'
 *
 * Prints, per tool, F1 as the bench aggregates it (lib/metric/metric.ts)
 * against the gold as it is and against the gold so corrected, and the corrected gold's own score
 * against the gold (the ceiling a perfect extractor of the corrected text reaches on the gold as is).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { aggregate, scorePage, type PageScore } from '../lib/metric/metric';

interface Args {
  dataset: string;
  json: string;
  dump: string;
  cut?: RegExp;
  dropLines?: RegExp;
  group: string;
}

function parseArgs(argv: string[]): Args {
  const [dataset, json, dump] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!dataset || !json || !dump) throw new Error('usage: rescore.ts <dataset> <bench json> <dump dir> [--cut re] [--drop-lines re] [--group learned|fallback|all]');
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const cut = opt('--cut');
  const drop = opt('--drop-lines');
  return { dataset, json, dump, ...(cut ? { cut: new RegExp(cut) } : {}), ...(drop ? { dropLines: new RegExp(drop) } : {}), group: opt('--group') ?? 'learned' };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const run = JSON.parse(readFileSync(args.json, 'utf8')) as { perPage: Array<{ id: string; group: string }> };
  const pages = run.perPage.filter((p) => args.group === 'all' || p.group === args.group);
  const tools = ['ours', 'readability', 'postlight', 'extractus', 'defuddle'].filter((t) => pages.some((p) => existsSync(path.join(args.dump, `${p.id}.${t}.txt`))));
  const correct = (gold: string) => {
    const kept = args.cut ? gold.split(args.cut)[0] : gold;
    return args.dropLines ? kept.split('\n').filter((l) => !args.dropLines!.test(l)).join('\n') : kept;
  };
  let changed = 0;
  const scores = new Map<string, { asIs: PageScore[]; corrected: PageScore[] }>(tools.map((t) => [t, { asIs: [], corrected: [] }]));
  const ceiling: PageScore[] = [];
  for (const page of pages) {
    const gold = readFileSync(path.join(args.dataset, 'gold', `${page.id}.txt`), 'utf8');
    const corrected = correct(gold);
    if (corrected !== gold) changed++;
    ceiling.push(scorePage(corrected, gold));
    for (const t of tools) {
      const file = path.join(args.dump, `${page.id}.${t}.txt`);
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
      scores.get(t)!.asIs.push(scorePage(text, gold));
      scores.get(t)!.corrected.push(scorePage(text, corrected));
    }
  }
  console.log(`${pages.length} ${args.group} pages; the correction changes the gold of ${changed}`);
  console.log(`ceiling: the corrected gold scored against the gold as it is: F1 ${aggregate(ceiling).f1.toFixed(3)}`);
  console.log('tool          gold as is  corrected gold');
  for (const t of tools) {
    const s = scores.get(t)!;
    console.log(`${t.padEnd(12)}  ${aggregate(s.asIs).f1.toFixed(3).padStart(10)}  ${aggregate(s.corrected).f1.toFixed(3).padStart(14)}`);
  }
}

main();
