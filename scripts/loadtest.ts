/**
 * Load test of the embedded runner: `npm run loadtest -- [--urls N] [--sites S] [--concurrency C] [--json out.json]`.
 *
 * N URLs (default 2,000) of generated news sites, served on 127.0.0.1 by a child process (scripts/loadtest-sites.ts,
 * so the runner's memory is measured without the pages it serves), each under its own
 * `site-<i>.localhost` name, with 2% broken pages (404, 500, non-HTML), go through the whole embedded
 * pipeline (render, learn, apply) with the default politeness (robots.txt, one page a second per host)
 * and the egress guard (the sites are allowlisted by name). Then:
 *
 * - every URL must end as an article or as a dead letter with a reason (`lost` counts those that did not),
 *   broken pages as dead letters, healthy ones as articles;
 * - peak memory is sampled (this process and the Chromium processes);
 * - Chromium's open pages and processes are counted after warm-up and after the run (leaks), and no
 *   Chromium process may remain once the renderer is closed.
 *
 * Prints a summary and, with --json, writes { submitted, articles, articlesByMethod, deadLetters, lost, peakRssMb,
 * browserPagesLeaked, pagesPerSecond, applyRunsPerUrl, wallSeconds, fetchPathShare, ... } to the file.
 * Exits 1 if anything was lost or leaked.
 *
 * - `pagesPerSecond`: URLs done (articles and dead letters) per second of the run (submit to drained);
 *   `wallSeconds`: that run's wall time;
 * - `applyRunsPerUrl`: apply messages handled (each one an extraction) per URL submitted: 1 when
 *   every page is extracted once, more when relearns extract pages again;
 * - `fetchPathShare`: share of the URLs submitted that took the fetch path (no browser, docs/fetch-path.md);
 *   `--no-fetch-path` renders every page (0), for comparison;
 * - `--learned-urls K`: once the run is over, K more unseen URLs of the same sites (learned by then, when
 *   their rules work on served HTML) are submitted and run: `learnedWave` gives how many took the fetch
 *   path (`fetchPathShare` among pages of sites already learned when submitted). The run's own figures
 *   above are taken before this wave;
 * - memory: Node's RSS and heap sampled every 500 ms (`peakRssMb`), and every 15 s with the URLs done
 *   (`memorySamples`); `rssGrowthKbPerUrl` is the RSS after the run less the RSS after warm-up, per URL.
 *   Run with `NODE_OPTIONS=--expose-gc` to have the heap measured after a full collection
 *   (`heapUsedAfterGcMb`), and `--heap-snapshot file` to write a V8 heap snapshot once the run is over.
 */
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { writeHeapSnapshot } from 'node:v8';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../lib/config/config';
import { scriptArgs } from '../lib/util/script-args';
import { EmbeddedPipeline } from '../lib/pipeline/embedded';
import type { ConsumerEvent } from '../lib/queue/worker';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import type { SiteUrls, SitesRequest } from './loadtest-sites';

const { values: args } = scriptArgs(
  {
    options: {
      urls: { type: 'string', default: '2000' },
      sites: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'broken-rate': { type: 'string', default: '0.02' },
      json: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'heap-snapshot': { type: 'string' },
      'no-fetch-path': { type: 'boolean', default: false },
      'learned-urls': { type: 'string', default: '0' },
    },
  },
  'usage: npm run loadtest -- [--urls N] [--sites S] [--concurrency C] [--broken-rate R] [--learned-urls K] [--no-fetch-path] [--json out.json] [--heap-snapshot file] [--keep]\n' +
    '(what each measures: the comment at the head of scripts/loadtest.ts)',
);

const N = Number(args.urls);
const SITES = Number(args.sites ?? Math.max(1, Math.ceil(N / 100)));
const BROKEN = Number(args['broken-rate']);
/** A second wave, after the run: this many unseen URLs of the same sites, now learned (round-robin). */
const LEARNED_URLS = Number(args['learned-urls']);
const say = (line: string) => process.stderr.write(line + '\n');

/** Processes by parent: pid → ppid, read from /proc. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      out.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

/** Chromium processes of this run: the browser (its command line names the profile folder) and every descendant. */
function browserProcesses(profile: string | undefined): number[] {
  if (!profile) return [];
  const tree = parents();
  const roots = new Set<number>();
  for (const pid of tree.keys()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) roots.add(pid);
    } catch {
      // gone
    }
  }
  const all = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of tree) {
      if (!all.has(pid) && all.has(ppid)) {
        all.add(pid);
        grew = true;
      }
    }
  }
  return [...all];
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spider-loadtest-'));

  // Sites: N URLs spread evenly, each with 2% broken pages, served by a child process (the web is not
  // the runner: its pages held for serving would count in the runner's memory).
  const web = fork(fileURLToPath(new URL('./loadtest-sites.ts', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const perSite = Math.ceil(N / SITES);
  const request: SitesRequest = { sites: SITES, perSite, extra: Math.ceil(LEARNED_URLS / SITES), brokenRate: BROKEN };
  const answered = new Promise<SiteUrls[]>((resolve, reject) => {
    web.once('message', (m) => resolve(m as SiteUrls[]));
    web.once('exit', (code) => reject(new Error(`the sites' process exited (${code}) before serving`)));
  });
  web.send(request);
  const sites = await answered;
  // Round-robin over the sites, so that hosts take turns (politeness: one page a second per host).
  const submitted: { url: string; broken: boolean }[] = [];
  for (let k = 0; submitted.length < N; k++) {
    let added = false;
    for (const s of sites) {
      if (k < s.urls.length && submitted.length < N) {
        submitted.push(s.urls[k]);
        added = true;
      }
    }
    if (!added) break;
  }
  const brokenSubmitted = submitted.filter((u) => u.broken).length;
  say(`loadtest: ${submitted.length} URLs (${brokenSubmitted} broken) on ${SITES} sites, render concurrency ${args.concurrency}, fetch path ${args['no-fetch-path'] ? 'off' : 'on'}, data in ${dataDir}`);

  const config = loadConfig({
    dataDir,
    allowHosts: ['*.localhost'],
    renderConcurrency: Number(args.concurrency),
    // --no-fetch-path: every page rendered, for comparison (docs/fetch-path.md)
    fetchPath: !args['no-fetch-path'],
  });
  const pipeline = await new EmbeddedPipeline(config).open();

  // Memory, sampled: this process and the Chromium processes.
  let peakNode = 0;
  let peakBrowser = 0;
  let peakTotal = 0;
  let peakHeap = 0;
  const sample = () => {
    const node = process.memoryUsage.rss() / 1048576;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed / 1048576);
    const browser = browserProcesses(pipeline.activeRenderer?.profileDir).reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;
    peakNode = Math.max(peakNode, node);
    peakBrowser = Math.max(peakBrowser, browser);
    peakTotal = Math.max(peakTotal, node + browser);
  };
  const sampler = setInterval(sample, 500);
  /** Heap used after a full collection when the process runs with --expose-gc, else as it is. */
  const heapMb = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed / 1048576;
  };

  // Warm-up: one page, so the browser is up; then count its pages and processes.
  const warm = new URL('/', sites[0].urls[0].url).href;
  await pipeline.submit([{ url: warm }]);
  await pipeline.run();
  const renderer = pipeline.activeRenderer!;
  // Contexts kept for later renders hold a renderer process each: counted without them, before and after.
  await renderer.closeIdleContexts();
  const pagesBefore = await renderer.openPages();
  const processesBefore = browserProcesses(renderer.profileDir).length;
  const rssAfterWarmUp = process.memoryUsage.rss() / 1048576;
  const heapAfterWarmUp = heapMb();
  const memorySamples: { seconds: number; urlsDone: number; rssMb: number; heapUsedMb: number }[] = [];

  const tally = { rendered: 0, fetched: 0, renderRetries: 0, deferrals: 0, learned: 0, applied: 0, dead: 0 };
  let lastReport = Date.now();
  const onEvent = (e: ConsumerEvent) => {
    if (e.queue === 'render' && e.outcome === 'done') tally.rendered++;
    if (e.queue === 'render' && e.outcome === 'done' && (e.result as { path?: string })?.path === 'fetch') tally.fetched++;
    if (e.queue === 'render' && e.outcome === 'retry') tally.renderRetries++;
    if (e.queue === 'learn' && e.outcome === 'done' && (e.result as { learned?: boolean })?.learned) tally.learned++;
    if (e.queue === 'apply' && e.outcome === 'done') tally.applied++;
    if (e.outcome === 'dead') tally.dead++;
    if (Date.now() - lastReport > 15_000) {
      lastReport = Date.now();
      const secs = (Date.now() - started) / 1000;
      const rss = process.memoryUsage.rss() / 1048576;
      const urlsDone = tally.rendered + pipeline.queues.render.deadLetterCount;
      memorySamples.push({ seconds: Math.round(secs), urlsDone, rssMb: Math.round(rss), heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1048576) });
      say(`  ${secs.toFixed(0)} s: rendered ${tally.rendered}/${submitted.length}, learned ${tally.learned}, applied ${tally.applied}, dead ${tally.dead}, rss ${rss.toFixed(0)} MB (peak ${peakNode.toFixed(0)}+${peakBrowser.toFixed(0)} MB)`);
    }
  };
  const runStarted = Date.now();
  const report = await pipeline.submit(submitted.map((u) => ({ url: u.url })));
  await pipeline.run({ onEvent });
  const runSeconds = (Date.now() - runStarted) / 1000;

  const first = { ...tally };
  sample();
  const rssAfterRun = process.memoryUsage.rss() / 1048576;
  const heapAfterRun = heapMb();
  if (args['heap-snapshot']) say(`heap snapshot: ${writeHeapSnapshot(args['heap-snapshot'])}`);

  // Second wave: pages of sites learned by now (their rules in the store when submitted).
  const later: string[] = [];
  for (let k = 0; later.length < LEARNED_URLS; k++) {
    const round = sites.filter((s) => k < s.later.length).map((s) => s.later[k].url);
    if (round.length === 0) break;
    later.push(...round.slice(0, LEARNED_URLS - later.length));
  }
  let learnedWave: { submitted: number; fetched: number; rendered: number; articles: number; seconds: number; fetchPathShare: number } | undefined;
  if (later.length) {
    const before = { fetched: tally.fetched, rendered: tally.rendered };
    const waveStarted = Date.now();
    await pipeline.submit(later.map((url) => ({ url })));
    await pipeline.run({ onEvent });
    let waveArticles = 0;
    for (const url of later) if (await pipeline.store.get(keys.article(siteOf(url), pageIdOf(url)))) waveArticles++;
    const fetched = tally.fetched - before.fetched;
    learnedWave = {
      submitted: later.length,
      fetched,
      rendered: tally.rendered - before.rendered - fetched,
      articles: waveArticles,
      seconds: Math.round((Date.now() - waveStarted) / 100) / 10,
      fetchPathShare: Number((fetched / later.length).toFixed(3)),
    };
  }

  const pagesAfter = await renderer.openPages();
  await renderer.closeIdleContexts();
  // Renderer processes of closed contexts exit asynchronously: give them a moment before counting.
  await new Promise((r) => setTimeout(r, 2000));
  const processesAfter = browserProcesses(renderer.profileDir).length;
  const profile = renderer.profileDir;
  const egress = renderer.egressStats;
  await pipeline.close();
  await new Promise((r) => setTimeout(r, 1000));
  const processesAfterClose = browserProcesses(profile).length;
  clearInterval(sampler);

  // Every URL: an article, or a dead letter with a reason.
  const dead = new Map<string, string>();
  for (const d of pipeline.deadLetters()) {
    const url = (d.body as { url?: string }).url;
    if (url && d.queue === 'render') dead.set(url, d.reason);
  }
  let articles = 0;
  /** The submitted URLs' articles by how they were made in the end (rules, fallback), once the run and the wave are over. */
  const articlesByMethod: Record<string, number> = {};
  let deadLetters = 0;
  let lost = 0;
  let brokenAsArticle = 0;
  let healthyDead = 0;
  const reasons = new Map<string, number>();
  const lostUrls: string[] = [];
  for (const u of submitted) {
    const site = siteOf(u.url);
    const article = await pipeline.store.get(keys.article(site, pageIdOf(u.url)));
    if (article) {
      articles++;
      let method = 'unreadable';
      try {
        method = String((JSON.parse(article.body.toString('utf8')) as { method?: unknown }).method);
      } catch {
        // counted as such: the summary goes on
      }
      articlesByMethod[method] = (articlesByMethod[method] ?? 0) + 1;
      if (u.broken) brokenAsArticle++;
    } else if (dead.has(u.url) && dead.get(u.url)) {
      deadLetters++;
      if (!u.broken) healthyDead++;
      const reason = dead.get(u.url)!.replace(/https?:\/\/\S+/g, '<url>').replace(/\d{4,}/g, 'N');
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    } else {
      lost++;
      lostUrls.push(u.url);
    }
  }
  const otherDead = pipeline.deadLetters().filter((d) => d.queue !== 'render');

  const result = {
    submitted: submitted.length,
    articles,
    articlesByMethod,
    deadLetters,
    lost,
    peakRssMb: Math.round(peakNode),
    peakBrowserRssMb: Math.round(peakBrowser),
    peakTotalRssMb: Math.round(peakTotal),
    peakHeapUsedMb: Math.round(peakHeap),
    heapUsedAfterMb: Math.round(process.memoryUsage().heapUsed / 1048576),
    browserPagesLeaked: pagesAfter - pagesBefore,
    browserPagesBefore: pagesBefore,
    browserPagesAfter: pagesAfter,
    browserProcessesBefore: processesBefore,
    browserProcessesAfter: processesAfter,
    browserProcessesLeaked: Math.max(0, processesAfter - processesBefore),
    browserProcessesAfterClose: processesAfterClose,
    brokenSubmitted,
    brokenAsArticle,
    healthyDeadLettered: healthyDead,
    rejectedAtSubmit: report.rejected.length,
    deadLetterReasons: Object.fromEntries([...reasons].sort((a, b) => b[1] - a[1])),
    learnOrApplyDeadLetters: otherDead.length,
    renderRetries: first.renderRetries,
    rulesLearned: first.learned,
    articlesApplied: first.applied,
    egress,
    sites: SITES,
    renderConcurrency: config.renderConcurrency,
    hostIntervalMs: config.hostIntervalMs,
    seconds: Math.round((Date.now() - started) / 1000),
    runSeconds: Math.round(runSeconds),
    wallSeconds: Math.round(runSeconds * 10) / 10,
    pagesPerSecond: Number((submitted.length / runSeconds).toFixed(2)),
    applyRunsPerUrl: Number((first.applied / submitted.length).toFixed(3)),
    fetchPathShare: Number((first.fetched / submitted.length).toFixed(3)),
    fetchPath: config.fetchPath,
    pagesFetched: first.fetched,
    rssAfterWarmUpMb: Math.round(rssAfterWarmUp),
    rssAfterRunMb: Math.round(rssAfterRun),
    rssGrowthKbPerUrl: Math.round(((rssAfterRun - rssAfterWarmUp) * 1024) / submitted.length),
    heapAfterWarmUpMb: Math.round(heapAfterWarmUp),
    heapUsedAfterGcMb: (globalThis as { gc?: unknown }).gc ? Math.round(heapAfterRun) : undefined,
    heapGrowthKbPerUrl: (globalThis as { gc?: unknown }).gc ? Math.round(((heapAfterRun - heapAfterWarmUp) * 1024) / submitted.length) : undefined,
    memorySamples,
    lostUrls: lostUrls.slice(0, 20),
    /** `--learned-urls`: the second wave, of sites already learned when it was submitted. */
    learnedWave,
  };
  web.disconnect();
  if (!args.keep) await rm(dataDir, { recursive: true, force: true });

  say('');
  say(`submitted ${result.submitted}: ${result.articles} articles (${Object.entries(articlesByMethod).map(([m, n]) => `${n} ${m}`).join(', ')}), ${result.deadLetters} dead letters, ${result.lost} lost`);
  say(`broken pages: ${brokenSubmitted} submitted, ${brokenAsArticle} became articles; healthy pages dead-lettered: ${healthyDead}`);
  for (const [reason, n] of reasons) say(`  ${n} × ${reason}`);
  say(`peak RSS: node ${result.peakRssMb} MB (heap used: peak ${result.peakHeapUsedMb} MB, ${result.heapUsedAfterMb} MB at the end), Chromium ${result.peakBrowserRssMb} MB, together ${result.peakTotalRssMb} MB`);
  say(`browser pages open: ${pagesBefore} after warm-up, ${pagesAfter} after the run (leaked ${result.browserPagesLeaked})`);
  say(`Chromium processes: ${processesBefore} after warm-up, ${processesAfter} after the run, ${processesAfterClose} after close`);
  say(`egress proxy: ${JSON.stringify(egress)}`);
  say(`time: ${result.wallSeconds} s for the run, ${result.pagesPerSecond} pages/s (fetch path: ${(result.fetchPathShare * 100).toFixed(0)}% of pages), ${result.seconds} s in all`);
  say(`apply runs: ${result.articlesApplied} for ${result.submitted} URLs (${result.applyRunsPerUrl} per URL), ${result.rulesLearned} learns`);
  if (learnedWave) {
    say(`then ${learnedWave.submitted} URLs of the sites learned by then: ${learnedWave.fetched} fetched, ${learnedWave.rendered} rendered (fetch path: ${(learnedWave.fetchPathShare * 100).toFixed(1)}%), ${learnedWave.articles} articles, ${learnedWave.seconds} s`);
  }
  say(
    `node RSS: ${result.rssAfterWarmUpMb} MB after warm-up, ${result.rssAfterRunMb} MB after the run (${result.rssGrowthKbPerUrl} KB per URL), peak ${result.peakRssMb} MB` +
      (result.heapUsedAfterGcMb !== undefined ? `; heap after gc: ${result.heapAfterWarmUpMb} → ${result.heapUsedAfterGcMb} MB (${result.heapGrowthKbPerUrl} KB per URL)` : ''),
  );
  if (args.json) {
    await writeFile(args.json, JSON.stringify(result, null, 2) + '\n');
    say(`wrote ${args.json}`);
  }
  process.stdout.write(
    JSON.stringify({
      submitted: result.submitted,
      articles,
      deadLetters,
      lost,
      peakRssMb: result.peakRssMb,
      browserPagesLeaked: result.browserPagesLeaked,
      pagesPerSecond: result.pagesPerSecond,
      applyRunsPerUrl: result.applyRunsPerUrl,
      wallSeconds: result.wallSeconds,
      fetchPathShare: result.fetchPathShare,
    }) + '\n',
  );
  if (lost > 0 || result.browserPagesLeaked > 0 || processesAfterClose > 0 || healthyDead > 0 || brokenAsArticle > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
