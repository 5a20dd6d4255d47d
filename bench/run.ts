/**
 * The benchmark: render a dataset's archived pages (render step, Chromium), learn each site's rules
 * from its first `train` pages (learn step), extract the other pages (apply step), and score them
 * against the gold text next to the peers run on the same pages' archived HTML.
 */
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyStep, clearRulesCache } from '../lib/apply/apply-step';
import { parseHtml } from '../lib/html/parse';
import { loadConfig, type Config } from '../lib/config/config';
import { readDataset, type DatasetEntry } from '../lib/dataset/dataset';
import { pageF1, scorePage, type PageScore } from '../lib/metric/metric';
import { METHODS } from '../lib/fallback';
import { readModelFile, type ModelFile } from './model-file';
import { fieldsJson, runFieldsBench, type FieldsJson } from './fields';
import { learnStep } from '../lib/learn/learn-step';
import type { Logger, StepContext } from '../lib/step/context';
import { keys } from '../lib/store/keys';
import { MemoryStore } from '../lib/store/memory-store';
import { putJson } from '../lib/store/store';
import type { RulesDocument } from '../lib/types/rules-document';
import { PeerCache } from './peer-cache';
import { loadPeers, runPeer, type PeerName } from './peers';
import { BenchRenderer, placeholderUrl, recordingQueues, type RenderedPage } from './render';
import { timeLearning, type ScalingResult } from './learn-scaling';
import { scoredText, type ScoringMode } from './scoring';
import { Rng } from '../lib/demo/prng';
import { groupBySite, NO_SITE, siteKeyOf, type SitesBy } from './sites';
import { aggregateWithBootstrap, mean, median, quantile, round, type AggregateWithStd } from './stats';

export interface BenchOptions {
  readonly datasetDir: string;
  /** Pages per site to learn from (the first in manifest order, the last, or drawn with `trainSeed`); 0: every page through the fallback. */
  readonly train: number;
  /** Which end of each site's pages (manifest order) learns: `first` (default) or `last`, a second choice of training pages to confirm on. */
  readonly trainFrom?: TrainFrom;
  /**
   * Draw each site's training pages at random with this seed (and the site's name) instead of
   * taking the first or last: more splits no heuristic was tuned on, one per seed.
   */
  readonly trainSeed?: number;
  /**
   * Learn each site from its pages in this other dataset (the first, last or drawn `train` of them) and
   * score every page of this one: rules meet pages of a template they never saw (big9-09's 2009
   * captures and big9-13's 2013 ones, a site redesign).
   */
  readonly learnFromDir?: string;
  /** What a site is (bench/sites.ts): a host, as the pipeline keys it (default), or the manifest's registrable domain. */
  readonly sitesBy?: SitesBy;
  /**
   * A fallback model file (`spider train`'s, stored at `models/fallback.json`): apply's fallback uses
   * it as it does a stored model, instead of the shipped default (on the pages of unlearned sites, and
   * on learned-site pages the guard gives to the fallback); so do the fallback's methods run alone.
   */
  readonly fallbackModel?: string;
  /** Only the first N pages of the manifest (after --sites). */
  readonly limit?: number;
  /** Only these sites. */
  readonly sites?: readonly string[];
  /** Peers to run; empty: none. */
  readonly peers: readonly PeerName[];
  /** Root of the render cache (`.bench/cache`); undefined: no cache. */
  readonly cacheRoot?: string;
  /** Render again even when cached. */
  readonly refresh?: boolean;
  /** Take cached renders whatever render code wrote them (bench/render.ts trustCache); tuning runs only. */
  readonly trustCache?: boolean;
  /** Cache the peers' outputs here (bench/peer-cache.ts): runs that change only spider skip them; their times are the recording run's. */
  readonly peerCacheDir?: string;
  /** Write our and the peers' extracted texts and the learned rules here. */
  readonly dumpDir?: string;
  /** Also time learning on the first 10, 25, 50, 100 rendered pages of the dataset (mixed sites). */
  readonly learnScaling?: boolean;
  /** What is scored: the tool's title as the first line, then its body (default), or the body alone. */
  readonly scoring?: ScoringMode;
  /**
   * The fallback's single-page methods (lib/fallback METHODS) to run alone on the fallback pages,
   * beside the combined fallback; default DEFAULT_METHODS, empty: none.
   */
  readonly methods?: readonly string[];
  /** Also run the field bench (bench/fields.ts): title, byline, published, ours and Readability.js's. */
  readonly fields?: boolean;
  /** Config overrides (render settings, learn settings). */
  readonly config?: Partial<Config>;
  /** Progress lines (stderr by default). */
  readonly log?: (line: string) => void;
}

export type Group = 'learned' | 'fallback';

/** Which end of each site's pages, in manifest order, learns. */
export type TrainFrom = 'first' | 'last';

/** The fallback's methods run alone by default: every one but `combined`, which is what apply serves (our fallback row). */
export const DEFAULT_METHODS: readonly string[] = Object.keys(METHODS).filter((m) => m !== 'combined');

/** One run of an extractor on one page: its body, its title, and how long it took. */
interface Run {
  readonly text: string;
  readonly title?: string;
  readonly ms?: number;
  readonly error?: string;
  readonly notArticle?: boolean;
}

export interface PageResult {
  readonly id: string;
  readonly site: string | null;
  readonly group: Group;
  readonly url: string;
  readonly renderError?: string;
  /** How apply extracted it (a learned site's page may still fall back when its rules select nothing). */
  readonly method?: 'rules' | 'fallback';
  readonly notArticle?: boolean;
  readonly applyMs?: number;
  readonly applyError?: string;
  readonly ours: PageFigures;
  readonly peers: Record<string, PageFigures & { readonly ms: number; readonly error?: string }>;
  /** Fallback pages: each of the fallback's methods alone on the same snapshot (parse included), scored with our title. */
  readonly methods?: Record<string, PageFigures & { readonly ms: number; readonly notArticle?: boolean; readonly error?: string }>;
  /** F1 of ours and each peer scored the other way (body alone when `scoring` is title+body, and the reverse), for pooled figures of both from one run. */
  readonly otherScoring?: { readonly scoring: ScoringMode; readonly ours: PageFigures; readonly peers: Record<string, PageFigures> };
}

export interface PageFigures {
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number;
  readonly exact: boolean;
}

export interface Figures {
  readonly pages: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly accuracy: number | null;
  /** Bootstrap standard deviations (1,000 resamples of the pages). */
  readonly std: { readonly precision: number | null; readonly recall: number | null; readonly f1: number | null; readonly accuracy: number | null };
}

export interface PeerSummary extends Figures {
  readonly msMedian: number | null;
  readonly msP90: number | null;
  readonly errors: number;
  readonly learned: Figures & { readonly msMedian: number | null };
  readonly fallback: Figures & { readonly msMedian: number | null };
}

/** One of the fallback's methods alone, on the fallback pages (our snapshot, parse included, our title). */
export interface MethodSummary extends Figures {
  readonly msMedian: number | null;
  readonly msP90: number | null;
  /** Pages it marked as not an article. */
  readonly notArticle: number;
  readonly errors: number;
}

export interface SiteRow {
  readonly site: string;
  readonly group: Group;
  readonly pages: number;
  readonly trainPages: number;
  readonly scoredPages: number;
  readonly learned: boolean;
  readonly learnNote?: string;
  readonly learnMs?: number;
  /** Blocks in the training pages' feature documents (what learning works on). */
  readonly trainBlocks?: number;
  readonly selectors?: number;
  readonly selfCheck?: RulesDocument['selfCheck'];
  /** Scored pages apply extracted with the rules (the rest fell back). */
  readonly rulesPages: number;
  readonly ours: Figures;
  readonly peers: Record<string, number | null>;
  readonly bestPeer?: { readonly name: string; readonly f1: number | null };
  /** Fallback sites: F1 of each fallback method alone. */
  readonly methods?: Record<string, number | null>;
}

export interface BenchResult {
  readonly dataset: string;
  readonly datasetDir: string;
  readonly startedAt: string;
  readonly options: {
    train: number;
    /** Present when the last pages of each site learned (`--train-from last`). */
    trainFrom?: 'last';
    /** Present when each site's training pages were drawn at random with this seed (`--train-seed`). */
    trainSeed?: number;
    /** What a site was (`--sites-by`); absent in results written before it, whose sites were the manifest's. */
    sitesBy?: SitesBy;
    /** Present when each site learned from its pages in another dataset (`--learn-from`): that dataset's name. */
    learnFrom?: string;
    /** Present when the fallback used a model file (`--fallback-model`): its file name, the start of its SHA-256, what it was trained on. */
    fallbackModel?: { file: string; sha256: string; trainedOn: string };
    limit?: number;
    sites?: readonly string[];
    peers: readonly string[];
    /** `title+body`: each tool's title as the first line, then its body (unless the body starts with it); `body`: bodies alone. */
    scoring: ScoringMode;
    /** The fallback methods run alone on the fallback pages. */
    methods: readonly string[];
    fields?: boolean;
  };
  /** Pages considered (after --sites/--limit), sites among them (pages without a site not counted). */
  readonly pages: number;
  readonly sites: number;
  readonly learnedSites: number;
  readonly trainPages: number;
  readonly scoredPages: number;
  readonly ours: Figures & {
    readonly learnedPages: number;
    readonly fallbackPages: number;
    /** Pages of learned sites that apply extracted with the rules / with the fallback. */
    readonly rulesMethodPages: number;
    readonly fallbackMethodPages: number;
    readonly renderFailures: number;
    readonly learned: Figures;
    readonly fallback: Figures;
  };
  readonly peers: Record<string, PeerSummary>;
  /** Each fallback method alone on the fallback pages (the pages of `ours.fallback`), beside the combination. */
  readonly fallbackMethods: Record<string, MethodSummary>;
  readonly skippedPeers: ReadonlyArray<{ name: string; reason: string }>;
  readonly timing: {
    readonly applyMsMedian: number | null;
    readonly applyMsP90: number | null;
    readonly applyMsMedianLearned: number | null;
    readonly applyMsMedianFallback: number | null;
    /** Mean learn-step time per learned site; median and max beside it. */
    readonly learnMsPerSite: number | null;
    readonly learnMsMedian: number | null;
    readonly learnMsMax: number | null;
    readonly renderMsMedian: number | null;
    readonly renderMsP90: number | null;
    readonly renderedThisRun: number;
    readonly renderedFromCache: number;
    /** Of those, renders other render code wrote (--trust-cache). */
    readonly renderedByOtherCode?: number;
    /** Peer runs read from the peer cache (--peer-cache): their times are those of the run that wrote them. */
    readonly peerRunsFromCache?: number;
    /** Readability's median on the same pages divided by ours (learned pages; all pages). */
    readonly readabilityOverApplyLearned: number | null;
    readonly readabilityOverApplyAll: number | null;
    readonly wallSeconds: { readonly render: number; readonly learn: number; readonly apply: number; readonly peers: number; readonly total: number };
  };
  readonly perSite: SiteRow[];
  readonly perPage: PageResult[];
  /** Learn time on the first 10/25/50/100 pages of this dataset, sites mixed (with --learn-scaling). */
  learnScalingDataset?: ScalingResult;
  /**
   * With --fields: `title`, `byline`, `published` ({accuracy, pages, right}) are ours (learned HTML
   * rules alone on pages stripped of their metadata), the same under `ours`, Readability.js's under
   * `readability`; per-site and per-page rows (bench/fields.ts).
   */
  fields?: FieldsJson;
  learnScaling?: ScalingResult;
}

function figures(scores: readonly PageScore[]): Figures {
  const a: AggregateWithStd = aggregateWithBootstrap(scores);
  const empty = scores.length === 0;
  return {
    pages: scores.length,
    precision: empty ? null : round(a.precision),
    recall: empty ? null : round(a.recall),
    f1: empty ? null : round(a.f1),
    accuracy: empty ? null : round(a.accuracy),
    std: {
      precision: empty ? null : round(a.std.precision),
      recall: empty ? null : round(a.std.recall),
      f1: empty ? null : round(a.std.f1),
      accuracy: empty ? null : round(a.std.accuracy),
    },
  };
}

function pageFigures(s: PageScore): PageFigures {
  const p = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : null;
  const r = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : null;
  return { precision: p === null ? null : round(p), recall: r === null ? null : round(r), f1: round(pageF1(s)) ?? 0, exact: s.exact };
}

/** A logger that counts warnings and errors per message (apply's "rules selected nothing", ...). */
function countingLogger(): Logger & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const bump = (m: string) => counts.set(m, (counts.get(m) ?? 0) + 1);
  return { counts, debug() {}, info() {}, warn: bump, error: bump };
}

/** Which pages of which site learn and which are scored, and the settings every phase shares. */
interface BenchPlan {
  readonly dataset: Awaited<ReturnType<typeof readDataset>>;
  /** The dataset the sites learn from, when it is another one (`--learn-from`). */
  readonly learnFrom?: Awaited<ReturnType<typeof readDataset>>;
  /** A page's key in the renders: its id, prefixed by its dataset's name when it is the learn-from dataset's. */
  readonly renderKey: (e: DatasetEntry) => string;
  readonly entries: DatasetEntry[];
  readonly groups: Map<string, DatasetEntry[]>;
  readonly plans: SitePlan[];
  readonly learnedPlans: SitePlan[];
  readonly scored: ReadonlyArray<{ entry: DatasetEntry; plan: SitePlan }>;
  readonly train: number;
  readonly scoring: ScoringMode;
  readonly methodNames: string[];
  readonly config: Config;
  /** The fallback model file given (`--fallback-model`). */
  readonly fallbackModel?: ModelFile;
}
interface SitePlan { site: string; group: Group; train: DatasetEntry[]; scored: DatasetEntry[] }
type SiteRules = Map<string, { rules?: RulesDocument; learnMs?: number; note?: string }>;
/** Ours also keeps the article's header (byline line, lead caption): not scored, dumped beside the text. */
type OurRun = Run & { method?: 'rules' | 'fallback'; header?: string };
type PeerRunMap = Map<string, Map<string, { text: string; title: string; ms: number; error?: string }>>;

const urlOf = (e: DatasetEntry) => e.url ?? placeholderUrl(e.id);

/** The bench's phases: plan, render, learn, extract (ours, the fallback's methods, the peers), score, summarise. */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const plan = await planBench(options, log);
  const { renderer, learnFromRenders, rendered, renderSeconds } = await renderPages(plan, options, log);
  const { siteRules, learnSeconds } = await learnSites(plan, rendered, log);
  const extraction = await extractPages(plan, rendered, siteRules, options, log);
  const text = (run: { text: string; title?: string }) => scoredText(plan.scoring, run.title, run.text);
  const scores = await scorePages(plan, rendered, extraction, text);
  const result = summarize(plan, options, { startedAt, t0, renderer, learnFromRenders, rendered, renderSeconds, siteRules, learnSeconds, extraction, scores });
  const { dataset, entries, config, train, scored } = plan;
  const { applyLogger, ourRuns, peerRuns, methodRuns } = extraction;

  if (options.learnScaling) {
    const docs = entries.map((e) => rendered.get(e.id)!.features).filter((d): d is NonNullable<typeof d> => d !== undefined);
    log(`learn scaling on the first pages of ${dataset.name} (sites mixed):`);
    const { rows, exponent } = await timeLearning(docs, [10, 25, 50, 100], 3, config, log);
    result.learnScalingDataset = { site: `the first pages of ${dataset.name} in manifest order (sites mixed: no shared template, a pessimistic case)`, templates: 0, rows, exponent };
  }
  if (applyLogger.counts.size) log(`  apply warnings: ${[...applyLogger.counts].map(([m, n]) => `${m} ×${n}`).join('; ')}`);
  if (options.dumpDir) {
    await dump(options.dumpDir, scored.map((x) => x.entry.id), text, ourRuns, peerRuns, methodRuns, siteRules);
  }

  if (options.fields) {
    // The field bench (issue 6) on the same dataset and sites: the original pages come from this
    // run's renders, the pages stripped of their metadata from the same render cache.
    const fieldsTrain = train > 0 ? train : 5;
    log(`fields: learn from the first ${fieldsTrain} pages of each site with machine-readable values, extract from the others stripped of them`);
    try {
      const fr = await runFieldsBench({
        datasetDir: options.datasetDir,
        train: fieldsTrain,
        sitesBy: options.sitesBy,
        sites: options.sites,
        config,
        log: (line) => log(`  ${line}`),
        render: async ({ id, variant, url, html }) => {
          const done = variant === 'original' ? rendered.get(id) : undefined;
          const page = done && done.renderUrl === url ? done : await renderer.render(variant === 'original' ? id : `${id}.stripped`, url, html);
          return { features: page.features, snapshot: page.snapshot, error: page.error, cached: page.cached || page === done };
        },
      });
      result.fields = fieldsJson(fr);
    } finally {
      await renderer.close();
    }
  }
  return result;
}

/** Read the dataset and decide, per site, which pages learn and which are scored. */
async function planBench(options: BenchOptions, log: (line: string) => void): Promise<BenchPlan> {
  const dataset = await readDataset(options.datasetDir);
  let entries: DatasetEntry[] = [...dataset.entries];
  const siteKey = siteKeyOf(options.sitesBy);
  if (options.sites?.length) entries = entries.filter((e) => options.sites!.includes(siteKey(e)));
  if (options.limit !== undefined) entries = entries.slice(0, options.limit);
  if (entries.length === 0) throw new Error(`no pages to run on in ${dataset.dir}${options.sites?.length ? ` (--sites names ${options.sitesBy === 'dataset' ? 'registrable domains' : 'hosts, as the pipeline keys sites; --sites-by dataset for registrable domains'})` : ''}`);
  const train = options.train;
  const scoring: ScoringMode = options.scoring ?? 'title+body';
  const methodNames = [...(options.methods ?? DEFAULT_METHODS)];
  for (const m of methodNames) if (!METHODS[m]) throw new Error(`unknown fallback method ${m} (known: ${Object.keys(METHODS).join(', ')})`);
  const config = loadConfig({ ...options.config, learnPages: Math.max(train, options.config?.learnPages ?? 50) });
  const learnFrom = options.learnFromDir ? await readDataset(options.learnFromDir) : undefined;
  if (learnFrom && realpathSync(learnFrom.dir) === realpathSync(dataset.dir)) throw new Error(`--learn-from names the dataset scored (${dataset.dir}): leave it out to learn from each site's own first pages`);
  // each set's renders are cached under its name
  if (learnFrom && learnFrom.name === dataset.name) throw new Error(`--learn-from names another dataset of the same folder name (${dataset.name}): their render caches would mix; rename one`);
  if (learnFrom && options.fields) throw new Error('--fields learns from each site\'s own pages: run it without --learn-from');
  if (options.trainSeed !== undefined && options.trainFrom === 'last') throw new Error('--train-seed draws the training pages at random: leave out --train-from last');
  const fallbackModel = options.fallbackModel ? await readModelFile(options.fallbackModel) : undefined;
  // a site's training pages: its first or last `train`, or `train` drawn with the seed (kept in manifest order)
  const pickTraining = (site: string, list: DatasetEntry[]) => {
    if (options.trainSeed === undefined) return options.trainFrom === 'last' ? list.slice(-train) : list.slice(0, train);
    const drawn = new Set(new Rng(`${options.trainSeed}/${site}`).sample(list, train));
    return list.filter((e) => drawn.has(e));
  };
  const trainingNamed = options.trainSeed !== undefined ? `${train} pages drawn with seed ${options.trainSeed}` : `${options.trainFrom === 'last' ? 'last' : 'first'} ${train} pages`;

  // Per site, the first (last, or drawn) `train` pages learn and the rest are scored with the rules;
  // sites with too few pages, and pages without a site, are scored with the fallback. With another
  // dataset to learn from, a site learns from its pages there and every page here is scored.
  const groups = groupBySite(entries, options.sitesBy);
  const learnGroups = learnFrom ? groupBySite(learnFrom.entries, options.sitesBy) : undefined;
  const plans: SitePlan[] = [];
  for (const [site, list] of groups) {
    // the site's pages to learn from: here, leaving one to score at least; or all of them in the other set
    const source = learnGroups ? (learnGroups.get(site) ?? []) : list;
    const learnable = site !== NO_SITE && train > 0 && source.length >= train + (learnGroups ? 0 : 1);
    if (!learnable) {
      plans.push({ site, group: 'fallback', train: [], scored: list });
      continue;
    }
    const learnFromThese = pickTraining(site, source);
    plans.push({ site, group: 'learned', train: learnFromThese, scored: learnGroups ? list : list.filter((e) => !learnFromThese.includes(e)) });
  }
  const learnedPlans = plans.filter((p) => p.group === 'learned');
  log(
    `${dataset.name}: ${entries.length} pages, ${[...groups.keys()].filter((s) => s !== NO_SITE).length} sites; ` +
      `${learnedPlans.length} sites learn from their ${trainingNamed}${learnFrom ? ` in ${learnFrom.name}` : ''}, ${plans.reduce((n, p) => n + p.scored.length, 0)} pages scored`,
  );
  const scored = plans.flatMap((p) => p.scored.map((e) => ({ entry: e, plan: p })));
  const learnFromEntries = new Set(learnFrom?.entries);
  const renderKey = (e: DatasetEntry) => (learnFromEntries.has(e) ? `${learnFrom!.name}/${e.id}` : e.id);
  return { dataset, learnFrom, renderKey, entries, groups, plans, learnedPlans, scored, train, scoring, methodNames, config, fallbackModel };
}

/** Render every page (training pages for their features, scored pages for their snapshots), from the cache when it holds them. */
async function renderPages(plan: BenchPlan, options: BenchOptions, log: (line: string) => void) {
  const { dataset, entries, learnFrom } = plan;
  const tRender = performance.now();
  const rendered = new Map<string, RenderedPage>();
  const renderer = await renderSet(dataset.name, entries, '', plan, options, rendered, log);
  // the training pages of the dataset the sites learn from (--learn-from), from its own render cache
  const other = learnFrom ? await renderSet(learnFrom.name, plan.learnedPlans.flatMap((p) => p.train), ` training pages of ${learnFrom.name}`, plan, options, rendered, log) : undefined;
  const learnFromRenders = other && { rendered: other.rendered, fromCache: other.fromCache, trusted: other.trusted };
  return { renderer, learnFromRenders, rendered, renderSeconds: (performance.now() - tRender) / 1000 };
}

/** Render pages of one dataset (its render cache: `<cache root>/<name>`) into `rendered`, under `plan.renderKey`. */
async function renderSet(
  name: string,
  entries: readonly DatasetEntry[],
  what: string,
  plan: BenchPlan,
  options: BenchOptions,
  rendered: Map<string, RenderedPage>,
  log: (line: string) => void,
): Promise<BenchRenderer> {
  const renderer = new BenchRenderer({
    config: plan.config,
    cacheDir: options.cacheRoot ? path.join(options.cacheRoot, name) : undefined,
    refresh: options.refresh,
    trustCache: options.trustCache,
  });
  try {
    let done = 0;
    let lastLog = 0;
    for (const e of entries) {
      const page = await renderer.render(e.id, urlOf(e), await e.html());
      rendered.set(plan.renderKey(e), page);
      done++;
      if (page.error) log(`  render failed: ${plan.renderKey(e)} ${page.renderUrl}: ${page.error}`);
      const now = performance.now();
      if (done === entries.length || (renderer.rendered > 0 && now - lastLog > 10_000)) {
        lastLog = now;
        log(`  rendered ${done}/${entries.length}${what} (${renderer.rendered} in Chromium, ${renderer.fromCache} from cache${renderer.trusted ? `, ${renderer.trusted} of them written by other render code (--trust-cache)` : ''})`);
      }
    }
  } finally {
    await renderer.close();
  }
  return renderer;
}

/** Learn each site from its training pages with the learn step (forced), in a store of their own. */
async function learnSites(plan: BenchPlan, rendered: Map<string, RenderedPage>, log: (line: string) => void) {
  const { learnedPlans, config, renderKey } = plan;
  const tLearn = performance.now();
  const siteRules: SiteRules = new Map();
  for (const plan of learnedPlans) {
    const store = new MemoryStore();
    const docs = plan.train.map((e) => rendered.get(renderKey(e))!).filter((r) => r.features);
    // As the render step leaves them: the feature document and the snapshot (field learning reads it).
    for (const r of docs) {
      await putJson(store, keys.features(plan.site, r.pageId), r.features);
      if (r.snapshot) await store.put(r.features!.snapshotKey, r.snapshot, { contentType: 'text/html; charset=utf-8' });
    }
    const logger = countingLogger();
    const ctx: StepContext = { store, queues: recordingQueues(), config, logger };
    const started = performance.now();
    try {
      const outcome = await learnStep({ v: 1, site: plan.site, force: true }, ctx);
      const learnMs = performance.now() - started;
      if (outcome.learned) siteRules.set(plan.site, { rules: outcome.rules, learnMs });
      else siteRules.set(plan.site, { learnMs, note: outcome.reason });
    } catch (error) {
      siteRules.set(plan.site, { note: `learn failed: ${error instanceof Error ? error.message : String(error)}` });
    }
    const s = siteRules.get(plan.site)!;
    if (!s.rules) log(`  ${plan.site}: no rules (${s.note}); its pages go through the fallback`);
  }
  return { siteRules, learnSeconds: (performance.now() - tLearn) / 1000 };
}

type Extraction = Awaited<ReturnType<typeof extractPages>>;

/**
 * Apply each scored page's snapshot (with its site's rules when it has them), and run the peers on
 * the same page's archived HTML at its URL, page by page: on a shared machine a burst of load then
 * weighs on every extractor alike, which keeps the speed ratios honest.
 */
async function extractPages(plan: BenchPlan, rendered: Map<string, RenderedPage>, siteRules: SiteRules, options: BenchOptions, log: (line: string) => void) {
  const { learnedPlans, config, scored, methodNames } = plan;
  clearRulesCache();
  const applyStore = new MemoryStore();
  const applyLogger = countingLogger();
  const applyCtx: StepContext = { store: applyStore, queues: recordingQueues(), config, logger: applyLogger };
  // a model given is stored where apply reads a retrained one
  if (plan.fallbackModel) await applyStore.put(keys.fallbackModel(), plan.fallbackModel.bytes, { contentType: 'application/json' });
  const hostsWithRules = new Set<string>();
  for (const plan of learnedPlans) {
    const rules = siteRules.get(plan.site)?.rules;
    if (!rules) continue;
    for (const e of plan.scored) {
      const r = rendered.get(e.id)!;
      if (!r.features || hostsWithRules.has(r.site)) continue;
      // The pipeline keys sites by hostname; with --sites-by dataset a site (registrable domain) may span several.
      await putJson(applyStore, keys.rules(r.site), rules);
      hostsWithRules.add(r.site);
    }
  }
  const ourRuns = new Map<string, OurRun>();
  let applySeconds = 0;
  const applyOne = async (e: DatasetEntry): Promise<OurRun> => {
    const r = rendered.get(e.id)!;
    if (!r.snapshot) return { text: '', error: `not rendered: ${r.error}` };
    const started = performance.now();
    const snapshotKey = keys.snapshot(r.site, r.pageId);
    await applyStore.put(snapshotKey, r.snapshot, { contentType: 'text/html; charset=utf-8' });
    // the HTML as served, beside the snapshot, as the render step leaves it
    const servedKey = keys.served(r.site, r.pageId);
    if (r.served !== undefined) await applyStore.put(servedKey, r.served, { contentType: 'text/html; charset=utf-8' });
    try {
      const article = await applyStep({ v: 1, site: r.site, pageId: r.pageId, reason: 'rendered' }, applyCtx);
      // the article's body text, its dek first when the rules tell one; its header (byline and dateline,
      // lead caption) is a field of its own, as the byline is for every peer, and most corpora's gold leaves it out
      return { text: article.text, title: article.title, method: article.method, notArticle: article.notArticle, ms: article.elapsedMs, ...(article.header ? { header: article.header } : {}) };
    } catch (error) {
      return { text: '', error: error instanceof Error ? error.message : String(error) };
    } finally {
      await applyStore.delete(snapshotKey);
      await applyStore.delete(servedKey);
      await applyStore.delete(keys.article(r.site, r.pageId));
      applySeconds += (performance.now() - started) / 1000;
    }
  };

  // The fallback's methods, each alone, on the fallback pages: the same snapshot apply gets, parse
  // included in the time; they return a body only, so they are scored with the title apply found.
  const methodRuns = new Map<string, Map<string, Run>>(methodNames.map((m) => [m, new Map()]));
  const runMethod = (name: string, e: DatasetEntry): Run => {
    const r = rendered.get(e.id)!;
    if (!r.snapshot) return { text: '', error: `not rendered: ${r.error}` };
    const started = performance.now();
    try {
      const out = METHODS[name](parseHtml(r.snapshot), { baseUrl: r.renderUrl, model: plan.fallbackModel?.model });
      return { text: out.text, notArticle: out.notArticle, ms: performance.now() - started };
    } catch (error) {
      return { text: '', ms: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
    }
  };

  const { peers, skipped } = options.peers.length ? await loadPeers(options.peers) : { peers: [], skipped: [] };
  for (const s of skipped) log(`  peer ${s.name} skipped: ${s.reason}`);
  const peerRuns: PeerRunMap = new Map(peers.map((p) => [p.name, new Map()]));
  const peerCache = options.peerCacheDir && peers.length ? new PeerCache(options.peerCacheDir) : undefined;
  let peersSeconds = 0;
  // Warm-up, not recorded: the first pages of each group (WARM_UP_PAGES)
  for (const { entry } of warmUpPages(scored)) {
    await applyOne(entry);
    for (const m of methodNames) runMethod(m, entry);
    // peers served from the cache need no warm-up
    if (!peerCache) for (const peer of peers) await runPeer(peer, await entry.html(), urlOf(entry));
  }
  applySeconds = 0;
  applyLogger.counts.clear();
  let done = 0;
  let lastLog = performance.now();
  for (const { entry, plan } of scored) {
    const ours = await applyOne(entry);
    ourRuns.set(entry.id, ours);
    if (plan.group === 'fallback') {
      for (const m of methodNames) methodRuns.get(m)!.set(entry.id, { ...runMethod(m, entry), title: ours.title });
    }
    if (peers.length) {
      const html = await entry.html();
      for (const peer of peers) {
        const cached = await peerCache?.get(peer.name, urlOf(entry), html);
        const run = cached ?? (await runPeer(peer, html, urlOf(entry)));
        if (!cached) await peerCache?.put(peer.name, urlOf(entry), html, run);
        peerRuns.get(peer.name)!.set(entry.id, run);
        peersSeconds += run.ms / 1000;
      }
    }
    done++;
    if (peers.length && (performance.now() - lastLog > 15_000 || done === scored.length)) {
      lastLog = performance.now();
      log(`  extracted ${done}/${scored.length} pages (ours and ${peers.length} peers)`);
    }
  }
  if (peerCache) log(`  peers: ${peerCache.hits} runs from the cache (${options.peerCacheDir}), ${peerCache.misses} run now`);
  for (const peer of peers) {
    const runs = peerRuns.get(peer.name)!;
    const errors = [...runs.values()].filter((r) => r.error).length;
    log(`  ${peer.name}: ${scored.length} pages, median ${median([...runs.values()].map((r) => r.ms)).toFixed(1)} ms${errors ? `, ${errors} errors` : ''}`);
  }

  return { applyLogger, ourRuns, methodRuns, peerRuns, peers, skipped, applySeconds, peersSeconds, peerCache };
}

/**
 * Pages each extractor runs on, untimed, before the timed runs: this many of each group's first
 * scored pages. A set's speed ratio must not depend on where it stands on the command line: with
 * three warm-up pages, the first set's pages ran with apply's code (and jsdom's) still cold
 * (dragnet-sites' apply median 3.2 ms first, 2.3 ms last in the same command); the learned
 * group's rules code is warmed only by learned pages.
 */
const WARM_UP_PAGES = 10;

function warmUpPages<T extends { plan: { group: Group } }>(scored: readonly T[]): T[] {
  const taken = new Map<Group, number>();
  return scored.filter(({ plan }) => {
    const n = taken.get(plan.group) ?? 0;
    taken.set(plan.group, n + 1);
    return n < WARM_UP_PAGES;
  });
}

/** Score ours, each peer and each fallback method on every scored page against the gold. */
async function scorePages(plan: BenchPlan, rendered: Map<string, RenderedPage>, extraction: Extraction, text: (run: { text: string; title?: string }) => string) {
  const { scored, methodNames, scoring } = plan;
  const { ourRuns, peerRuns, methodRuns, peers } = extraction;
  // the other scoring too (body alone when the run scores title+body, and the reverse): both pooled from one run
  const otherMode: ScoringMode = scoring === 'body' ? 'title+body' : 'body';
  const perPage: PageResult[] = [];
  const ourScores = new Map<string, PageScore>();
  const peerScores = new Map<string, Map<string, PageScore>>(peers.map((p) => [p.name, new Map()]));
  const methodScores = new Map<string, Map<string, PageScore>>(methodNames.map((m) => [m, new Map()]));
  for (const { entry, plan } of scored) {
    const gold = await entry.gold();
    const ours = ourRuns.get(entry.id)!;
    const s = scorePage(text(ours), gold);
    ourScores.set(entry.id, s);
    const peerFigures: PageResult['peers'] = {};
    const other = { scoring: otherMode, ours: pageFigures(scorePage(scoredText(otherMode, ours.title, ours.text), gold)), peers: {} as Record<string, PageFigures> };
    for (const peer of peers) {
      const run = peerRuns.get(peer.name)!.get(entry.id)!;
      other.peers[peer.name] = pageFigures(scorePage(scoredText(otherMode, run.title, run.text), gold));
      const ps = scorePage(text(run), gold);
      peerScores.get(peer.name)!.set(entry.id, ps);
      peerFigures[peer.name] = { ...pageFigures(ps), ms: round(run.ms, 2) ?? 0, ...(run.error ? { error: run.error } : {}) };
    }
    let methodFigures: PageResult['methods'];
    if (plan.group === 'fallback' && methodNames.length) {
      methodFigures = {};
      for (const m of methodNames) {
        const run = methodRuns.get(m)!.get(entry.id)!;
        const ms = scorePage(text(run), gold);
        methodScores.get(m)!.set(entry.id, ms);
        methodFigures[m] = {
          ...pageFigures(ms),
          ms: round(run.ms ?? Number.NaN, 2) ?? 0,
          ...(run.notArticle ? { notArticle: true } : {}),
          ...(run.error ? { error: run.error } : {}),
        };
      }
    }
    const r = rendered.get(entry.id)!;
    perPage.push({
      id: entry.id,
      site: plan.site === NO_SITE ? null : plan.site,
      group: plan.group,
      url: r.renderUrl,
      ...(r.error ? { renderError: r.error } : {}),
      ...(ours.method ? { method: ours.method } : {}),
      ...(ours.notArticle ? { notArticle: true } : {}),
      ...(ours.ms !== undefined ? { applyMs: ours.ms } : {}),
      ...(ours.error && !r.error ? { applyError: ours.error } : {}),
      ours: pageFigures(s),
      peers: peerFigures,
      ...(methodFigures ? { methods: methodFigures } : {}),
      otherScoring: other,
    });
  }
  return { perPage, ourScores, peerScores, methodScores };
}

/** The figures: overall, per peer, per method, per site, timing. */
function summarize(
  plan: BenchPlan,
  options: BenchOptions,
  run: {
    startedAt: string; t0: number; renderer: BenchRenderer; learnFromRenders?: { rendered: number; fromCache: number; trusted: number }; rendered: Map<string, RenderedPage>; renderSeconds: number;
    siteRules: SiteRules; learnSeconds: number; extraction: Extraction; scores: Awaited<ReturnType<typeof scorePages>>;
  },
): BenchResult {
  const { dataset, learnFrom, renderKey, entries, groups, plans, scored, train, scoring, methodNames } = plan;
  const { startedAt, t0, renderer, rendered, renderSeconds, siteRules, learnSeconds } = run;
  const { ourRuns, peerRuns, methodRuns, peers, skipped, applySeconds, peersSeconds } = run.extraction;
  const { perPage, ourScores, peerScores, methodScores } = run.scores;
  const idsOf = (g?: Group) => scored.filter((x) => !g || x.plan.group === g).map((x) => x.entry.id);
  const pick = (m: Map<string, PageScore>, ids: string[]) => ids.map((id) => m.get(id)!);
  const learnedIds = idsOf('learned');
  const fallbackIds = idsOf('fallback');
  const allIds = idsOf();

  const peerSummaries: Record<string, PeerSummary> = {};
  for (const peer of peers) {
    const m = peerScores.get(peer.name)!;
    const runs = peerRuns.get(peer.name)!;
    const ms = (ids: string[]) => round(median(ids.map((id) => runs.get(id)!.ms)), 2);
    const all = figures(pick(m, allIds));
    peerSummaries[peer.name] = {
      ...all,
      msMedian: ms(allIds),
      msP90: round(quantile(allIds.map((id) => runs.get(id)!.ms), 0.9), 2),
      errors: [...runs.values()].filter((r) => r.error).length,
      learned: { ...figures(pick(m, learnedIds)), msMedian: ms(learnedIds) },
      fallback: { ...figures(pick(m, fallbackIds)), msMedian: ms(fallbackIds) },
    };
  }

  const methodSummaries: Record<string, MethodSummary> = {};
  if (fallbackIds.length) {
    for (const m of methodNames) {
      const runs = methodRuns.get(m)!;
      const ms = fallbackIds.map((id) => runs.get(id)!.ms).filter((x): x is number => x !== undefined);
      methodSummaries[m] = {
        ...figures(pick(methodScores.get(m)!, fallbackIds)),
        msMedian: round(median(ms), 2),
        msP90: round(quantile(ms, 0.9), 2),
        notArticle: fallbackIds.filter((id) => runs.get(id)!.notArticle).length,
        errors: fallbackIds.filter((id) => runs.get(id)!.error && rendered.get(id)!.snapshot).length,
      };
    }
  }

  const perSite: SiteRow[] = plans.map((plan) => {
    const ids = plan.scored.map((e) => e.id);
    const sr = siteRules.get(plan.site);
    const peerF1: Record<string, number | null> = {};
    let best: SiteRow['bestPeer'];
    for (const peer of peers) {
      const f = figures(pick(peerScores.get(peer.name)!, ids)).f1;
      peerF1[peer.name] = f;
      if (f !== null && (!best || (best.f1 ?? -1) < f)) best = { name: peer.name, f1: f };
    }
    return {
      site: plan.site,
      group: plan.group,
      // this set's pages of the site (with --learn-from, the training pages are the other set's)
      pages: (learnFrom ? 0 : plan.train.length) + plan.scored.length,
      trainPages: plan.train.length,
      scoredPages: ids.length,
      learned: Boolean(sr?.rules),
      ...(sr?.note ? { learnNote: sr.note } : {}),
      ...(sr?.learnMs !== undefined ? { learnMs: round(sr.learnMs, 1)! } : {}),
      ...(plan.train.length ? { trainBlocks: plan.train.reduce((n, e) => n + (rendered.get(renderKey(e))!.features?.blocks.length ?? 0), 0) } : {}),
      ...(sr?.rules ? { selectors: sr.rules.content.selectors.length, selfCheck: sr.rules.selfCheck } : {}),
      rulesPages: ids.filter((id) => ourRuns.get(id)?.method === 'rules').length,
      ours: figures(pick(ourScores, ids)),
      peers: peerF1,
      ...(best ? { bestPeer: best } : {}),
      ...(plan.group === 'fallback' && methodNames.length
        ? { methods: Object.fromEntries(methodNames.map((m) => [m, figures(pick(methodScores.get(m)!, ids)).f1])) }
        : {}),
    };
  });

  const applyMs = (ids: string[]) => ids.map((id) => ourRuns.get(id)!.ms).filter((x): x is number => x !== undefined);
  const renderMs = [...rendered.values()].map((r) => r.renderMs).filter((x): x is number => x !== undefined);
  const learnMs = [...siteRules.values()].map((s) => s.learnMs).filter((x): x is number => x !== undefined);
  const readabilityRuns = peerRuns.get('readability');
  const ratio = (ids: string[]) => {
    if (!readabilityRuns || ids.length === 0) return null;
    const ours = median(applyMs(ids));
    return round(median(ids.map((id) => readabilityRuns.get(id)!.ms)) / ours, 1);
  };

  const learnedSiteIds = learnedIds;
  const result: BenchResult = {
    dataset: dataset.name,
    datasetDir: dataset.dir,
    startedAt,
    options: {
      train,
      ...(options.trainFrom === 'last' ? { trainFrom: 'last' as const } : {}),
      ...(options.trainSeed !== undefined ? { trainSeed: options.trainSeed } : {}),
      sitesBy: options.sitesBy ?? 'host',
      ...(learnFrom ? { learnFrom: learnFrom.name } : {}),
      ...(plan.fallbackModel ? { fallbackModel: { file: plan.fallbackModel.file, sha256: plan.fallbackModel.sha256, trainedOn: plan.fallbackModel.model.trainedOn } } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.sites?.length ? { sites: options.sites } : {}),
      peers: peers.map((p) => p.name),
      scoring,
      methods: methodNames,
      ...(options.fields ? { fields: true } : {}),
    },
    pages: entries.length,
    sites: [...groups.keys()].filter((s) => s !== NO_SITE).length,
    learnedSites: [...siteRules.values()].filter((s) => s.rules).length,
    trainPages: plans.reduce((n, p) => n + p.train.length, 0),
    scoredPages: allIds.length,
    ours: {
      ...figures(pick(ourScores, allIds)),
      learnedPages: learnedIds.length,
      fallbackPages: fallbackIds.length,
      rulesMethodPages: learnedSiteIds.filter((id) => ourRuns.get(id)!.method === 'rules').length,
      fallbackMethodPages: learnedSiteIds.filter((id) => ourRuns.get(id)!.method === 'fallback').length,
      renderFailures: [...rendered.values()].filter((r) => r.error).length,
      learned: figures(pick(ourScores, learnedIds)),
      fallback: figures(pick(ourScores, fallbackIds)),
    },
    peers: peerSummaries,
    fallbackMethods: methodSummaries,
    skippedPeers: skipped,
    timing: {
      applyMsMedian: round(median(applyMs(allIds)), 3),
      applyMsP90: round(quantile(applyMs(allIds), 0.9), 3),
      applyMsMedianLearned: round(median(applyMs(learnedIds)), 3),
      applyMsMedianFallback: round(median(applyMs(fallbackIds)), 3),
      learnMsPerSite: round(mean(learnMs), 1),
      learnMsMedian: round(median(learnMs), 1),
      learnMsMax: round(learnMs.length ? Math.max(...learnMs) : Number.NaN, 1),
      renderMsMedian: round(median(renderMs), 0),
      renderMsP90: round(quantile(renderMs, 0.9), 0),
      renderedThisRun: renderer.rendered + (run.learnFromRenders?.rendered ?? 0),
      renderedFromCache: renderer.fromCache + (run.learnFromRenders?.fromCache ?? 0),
      ...(renderer.trusted + (run.learnFromRenders?.trusted ?? 0) ? { renderedByOtherCode: renderer.trusted + (run.learnFromRenders?.trusted ?? 0) } : {}),
      ...(run.extraction.peerCache ? { peerRunsFromCache: run.extraction.peerCache.hits } : {}),
      readabilityOverApplyLearned: ratio(learnedIds.filter((id) => ourRuns.get(id)!.ms !== undefined)),
      readabilityOverApplyAll: ratio(allIds.filter((id) => ourRuns.get(id)!.ms !== undefined)),
      wallSeconds: {
        render: round(renderSeconds, 1)!,
        learn: round(learnSeconds, 2)!,
        apply: round(applySeconds, 2)!,
        peers: round(peersSeconds, 1)!,
        total: round((performance.now() - t0) / 1000, 1)!,
      },
    },
    perSite,
    perPage,
  };
  return result;
}

async function dump(
  dir: string,
  ids: string[],
  text: (run: { text: string; title?: string }) => string,
  ours: Map<string, OurRun>,
  peers: Map<string, Map<string, Run>>,
  methods: Map<string, Map<string, Run>>,
  rules: Map<string, { rules?: RulesDocument }>,
): Promise<void> {
  // What was scored: with title+body scoring, each text starts with its tool's title.
  await mkdir(path.join(dir, 'rules'), { recursive: true });
  for (const id of ids) {
    const our = ours.get(id)!;
    await writeFile(path.join(dir, `${id}.ours.txt`), text(our));
    if (our.header) await writeFile(path.join(dir, `${id}.ours-header.txt`), our.header + '\n');
    for (const [name, runs] of peers) await writeFile(path.join(dir, `${id}.${name}.txt`), text(runs.get(id)!));
    for (const [name, runs] of methods) {
      const run = runs.get(id);
      if (run) await writeFile(path.join(dir, `${id}.method-${name}.txt`), text(run));
    }
  }
  for (const [site, r] of rules) if (r.rules) await writeFile(path.join(dir, 'rules', `${site}.json`), JSON.stringify(r.rules, null, 2) + '\n');
}
