/**
 * Field rules on real pages (issue 6): for each site (a host, as the pipeline keys it:
 * bench/sites.ts) whose pages carry machine-readable values (JSON-LD, Open Graph, meta
 * author/date), learn the field rules from its first `train` pages
 * (rendered from their archived HTML, values from their own metadata), then take its other pages
 * with those values removed from the HTML, render them, and extract title, byline and published from
 * the learned HTML rules alone; compare with the removed values (normalised exact match for title
 * and byline, dates as dates), beside Readability.js's title, byline and publishedTime on the same
 * stripped pages (jsdom, at the page's URL).
 *
 *   npx tsx bench/fields.ts <dataset folder> [--train 5] [--json out.json] [--sites a,b] [--no-cache]
 *
 * Every page is rendered as it is (the values are the ones the render step reads: the truth), and the
 * test pages again without their values, through the bench's renderer (bench/render.ts), cached
 * under `.bench/fields/<dataset>/` (git-ignored) when run alone. Pages of a site are counted for a
 * field when at least `minSupport` training pages and the page itself carry a value for it; a title
 * value several pages of the site share (a site-wide og:title) is not a page's title and is not counted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../lib/html/parse';
import { loadConfig, type Config } from '../lib/config/config';
import { readDataset, type DatasetEntry } from '../lib/dataset/dataset';
import { groupBySite, NO_SITE, type SitesBy } from './sites';
import { siteOf } from '../lib/store/keys';
import { MemoryStore } from '../lib/store/memory-store';
import type { FeatureDocument } from '../lib/types/feature-document';
import type { FieldsSection } from '../lib/types/rules-document';
import { applyFieldRules, type FieldValues } from '../lib/fields/apply-fields';
import { parseMachineDate, sameDate } from '../lib/text/dates';
import { FIELD_NAMES, type FieldName } from '../lib/fields/extract';
import { DEFAULT_LEARN_FIELDS_OPTIONS } from '../lib/fields/learn';
import { learnSiteFields } from '../lib/fields/learn-fields';
import { metadataValues } from '../lib/fields/sources';
import { loadReadability } from './readability';
import { BenchRenderer } from './render';
import { stripFieldMetadata } from './strip-fields';
import { isTitleOf, normalizeText, sameByline, headlineVariants } from '../lib/text/match';

export interface FieldScore {
  accuracy: number;
  pages: number;
  right: number;
}
export type FieldScores = Record<FieldName, FieldScore>;

export interface FieldsBenchSite {
  site: string;
  trainPages: number;
  testPages: number;
  /** Fields counted on this site (enough training values and test values). */
  fields: FieldName[];
  /** The best learned rule per field (CSS form), or null when none reached the minimum score. */
  rules: Partial<Record<FieldName, string | null>>;
  ours: Partial<Record<FieldName, { right: number; pages: number }>>;
  readability: Partial<Record<FieldName, { right: number; pages: number }>>;
}

export interface FieldsBenchPage {
  id: string;
  site: string;
  url: string;
  field: FieldName;
  truth: string;
  ours?: string;
  readability?: string;
  oursRight: boolean;
  readabilityRight: boolean;
  error?: string;
}

export interface FieldsBenchResult {
  dataset: string;
  train: number;
  /** Ours: learned HTML rules alone, on the stripped pages. */
  ours: FieldScores;
  /** Readability.js (title, byline, publishedTime) on the same stripped pages. */
  readability: FieldScores;
  sites: FieldsBenchSite[];
  pages: FieldsBenchPage[];
  renders: { rendered: number; cached: number; failed: number };
  elapsedMs: number;
}

export interface FieldsBenchOptions {
  readonly datasetDir: string;
  readonly train?: number;
  /** What a site is (bench/sites.ts): a host, as the pipeline keys it (default), or the manifest's registrable domain. */
  readonly sitesBy?: SitesBy;
  /** Only these sites (named as `sitesBy` names them). */
  readonly sites?: readonly string[];
  /** Render cache root (a folder per dataset below it); undefined: `.bench/fields`. */
  readonly cacheRoot?: string;
  readonly noCache?: boolean;
  readonly config?: Config;
  readonly log?: (line: string) => void;
  /**
   * Render with this instead of the bench's own cached renderer (`npm run bench -- --fields` passes
   * its renderer, so the original pages come from the main bench's render cache). `variant` says
   * whether the page is as archived or with its field values stripped.
   */
  readonly render?: (page: { id: string; variant: 'original' | 'stripped'; url: string; html: string }) => Promise<FieldsBenchRender>;
}

/** What a render gives the field bench. */
export interface FieldsBenchRender {
  readonly features?: FeatureDocument;
  readonly snapshot?: string;
  readonly error?: string;
  readonly cached: boolean;
}

const DEFAULT_CACHE = fileURLToPath(new URL('../.bench/fields', import.meta.url));
/** Readability.js on jsdom: title, byline, publishedTime. */
async function loadReadabilityFields(): Promise<(html: string, url: string) => FieldValues> {
  const parse = await loadReadability();
  return (html, url) => {
    const a = parse(html, url);
    const out: FieldValues = {};
    if (a?.title) out.title = a.title;
    if (a?.byline) out.byline = a.byline;
    if (a?.publishedTime) out.published = a.publishedTime;
    return out;
  };
}

/**
 * Whether an extracted value is the removed one: titles normalised exactly (or without the value's
 * short site-name suffix, "Headline - CNN.com"), bylines normalised exactly after "By", dates as dates.
 */
export function fieldRight(field: FieldName, got: string | undefined, truth: string): boolean {
  if (!got) return false;
  if (field === 'title') return isTitleOf(got, headlineVariants(truth));
  if (field === 'byline') return sameByline(got, truth);
  return sameDate(parseMachineDate(got), parseMachineDate(truth));
}

const score = (right: number, pages: number): FieldScore => ({ accuracy: pages ? Math.round((right / pages) * 10_000) / 10_000 : 0, pages, right });

export async function runFieldsBench(options: FieldsBenchOptions): Promise<FieldsBenchResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const train = options.train ?? 5;
  const minSupport = DEFAULT_LEARN_FIELDS_OPTIONS.minSupport;
  const dataset = await readDataset(options.datasetDir);
  const config = options.config ?? loadConfig({});
  const cacheDir = options.noCache ? undefined : path.join(options.cacheRoot ?? DEFAULT_CACHE, dataset.name);
  const renderer = new BenchRenderer({ config, cacheDir });
  const renders = { rendered: 0, cached: 0, failed: 0 };
  const render = async (id: string, variant: 'original' | 'stripped', url: string, html: string): Promise<FieldsBenchRender> => {
    const r = options.render ? await options.render({ id, variant, url, html }) : await renderer.render(`${id}.${variant}`, url, html);
    if (r.cached) renders.cached++;
    else renders.rendered++;
    if (!r.features) renders.failed++;
    return r;
  };
  const readability = await loadReadabilityFields();

  const totals = { ours: new Map<FieldName, [number, number]>(), readability: new Map<FieldName, [number, number]>() };
  const add = (m: Map<FieldName, [number, number]>, f: FieldName, right: boolean) => {
    const [r, n] = m.get(f) ?? [0, 0];
    m.set(f, [r + (right ? 1 : 0), n + 1]);
  };
  const sites: FieldsBenchSite[] = [];
  const pages: FieldsBenchPage[] = [];

  try {
    for (const [site, entries] of groupBySite(dataset.entries, options.sitesBy)) {
      if (site === NO_SITE || (options.sites && !options.sites.includes(site))) continue;
      if (entries.length <= train) continue;
      const withUrl = entries.filter((e): e is DatasetEntry & { url: string } => !!e.url);
      if (withUrl.length <= train) continue;
      const htmls = await Promise.all(withUrl.map((e) => e.html()));
      // Every page rendered as it is: the values are what the pipeline's render step reads (the
      // collector's JSON-LD, Open Graph and meta values), for training and as the truth of test pages.
      const originals: FieldsBenchRender[] = [];
      for (let i = 0; i < withUrl.length; i++) originals.push(await render(withUrl[i].id, 'original', withUrl[i].url, htmls[i]));
      const values = originals.map((r) => (r.features ? metadataValues(r.features.page) : {}));
      // A title several pages share is the site's name, not a page's title.
      const titleCount = new Map<string, number>();
      for (const v of values) if (v.title) titleCount.set(normalizeText(v.title), (titleCount.get(normalizeText(v.title)) ?? 0) + 1);
      for (const v of values) if (v.title && (titleCount.get(normalizeText(v.title)) ?? 0) >= 2) delete v.title;

      const trainIdx = withUrl.map((_, i) => i).slice(0, train);
      const testIdx = withUrl.map((_, i) => i).slice(train);
      const fields = FIELD_NAMES.filter(
        (f) => trainIdx.filter((i) => values[i][f]).length >= minSupport && testIdx.some((i) => values[i][f]),
      );
      if (fields.length === 0) continue;
      log(`${site}: ${trainIdx.length} training, ${testIdx.length} test pages; fields ${fields.join(', ')}`);

      // Learn from the training pages as rendered, values from their own metadata.
      const store = new MemoryStore();
      const docs: FeatureDocument[] = [];
      for (const i of trainIdx) {
        const r = originals[i];
        if (!r.features || !r.snapshot) {
          log(`  render failed (${withUrl[i].id}): ${r.error}`);
          continue;
        }
        await store.put(r.features.snapshotKey, r.snapshot);
        docs.push(r.features);
      }
      const host = docs[0]?.site ?? siteOf(withUrl[0].url);
      let learned: FieldsSection | undefined;
      if (docs.length) learned = await learnSiteFields(host, docs, store);
      const row: FieldsBenchSite = { site, trainPages: trainIdx.length, testPages: testIdx.length, fields, rules: {}, ours: {}, readability: {} };
      for (const f of fields) row.rules[f] = learned?.[f]?.rules[0]?.selector ?? null;

      for (const i of testIdx) {
        const e = withUrl[i];
        const counted = fields.filter((f) => values[i][f]);
        if (counted.length === 0) continue;
        const stripped = stripFieldMetadata(htmls[i]);
        const r = await render(e.id, 'stripped', e.url, stripped);
        const ours: FieldValues = r.snapshot && learned ? applyFieldRules(parseHtml(r.snapshot), learned) : {};
        let theirs: FieldValues = {};
        let error: string | undefined = r.error;
        try {
          theirs = readability(stripped, e.url);
        } catch (err) {
          error = `readability: ${err instanceof Error ? err.message : String(err)}`;
        }
        for (const f of counted) {
          const truth = values[i][f]!;
          const oursRight = fieldRight(f, ours[f], truth);
          const theirsRight = fieldRight(f, theirs[f], truth);
          add(totals.ours, f, oursRight);
          add(totals.readability, f, theirsRight);
          for (const [side, right] of [['ours', oursRight], ['readability', theirsRight]] as const) {
            const cell = (row[side][f] ??= { right: 0, pages: 0 });
            cell.pages++;
            if (right) cell.right++;
          }
          pages.push({ id: e.id, site, url: e.url, field: f, truth, ours: ours[f], readability: theirs[f], oursRight, readabilityRight: theirsRight, ...(error ? { error } : {}) });
        }
      }
      sites.push(row);
      log(`  rules ${JSON.stringify(row.rules)} ours ${JSON.stringify(row.ours)} readability ${JSON.stringify(row.readability)}`);
    }
  } finally {
    await renderer.close();
  }

  const scores = (m: Map<FieldName, [number, number]>) =>
    Object.fromEntries(FIELD_NAMES.map((f) => [f, score(...(m.get(f) ?? [0, 0]))])) as FieldScores;
  return {
    dataset: dataset.name,
    train,
    ours: scores(totals.ours),
    readability: scores(totals.readability),
    sites,
    pages,
    renders,
    elapsedMs: Date.now() - started,
  };
}

/** The figures as a small table. */
export function formatFieldsReport(r: FieldsBenchResult): string {
  const lines = [`fields on ${r.dataset} (learn from ${r.train} pages per site, values removed from the other pages):`, ''];
  lines.push('field        pages   ours     readability');
  for (const f of FIELD_NAMES) {
    const pct = (s: FieldScore) => `${(s.accuracy * 100).toFixed(1)}%`.padStart(6);
    lines.push(`${f.padEnd(12)} ${String(r.ours[f].pages).padStart(5)}   ${pct(r.ours[f])}   ${pct(r.readability[f])}`);
  }
  lines.push('', `${r.sites.length} sites; renders: ${r.renders.rendered} fresh, ${r.renders.cached} cached, ${r.renders.failed} failed; ${(r.elapsedMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}

/**
 * The `fields` section of the bench's JSON: `title`, `byline`, `published` ({accuracy, pages, right})
 * are ours, repeated under `ours`; `readability` holds Readability.js's on the same pages; then the
 * per-site and per-page rows.
 */
export function fieldsJson(r: FieldsBenchResult): FieldsJson {
  const pick = (s: FieldScores) => Object.fromEntries(FIELD_NAMES.map((f) => [f, { ...s[f] }])) as FieldScores;
  const ours = pick(r.ours);
  return { ...ours, ours, readability: pick(r.readability), train: r.train, sites: r.sites, pages: r.pages, renders: r.renders };
}

export type FieldsJson = FieldScores & {
  ours: FieldScores;
  readability: FieldScores;
  train: number;
  sites: FieldsBenchSite[];
  pages: FieldsBenchPage[];
  renders: FieldsBenchResult['renders'];
};

const FIELDS_USAGE = 'usage: npx tsx bench/fields.ts <dataset folder> [--train 5] [--json out.json] [--sites a,b] [--no-cache]';

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  let datasetDir: string | undefined;
  let json: string | undefined;
  let train = 5;
  let sitesFilter: string[] | undefined;
  let noCache = false;
  while (args.length) {
    const a = args.shift()!;
    if (a === '--json') json = args.shift();
    else if (a === '--train') train = Number(args.shift());
    else if (a === '--sites') sitesFilter = args.shift()?.split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--no-cache') noCache = true;
    else if (a === '--fields') continue;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(FIELDS_USAGE + '\n');
      return;
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${FIELDS_USAGE}`);
    else datasetDir = a;
  }
  if (!datasetDir) throw new Error(FIELDS_USAGE);
  if (!Number.isInteger(train) || train < 1) throw new Error('--train must be a whole number >= 1');
  const result = await runFieldsBench({ datasetDir, train, sites: sitesFilter, noCache, log: (l) => process.stderr.write(l + '\n') });
  process.stdout.write(formatFieldsReport(result) + '\n');
  if (json) {
    await mkdir(path.dirname(path.resolve(json)), { recursive: true });
    await writeFile(json, JSON.stringify({ dataset: result.dataset, fields: fieldsJson(result) }, null, 2) + '\n');
    process.stderr.write(`wrote ${json}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
