/**
 * The benchmark command:
 *
 *   npm run bench -- <dataset folder>… [--train 5] [--train-from last | --train-seed N] [--sites-by dataset] [--learn-from folder] [--peer-cache dir] [--json out.json] [--limit N] [--sites a,b] [--no-peers]
 *                    [--body-only] [--methods a,b | --no-methods] [--fields] [--fallback-model file]
 *   npm run bench -- --learn-scaling            (learn time on 10, 25, 50, 100 generated pages)
 *
 * Several folders: one report per set, then a table of every set and the pooled row (bench/pooled.ts).
 * See bench/README.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { formatScaling, runLearnScaling } from './learn-scaling';
import { METHODS } from '../lib/fallback';
import { PEER_NAMES, type PeerName } from './peers';
import { formatPooled, poolResults, type PooledResult } from './pooled';
import { formatReport, splitLabel } from './report';
import { DEFAULT_METHODS, runBench, type BenchResult, type TrainFrom } from './run';
import type { SitesBy } from './sites';

const DEFAULT_CACHE = fileURLToPath(new URL('../.bench/cache', import.meta.url));

// Peers use deprecated Node APIs (url.parse on odd URLs) and may leave a rejected promise behind
// after returning; neither should end or clutter a run that takes minutes.
process.noDeprecation = true;
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`  (ignored an unhandled rejection, most likely inside a peer: ${reason instanceof Error ? reason.message : String(reason)})\n`);
});

const nonNegativeInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number ≥ 0');
  return n;
};
const list = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);

const program = new Command()
  .name('bench')
  .description('Accuracy and speed of learned rules vs the fallback and peer extractors on a dataset folder (manifest.jsonl, pages/, gold/).')
  .argument('[datasets...]', 'dataset folders (several: one report per set, then every set and the pooled row)')
  .option('--train <n>', 'pages per site to learn from (the first in manifest order, unless --train-from last or --train-seed); 0: everything through the fallback', nonNegativeInt, 5)
  .addOption(new Option('--train-from <end>', 'which of each site\'s pages learn, in manifest order: the first (default) or the last; the last give a second choice of training pages to confirm on').choices(['first', 'last']).default('first'))
  .option('--train-seed <n>', 'draw each site\'s --train training pages at random (seeded by this and the site\'s name) instead of the first: one more split of training and scored pages per seed, none of them tuned on', nonNegativeInt)
  .addOption(new Option('--sites-by <key>', 'what a site is: host (the pipeline\'s key: a URL\'s hostname without www.) or dataset (the manifest\'s site, the registrable domain: a blog platform\'s users one site)').choices(['host', 'dataset']).default('host'))
  .option('--learn-from <dataset>', 'learn each site from its pages in this other dataset folder (the first, last or drawn --train of them) and score every page of the datasets named: rules meet a template they never saw (big9-09\'s 2009 pages, big9-13\'s 2013 ones)')
  .option('--json <file>', 'write the full result as JSON')
  .option('--limit <n>', 'only the first N pages of the manifest', nonNegativeInt)
  .option('--sites <list>', 'only these sites, named as --sites-by names them: hosts by default (comma-separated; "(no site)" for pages without one)', list)
  .option('--no-peers', 'do not run the peer extractors')
  .addOption(new Option('--peer <names>', `peers to run (comma-separated): ${PEER_NAMES.join(', ')}`).argParser(list))
  .option('--body-only', 'score each tool\'s body text alone (default: its own title as the first line, then its body)')
  .addOption(
    new Option('--methods <names>', `the fallback's methods to run alone on the fallback pages (comma-separated; default ${DEFAULT_METHODS.join(', ')}; known: ${Object.keys(METHODS).join(', ')})`).argParser(list),
  )
  .option('--no-methods', 'do not run the fallback\'s methods alone')
  .option('--fields', 'also measure the title, byline and published field rules (issue 6) beside Readability.js')
  .option('--no-cache', 'render every page again (fresh renders are still written to the cache)')
  .option('--cache-dir <dir>', 'render cache root', DEFAULT_CACHE)
  .option('--trust-cache', 'take cached renders of the same URL whatever render code wrote them (tuning runs of code that does not change rendering; not for published figures)')
  .option('--dump <dir>', 'write our and the peers\' extracted texts and the learned rules here (several sets: a folder per set)')
  .option('--fallback-model <file>', 'the fallback uses this model (`spider train` stores one at <data-dir>/store/models/fallback.json) instead of the shipped default, as apply does a stored one')
  .option('--peer-cache <dir>', 'cache the peers\' outputs here (keyed by peer version, URL and HTML): tuning runs skip the peers')
  .option('--learn-scaling', 'also time learning on 10, 25, 50 and 100 pages of a generated site (and of the dataset, sites mixed)')
  .option('--quiet', 'no progress lines')
  .action(async (datasetDirs: string[], opts: Options) => {
    if (!datasetDirs.length && !opts.learnScaling) program.error('a dataset folder is required (or --learn-scaling alone)');
    if (opts.trainSeed !== undefined && opts.trainFrom === 'last') program.error('--train-seed draws the training pages at random: leave out --train-from last');
    if (opts.learnFrom && opts.fields) program.error('--fields learns from each site\'s own pages: run it without --learn-from');
    if (opts.learnFrom && datasetDirs.some((d) => path.resolve(d) === path.resolve(opts.learnFrom!))) program.error('--learn-from names one of the datasets scored: leave it out to learn from each site\'s own first pages');
    const log = opts.quiet ? () => {} : (line: string) => process.stderr.write(line + '\n');
    const peers = opts.peers === false ? [] : (opts.peer ?? [...PEER_NAMES]);
    const unknown = peers.filter((p) => !(PEER_NAMES as readonly string[]).includes(p));
    if (unknown.length) program.error(`unknown peer(s): ${unknown.join(', ')} (known: ${PEER_NAMES.join(', ')})`);
    const methods = opts.methods === false ? [] : Array.isArray(opts.methods) ? opts.methods : [...DEFAULT_METHODS];
    const unknownMethods = methods.filter((m) => !METHODS[m]);
    if (unknownMethods.length) program.error(`unknown method(s): ${unknownMethods.join(', ')} (known: ${Object.keys(METHODS).join(', ')})`);

    const results: BenchResult[] = [];
    const several = datasetDirs.length > 1;
    for (const datasetDir of datasetDirs) {
      const result = await runBench({
        datasetDir,
        train: opts.train,
        trainFrom: opts.trainFrom,
        trainSeed: opts.trainSeed,
        sitesBy: opts.sitesBy,
        learnFromDir: opts.learnFrom,
        limit: opts.limit,
        sites: opts.sites,
        peers: peers as PeerName[],
        cacheRoot: opts.cacheDir,
        refresh: opts.cache === false,
        trustCache: opts.trustCache,
        dumpDir: opts.dump && several ? path.join(opts.dump, path.basename(path.resolve(datasetDir))) : opts.dump,
        peerCacheDir: opts.peerCache,
        fallbackModel: opts.fallbackModel,
        scoring: opts.bodyOnly ? 'body' : 'title+body',
        methods,
        fields: opts.fields,
        learnScaling: opts.learnScaling,
        log,
      });
      results.push(result);
      if (several) process.stdout.write(`\n=== ${result.dataset} ===\n`);
      process.stdout.write(formatReport(result) + '\n');
      if (result.learnScalingDataset) process.stdout.write('\n' + formatScaling(result.learnScalingDataset) + '\n');
    }
    let pooled: PooledResult | undefined;
    if (several) {
      pooled = poolResults(results);
      process.stdout.write(`\n=== ${results.length} sets, ${splitLabel(results[0].options)} ===\n` + formatPooled(pooled) + '\n');
    }
    let scaling;
    if (opts.learnScaling) {
      scaling = await runLearnScaling({ cacheRoot: opts.cacheDir, refresh: opts.cache === false, log });
      process.stdout.write('\n' + formatScaling(scaling) + '\n');
    }
    if (opts.json) {
      // One set: its result as before; several: { sets: [results], pooled }.
      const extra = scaling ? { learnScaling: scaling } : {};
      const out = results.length === 1 ? { ...results[0], ...extra } : results.length ? { sets: results, pooled, ...extra } : extra;
      await mkdir(path.dirname(path.resolve(opts.json)), { recursive: true });
      await writeFile(opts.json, JSON.stringify(out, null, 2) + '\n');
      log(`wrote ${opts.json}`);
    }
  });

interface Options {
  train: number;
  trainFrom: TrainFrom;
  trainSeed?: number;
  sitesBy: SitesBy;
  learnFrom?: string;
  json?: string;
  limit?: number;
  sites?: string[];
  peers: boolean;
  peer?: string[];
  bodyOnly?: boolean;
  /** `--methods a,b` gives the list; `--no-methods` false; neither: true (commander's default for a negatable option). */
  methods: string[] | boolean;
  fields?: boolean;
  cache: boolean;
  cacheDir: string;
  dump?: string;
  peerCache?: string;
  fallbackModel?: string;
  trustCache?: boolean;
  learnScaling?: boolean;
  quiet?: boolean;
}

program.parseAsync().then(
  () => process.exit(0), // peers may leave handles open (timers, sockets); the run is over
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
