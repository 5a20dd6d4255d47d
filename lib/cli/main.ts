#!/usr/bin/env node
/**
 * The `spider` command (also `npm start`). With no arguments it runs the demo.
 * Every command works on the embedded store under --data-dir (default ./spider-data).
 *
 * A command's heavy code (the embedded runner, which loads Chromium's driver when a run starts; the
 * AWS SDK; the report; the fallback's training; the demo) is imported in its action, not here: every
 * run loaded all of it, and `spider --version` took about 3 s where Node and tsx alone take 0.3.
 */
import { readFileSync } from 'node:fs';
import { readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig, unknownVariables, type Config } from '../config/config';
import type { EmbeddedPipeline, EmbeddedPipelineOptions } from '../pipeline/embedded';
import { embeddedStore, embeddedStoreDir } from '../store/fs-store';
import { keys, pageIdOf, siteOf } from '../store/keys';
import { hostProblem } from '../types/messages';
import { ArticleDocumentSchema, type ArticleDocument } from '../types/article-document';
import { RulesDocumentSchema } from '../types/rules-document';
import { describeBadDocument, readDocument, type BadDocument } from '../store/documents';
import { readThroughRedirect } from '../store/redirects';
import type { RedirectRecord } from '../types/redirect-record';
import { createProgress, progressMode, type Progress } from './progress';
import { formatStatus } from './status';
import { formatArticle, shownReason, shownText, stderrLogger, terminalSafe, terminalSafeJson, type OutputFormat } from './format';
import { formatTraining } from './train';
import { extractAll, findDeadLetter, isUrlArgument, readInputs } from './extract';
import { toPostlightExtractor } from '../apply/postlight-export';
import { replayScoringNote, runReplay } from './replay';
import type { DeployedStack } from '../aws/deployed-stack';
import { loadAwsTarget } from '../aws/stack-outputs';
import type { Store } from '../store/store';
import type { StoreTrainingResult } from '../fallback/store-training';
import type { ConsumerEvent } from '../queue/worker';
import { formatDeadLetters } from './dead-letters';
import type { DeadLetter } from '../queue/memory-queue';
import { describeError } from '../util/errors';
import { plural } from '../text/plural';
import { articleOutcome, NO_WORDS_REASON, NOT_ARTICLE_NOTE, type ArticleOutcome } from './outcome';
import { dropSamePages, type SamePage } from './same-page';
import { schemeHint } from './url-hint';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('spider')
  .description('Self-learning web article extractor: render pages, learn per-site rules, extract articles.')
  .version(version, '-V, --version', 'print the version')
  .option('-d, --data-dir <dir>', 'data folder of the embedded store and queues (env SPIDER_DATA_DIR)', folderName)
  .option('-q, --quiet', 'print only dead letters, results and errors')
  .option('-v, --verbose', 'one line per event (rendered, learned, extracted, retried) as well as the progress')
  .option('--progress-interval <seconds>', 'without a terminal: seconds between progress lines', positiveNumber, 30)
  .showHelpAfterError();

function config(): Config {
  const opts = program.opts<{ dataDir?: string }>();
  return loadConfig({ dataDir: opts.dataDir });
}
const quiet = () => Boolean(program.opts<{ quiet?: boolean }>().quiet);

/** Progress of a running pipeline, as the global options and the terminal ask for. */
function progressFor(pipeline: EmbeddedPipeline): Progress {
  const opts = program.opts<{ verbose?: boolean; progressInterval: number }>();
  return createProgress({ mode: progressMode({ quiet: quiet() }), verbose: opts.verbose, intervalSeconds: opts.progressInterval, counts: () => pipeline.queueCounts(), urlsWaiting: () => pipeline.urlsWaiting() });
}

/**
 * The URLs given and read from `file`, valid or not (submit turns an invalid one into a dead letter
 * that says why): one URL a line, trimmed; blank lines and lines starting with # are skipped.
 */
async function readUrls(urls: string[], file?: string): Promise<string[]> {
  const all = [...urls];
  if (file) {
    const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot read the URL list ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EISDIR' ? 'a folder, not a file' : error.message}`);
    });
    all.push(...text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  }
  return all;
}

/** With no URL to submit, says so and sets exit code 1 (`spider work` is how to process what is queued). Returns whether there are some. */
function someUrls(list: readonly string[], file?: string): boolean {
  if (list.length > 0) return true;
  process.stderr.write(`spider: no URLs given${file ? ` (${file === '-' ? 'standard input' : file} has none)` : ''}: give URLs as arguments or -f <file> with one URL per line; \`spider work\` processes URLs already queued\n`);
  process.exitCode = 1;
  return false;
}

/**
 * Submits the URLs to the embedded pipeline: an invalid one is not queued but kept as a dead letter
 * with the reason (`spider dead-letters`), and said on stderr. Returns the rejected ones.
 */
async function submitUrls(pipeline: EmbeddedPipeline, urls: readonly string[]): Promise<readonly { url: string; reason: string }[]> {
  const report = await pipeline.submit(urls.map((url) => ({ url })));
  sayRejected(report.rejected);
  return report.rejected;
}

/** URLs refused at submission, one line each on stderr: the URL as given (quoted; a long one cut, `dead-letters --json` has it whole) and why. */
function sayRejected(rejected: readonly { url: string; reason: string }[]): void {
  for (const r of rejected) process.stderr.write(`rejected ${shownText(r.url, true)}: ${shownReason(r.reason)}${schemeHint(r.url)}\n`);
}

/**
 * The URLs of one input without those that are the same page as an earlier one (./same-page.ts):
 * each dropped one is said on stderr. A URL of a page stored before is submitted again (fetched again).
 */
function withoutSamePages(list: readonly string[]): { unique: string[]; duplicates: SamePage[] } {
  const result = dropSamePages(list);
  for (const d of result.duplicates) process.stderr.write(`skipped ${shownText(d.url)}: the same page as ${shownText(d.sameAs)}, given before\n`);
  return result;
}

/** What `submit` says of the URLs it did not queue again, the same page as an earlier one. */
const samePagesNote = (duplicates: readonly SamePage[]) => (duplicates.length ? `; ${plural(duplicates.length, 'URL')} the same page as an earlier one, not queued again` : '');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface WorkOptions {
  /** Write the final tally there. */
  readonly json?: string;
  /** Exit 0 even when some URLs ended as dead letters or gave no article. */
  readonly allowDeadLetters?: boolean;
  /** URLs refused at submission, counted in the tally as the dead letters they are. */
  readonly rejected?: readonly { url: string; reason: string }[];
  /** URLs not submitted, the same page as an earlier URL of the input: counted in the tally apart. */
  readonly duplicates?: readonly SamePage[];
  /** Each event as well (relearn reads its learn's result). */
  readonly onEvent?: (event: ConsumerEvent) => void;
}

/** Processes every queue to the end with progress, prints the tally, writes it to `options.json` if given. */
async function work(pipeline: EmbeddedPipeline, options: WorkOptions = {}): Promise<void> {
  const progress = progressFor(pipeline);
  for (const r of options.rejected ?? []) progress.rejected(r.url, r.reason);
  for (const d of options.duplicates ?? []) progress.duplicate(d.url, d.sameAs);
  try {
    await pipeline.run({
      onEvent: (event) => {
        progress.onEvent(event);
        options.onEvent?.(event);
      },
      signal: stopping.signal,
    });
  } finally {
    const { tally, line } = progress.stop();
    process.stderr.write(line + '\n');
    if (options.json) await writeFile(options.json, JSON.stringify(tally, null, 2) + '\n');
    // A script must be able to tell that a URL gave no article: any dead letter (a rejected URL
    // included) or page with no words is exit code 1, as in `spider extract` (./outcome.ts).
    if ((tally.outcomes.deadLetters > 0 || tally.outcomes.noWords > 0) && !options.allowDeadLetters) process.exitCode = 1;
  }
}

/**
 * Where users' commands go: a deployed stack when one is configured (SPIDER_BUCKET and
 * SPIDER_*_QUEUE_URL, or SPIDER_STACK_OUTPUTS=cdk-outputs.json), else the embedded store.
 */
async function deployed(): Promise<DeployedStack | undefined> {
  const target = loadAwsTarget();
  if (!target) return undefined;
  const { DeployedStack } = await import('../aws/deployed-stack');
  return new DeployedStack(target);
}

/** The embedded runner on the data folder (not opened). */
async function embeddedPipeline(options?: EmbeddedPipelineOptions): Promise<EmbeddedPipeline> {
  const { EmbeddedPipeline } = await import('../pipeline/embedded');
  return new EmbeddedPipeline(config(), options);
}

/**
 * Whether the embedded data folder a command reads is there: one that does not exist (a mistyped
 * --data-dir, or nothing run yet) is said on stderr with exit code 1, where `status`, `articles`,
 * `rules` and `dead-letters` read it as an empty store and exited 0, and `work` and `relearn` made it
 * empty; one that is a file is said too, where reading it failed on a raw ENOTDIR. A deployed stack
 * has no data folder: true.
 */
async function dataFolderThere(): Promise<boolean> {
  if (loadAwsTarget()) return true;
  const dir = path.resolve(config().dataDir);
  const problem = await stat(dir).then(
    (s) => (s.isDirectory() ? undefined : `${dir} is a file, not a data folder`),
    (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ENOTDIR'
        ? `no data folder at ${dir}: nothing was stored there (\`spider run <url>\`, \`submit\` or \`extract\` makes it); --data-dir or SPIDER_DATA_DIR names the folder, ./spider-data by default`
        : `cannot read the data folder ${dir}: ${error.message}`,
  );
  if (!problem) return true;
  process.stderr.write(`spider: ${terminalSafe(problem, true)}\n`);
  process.exitCode = 1;
  return false;
}

async function readStore(): Promise<Store> {
  return (await deployed())?.store ?? embeddedStore(config().dataDir);
}

/**
 * The dead letters: the data folder's, or the deployed stack's, read from its dead-letter queues and
 * left there (lib/aws/dead-letters.ts; what could not be read is said on stderr).
 */
async function readDeadLetters(): Promise<DeadLetter[]> {
  const target = loadAwsTarget();
  if (!target) return (await (await embeddedPipeline()).open()).deadLetters();
  const { deployedDeadLetters } = await import('../aws/dead-letters');
  const { letters, notes } = await deployedDeadLetters(target);
  for (const note of notes) process.stderr.write(`dead letters: ${terminalSafe(note, true)}\n`);
  return letters;
}

/**
 * SIGTERM, SIGINT or SIGHUP while a pipeline command runs (`timeout`, systemd, Ctrl-C) stops it
 * cleanly: the messages in flight go back to the queue (stopping is no failure of theirs), the
 * browser closes, and the process exits 128 + the signal's number; `rules --report` likewise, writing
 * no report. A second signal exits at once
 * (one more than a second later: Ctrl-C reaches this process both from the terminal and relayed by
 * the wrapper above it, bin/spider.js or npm).
 */
const stopping = new AbortController();
let stopCode = 0;
let stoppedAt = 0;
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** What stopping leaves, said on stderr with the signal. */
const IN_FLIGHT_NOTE = 'the messages in flight go back to the queue (`spider work` resumes them)';
let stopNote = IN_FLIGHT_NOTE;

/** Set while a pipeline command holds the data folder (withPipeline). */
let pipelineOpen = false;
let pipeClosed = false;

/**
 * The reader of stdout or stderr went away (`spider articles | head -3`, `spider run 2>&1 | head`):
 * stop quietly, as a command killed by SIGPIPE would, with no stack trace. Outside a pipeline the
 * process exits at once with its exit code so far (0 unless something failed); a pipeline stops as on
 * SIGTERM (the messages in flight go back to the queue, the browser closes) and exits 141 (128 + SIGPIPE).
 */
function onOutputError(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  if (pipeClosed) return;
  pipeClosed = true;
  if (!pipelineOpen) process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  stopCode = 128 + (os.constants.signals.SIGPIPE ?? 13);
  stoppedAt = Date.now();
  stopping.abort();
}
process.stdout.on('error', onOutputError);
process.stderr.on('error', onOutputError);

function onStopSignal(signal: (typeof STOP_SIGNALS)[number]): void {
  const code = 128 + (os.constants.signals[signal] ?? 15);
  if (stopping.signal.aborted) {
    if (Date.now() - stoppedAt > 1000) process.exit(code);
    return;
  }
  stopCode = code;
  stoppedAt = Date.now();
  process.stderr.write(`spider: ${signal}: stopping; ${stopNote}\n`);
  stopping.abort();
}

/**
 * Runs a command that renders (a pipeline command, the demo, the report) stopping on the signals
 * (onStopSignal), `note` said with the signal: its renderer is to be opened with STOP_RENDERER, so
 * that puppeteer neither exits the process on Ctrl-C nor, on SIGTERM or SIGHUP, closes the browser
 * under it (the renderer launched another and the command went on: `spider demo` ran to its end and
 * exited 0; the report failed, exit 1).
 */
async function withStopSignals<T>(fn: () => Promise<T>, note = IN_FLIGHT_NOTE): Promise<T> {
  stopNote = note;
  for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal);
  try {
    return await fn();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onStopSignal);
    // A step cut short may still hold a timer or a socket: do not wait for it.
    if (stopping.signal.aborted) process.exit(stopCode);
  }
}

/** The renderer's options under withStopSignals: this process stops on the signals itself. */
const STOP_RENDERER = { handleSignals: false } as const;

async function withPipeline<T>(fn: (p: EmbeddedPipeline) => Promise<T>): Promise<T> {
  return withStopSignals(async () => {
    // --quiet: dead letters, results and errors only; the steps' warnings are left out
    const logger = quiet() ? { ...stderrLogger, warn() {} } : stderrLogger;
    const pipeline = await (await embeddedPipeline({ logger, renderer: STOP_RENDERER })).open({ exclusive: true });
    pipelineOpen = true;
    try {
      return await fn(pipeline);
    } finally {
      await pipeline.close();
      pipelineOpen = false;
    }
  });
}

program
  .command('demo', { isDefault: true })
  .description('generate a synthetic news site on 127.0.0.1, learn it, and report extraction quality')
  .option('--pages <n>', 'article pages per template', positiveInt, 15)
  .option('--train <n>', 'pages per template rendered before the site is learned', positiveInt, 5)
  .action(async (opts: { pages: number; train: number }) => {
    const { runDemo } = await import('./demo');
    await withStopSignals(() =>
      runDemo({ config: config(), progress: progressFor, pagesPerTemplate: opts.pages, train: opts.train, signal: stopping.signal, renderer: STOP_RENDERER }),
    );
  });

program
  .command('run')
  .description('render, learn and extract the given URLs, then exit when every queue is empty; exit code 1 when any URL ended as a dead letter or gave no article')
  .argument('[urls...]', 'page URLs')
  .option('-f, --file <file>', 'a file with one URL per line, blank lines and lines starting with # skipped (- for standard input)')
  .option('--json <file>', 'write the final tally there (counts per outcome, dead-letter reasons, wall time, pages/s)')
  .option('--allow-dead-letters', 'exit 0 even when some URLs ended as dead letters or gave no article')
  .addHelpText(
    'after',
    '\nEvery URL ends as an article or a dead letter that says why; a page whose article has no words is no article (as in `spider extract`), and one that does not look like an article (a home page, a listing) is counted apart, and so is a URL that is the same page as an earlier one (a repeat, a #fragment, the host in capitals): skipped, not fetched twice.' +
      '\nExit codes: 0 every URL gave an article or a page flagged not an article (or --allow-dead-letters); 1 no URLs given, a URL was rejected, ended as a dead letter or gave an article with no words, or an error.',
  )
  .action(async (urls: string[], opts: { file?: string; json?: string; allowDeadLetters?: boolean }) => {
    const list = await readUrls(urls, opts.file);
    if (!someUrls(list, opts.file)) return;
    const { unique, duplicates } = withoutSamePages(list);
    await withPipeline(async (p) => {
      const rejected = await submitUrls(p, unique);
      await work(p, { json: opts.json, allowDeadLetters: opts.allowDeadLetters, rejected, duplicates });
    });
  });

program
  .command('extract')
  .description("print the article of each URL, HTML file or standard input (-): the site's learned rules when the store has them, the single-page extractor otherwise; what is rendered is stored, so the site keeps learning")
  .argument('<inputs...>', 'page URLs, HTML files, or - for HTML on standard input')
  .addOption(new Option('--format <format>', 'output format (jsonl: one article a line)').choices(['text', 'markdown', 'html', 'json', 'jsonl']).default('text'))
  .option('--url <url>', "the URL the HTML on standard input (or the only file) was served at; an error when it would name no input (only URLs, or several files) (default: its canonical link or og:url, else http://file.localhost/<content hash>/<file name>, stdin.html for standard input: the hash of the HTML keeps different pages of one name apart, so one never replaces another's stored article)")
  .addHelpText('after', '\nExit codes: 0 every input gave an article (one that does not look like an article, a home page or a listing, is printed too); 1 an input gave none: a dead letter or an article with no words (the reason on stderr), or an error.')
  .action(async (args: string[], opts: { format: OutputFormat | 'jsonl'; url?: string }) => {
    const inputs = await readInputs(args, { baseUrl: opts.url, readStdin });
    const outcomes = await withPipeline((p) => extractAll(p, inputs, () => p.run({ signal: stopping.signal })));
    const articles: ArticleDocument[] = [];
    for (const o of outcomes) {
      if (o.article) articles.push(o.article);
      else {
        process.stderr.write(`spider: no article from ${o.arg}${o.url && o.url !== o.arg ? ` (${o.url})` : ''}: ${o.reason}\n`);
        process.exitCode = 1;
      }
    }
    if (opts.format === 'jsonl') process.stdout.write(articles.map((a) => JSON.stringify(a) + '\n').join(''));
    else if (opts.format === 'json' && args.length > 1) process.stdout.write(JSON.stringify(articles, null, 2) + '\n');
    else if (articles.length) process.stdout.write(articles.map((a) => formatArticle(a, opts.format as OutputFormat)).join('\n\n---\n\n') + '\n');
  });

program
  .command('submit')
  .description('queue URLs for rendering (run `spider work` to process them)')
  .argument('[urls...]', 'page URLs')
  .option('-f, --file <file>', 'a file with one URL per line, blank lines and lines starting with # skipped (- for standard input)')
  .addHelpText('after', '\nExit codes: 0 every URL given was queued (or skipped, the same page as an earlier one); 1 no URLs given, a URL was rejected (kept as a dead letter: `spider dead-letters`), or an error.')
  .action(async (urls: string[], opts: { file?: string }) => {
    const list = await readUrls(urls, opts.file);
    if (!someUrls(list, opts.file)) return;
    const { unique, duplicates } = withoutSamePages(list);
    const stack = await deployed();
    if (stack) {
      // SQS has no way to dead-letter a message it was never sent: an invalid URL is said here, exit 1.
      const result = await stack.submit(unique.map((url) => ({ url })));
      sayRejected(result.rejected);
      process.stdout.write(`queued ${plural(result.sent, 'URL')} on ${stack.intakeQueueUrl}${samePagesNote(duplicates)}\n`);
      if (result.rejected.length) process.exitCode = 1;
      return;
    }
    const rejected = (await withPipeline((p) => submitUrls(p, unique))).length;
    process.stdout.write(`queued ${plural(unique.length - rejected, 'URL')} (run \`spider work\` to process them)${rejected ? `; ${rejected} rejected, kept as dead letters` : ''}${samePagesNote(duplicates)}\n`);
    if (rejected > 0) process.exitCode = 1;
  });

program
  .command('work')
  .description('process every queued message, then exit')
  .option('--json <file>', 'write the final tally there (counts per outcome, dead-letter reasons, wall time, pages/s)')
  .addHelpText('after', '\nExit codes: 0 every page gave an article or a page flagged not an article; 1 a message ended as a dead letter, a page gave an article with no words, or an error.')
  .action(async (opts: { json?: string }) => {
    if (!(await dataFolderThere())) return;
    await withPipeline(async (p) => {
      // Nothing to do is said, rather than a tally of zeros (a `work` before any `submit`, or run twice)
      if (Object.values(p.queueCounts()).every((q) => q.pending + q.inFlight === 0)) {
        process.stderr.write(`spider: nothing queued in ${path.resolve(config().dataDir)} (\`spider submit <url>\` queues URLs; \`spider status\` says what was done)\n`);
      }
      await work(p, { json: opts.json });
    });
  });

program
  .command('status')
  .description('what is queued, in flight and dead-lettered per queue, the sites learned and waiting, the pages extracted')
  .option('--json', 'as JSON, for scripts')
  .action(async (opts: { json?: boolean }) => {
    if (!(await dataFolderThere())) return;
    const target = loadAwsTarget();
    const status = target ? await (await import('../aws/queue-status')).deployedStatus(target) : await (await embeddedPipeline()).status();
    process.stdout.write(opts.json ? JSON.stringify(status, null, 2) + '\n' : formatStatus(status) + '\n');
  });

program
  .command('replay')
  .description('render archived pages of a dataset folder (manifest.jsonl, pages/) at their own URLs, learn, extract; it does not score them against gold/: `npm run bench -- <dataset>` does')
  .argument('<dataset>', 'dataset folder')
  .option('--limit <n>', 'at most this many pages', positiveInt)
  .option('--site <site...>', "only these sites (the manifest's site field); a site no page is of is an error")
  .addHelpText('after', '\nThe articles are stored like any others (`spider articles`). Replay reads no gold/ and prints no score: the bench (`npm run bench -- <dataset> --train 5`, bench/README.md) learns from the first pages of each site, scores the others against gold/ with the datasets\' metric, next to peer extractors.')
  .action(async (dataset: string, opts: { limit?: number; site?: string[] }) => {
    await withPipeline(async (p) => {
      await runReplay(p, dataset, opts);
      await work(p);
      if (!quiet() && !stopping.signal.aborted) process.stderr.write(replayScoringNote(dataset) + '\n');
    });
  });

/**
 * The site a `relearn`, `rules` or `articles --site` argument names: a site name (example.com), or a URL, which stands for
 * its site (its host, lowercased, without www., as the store names sites). Undefined, said on stderr, when neither.
 */
function siteArgument(arg: string): string | undefined {
  const site = isUrlArgument(arg) && URL.canParse(arg) ? siteOf(arg) : arg.toLowerCase().replace(/^www\./, '');
  const problem = site ? hostProblem(site) : 'it is empty';
  if (!problem) return site;
  process.stderr.write(`spider: ${terminalSafeJson(arg)} is not a site name: ${terminalSafe(problem, true)} (a site is a host name, e.g. example.com; \`spider status\` lists the sites)\n`);
  process.exitCode = 1;
  return undefined;
}

/** Whether the store holds pages of the site; says so on stderr and sets exit code 1 when not. */
async function sitePagesStored(store: Store, site: string): Promise<boolean> {
  if ((await store.list(keys.pagePrefix(site))).length > 0) return true;
  process.stderr.write(`spider: the store has no pages of ${site}: nothing to learn from (\`spider status\` lists the sites; \`spider run <url>\` renders pages)\n`);
  process.exitCode = 1;
  return false;
}

program
  .command('relearn')
  .description("learn a site again now, then extract again its pages whose article the new rules may change (an article rules that extract the same already made is kept as it is)")
  .argument('<site>', 'site, e.g. example.com (a URL stands for its site)')
  .addHelpText('after', '\nExit codes: 0 the site was learned; 1 not a site, no stored pages, the learn found no rules (the reason on stderr), a dead letter, or an error.')
  .action(async (arg: string) => {
    const site = siteArgument(arg);
    if (!site) return;
    const stack = await deployed();
    if (stack) {
      if (!(await sitePagesStored(stack.store, site))) return;
      await stack.relearn(site);
      process.stdout.write(`asked ${stack.target.learnQueueUrl} to relearn ${site}\n`);
      return;
    }
    if (!(await dataFolderThere())) return;
    await withPipeline(async (p) => {
      if (!(await sitePagesStored(p.store, site))) return;
      let outcome: Record<string, unknown> | undefined;
      await p.relearn(site);
      await work(p, {
        onEvent: (event) => {
          const r = event.result as Record<string, unknown> | undefined;
          if (event.queue === 'learn' && event.outcome === 'done' && r?.site === site) outcome = r;
        },
      });
      if (stopping.signal.aborted) return;
      if (outcome?.learned === true) process.stdout.write(describeRelearn(site, outcome) + '\n');
      else {
        process.stderr.write(`spider: ${describeRelearn(site, outcome)}\n`);
        process.exitCode = 1;
      }
    });
  });

/** What a relearn did, from its learn step's result (lib/learn/learn-step.ts LearnOutcome). */
function describeRelearn(site: string, r: Record<string, unknown> | undefined): string {
  if (!r) return `${site} was not learned (see the dead letter above)`;
  if (r.learned !== true) return `${site} was not learned: ${String(r.reason ?? 'no reason given')}`;
  const rules = r.rules as { rulesVersion: number; sameExtractionSince?: number; learnedFrom: string[] };
  const same = rules.sameExtractionSince !== undefined && rules.sameExtractionSince < rules.rulesVersion ? ` (they extract what v${rules.sameExtractionSince} did)` : '';
  const unchanged = Number(r.unchanged ?? 0);
  return (
    `relearned ${site}: rules v${rules.rulesVersion} from ${plural(rules.learnedFrom.length, 'page')}${same}; ` +
    `${plural(Number(r.reapplied ?? 0), 'page')} extracted again, ${unchanged} not (their article would not change)` +
    (Number(r.keptOlder ?? 0) > 0 ? `, ${Number(r.keptOlder)} kept as they are` : '')
  );
}

program
  .command('articles')
  .description('list extracted articles (none: said on stderr, exit code 1)')
  .option('--site <site>', 'only this site (a URL stands for its site); none stored is an error')
  .action(async (opts: { site?: string }) => {
    const site = opts.site === undefined ? undefined : siteArgument(opts.site);
    if (opts.site !== undefined && !site) return;
    if (!(await dataFolderThere())) return;
    const store = await readStore();
    const listed = await store.list(keys.articlePrefix(site));
    if (listed.length === 0) {
      // as for a page or a site's rules: what is not there is said, exit 1
      process.stderr.write(
        site
          ? `spider: no articles of ${site} (\`spider articles\` lists every site's; \`spider status\` names the sites)\n`
          : 'spider: no articles yet (`spider run <url>` extracts some; `spider status` says what is queued and dead-lettered)\n',
      );
      process.exitCode = 1;
      return;
    }
    for (const obj of listed) {
      // One bad file is named and quarantined; the others are still listed.
      const a = await readDocument(store, obj.key, ArticleDocumentSchema, { remove: true, onBad: reportBadFile });
      if (a) process.stdout.write([a.site, a.pageId, `${a.method}${a.rulesVersion ? ` v${a.rulesVersion}` : ''}`, plural(a.wordCount, 'word') + OUTCOME_MARK[articleOutcome(a)], a.url, a.title ?? ''].map((f) => terminalSafe(f, true)).join('\t') + '\n');
    }
  });

/** After the word count in `spider articles`: what a page that gave no article is (./outcome.ts). */
const OUTCOME_MARK: Record<ArticleOutcome, string> = { article: '', 'not-article': ', not an article', 'no-words': ', no article' };

program
  .command('article')
  .description('show one article, by URL or <site>/<pageId>')
  .argument('<ref>', 'page URL or site/pageId (a URL with tracking parameters, utm_source and the like, is the same page without them)')
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'html', 'json']).default('text'))
  .addHelpText(
    'after',
    '\nA page whose article has no words is no article: said on stderr, exit code 1, nothing printed (--format json prints its stored document). A page flagged not an article (a home page, a listing) is printed, as `spider extract` prints it, and said on stderr.' +
      '\nExit codes: 0 the article (or a page flagged not an article) was printed; 1 none for the URL, or one with no words.',
  )
  .action(async (ref: string, opts: { format: OutputFormat }) => {
    if (!(await dataFolderThere())) return;
    const store = await readStore();
    const isUrl = URL.canParse(ref);
    const [site, pageId] = isUrl ? [siteOf(ref), pageIdOf(ref)] : ref.split('/');
    const readable = site && pageId && !hostProblem(site);
    const bad = { remove: true, onBad: reportBadFile };
    const read = (s: string, id: string) => readDocument(store, keys.article(s, id), ArticleDocumentSchema, bad);
    // a URL redirected to another site's page (a link shortener's) has that page's article, through its redirect record
    const found: { value?: ArticleDocument; redirect?: RedirectRecord } = readable ? await readThroughRedirect(store, site, pageId, read, bad) : {};
    const article = found.value;
    if (article && found.redirect) process.stderr.write(`${terminalSafe(found.redirect.url, true)} led to another site's page: the article of ${terminalSafe(found.redirect.to.url, true)}\n`);
    if (!article) {
      // A URL that ended as a dead letter (of this data folder, or of the deployed stack's queues, read and left there) says why:
      // its own, or that of the page of another site it led to.
      let why = '';
      try {
        const letters = await readDeadLetters();
        const letter = findDeadLetter(letters, { url: ref, site, pageId }) ?? (found.redirect && findDeadLetter(letters, found.redirect.to));
        if (letter) why = `: it ended as a dead letter of the ${letter.queue} queue: ${terminalSafe(letter.reason, true)}`;
      } catch (error) {
        why = ` (its dead letters could not be read: ${terminalSafe(describeError(error), true)})`;
      }
      process.stderr.write(`no article for ${terminalSafe(ref, true)}${why}\n`);
      process.exitCode = 1;
      return;
    }
    // No words is no article, as `extract` and `run` say (./outcome.ts); the document is still there for --format json.
    const outcome = articleOutcome(article);
    if (outcome === 'no-words') {
      const title = article.title ? ` (its title: ${terminalSafeJson(article.title)})` : '';
      process.stderr.write(`no article for ${terminalSafe(ref, true)}: ${NO_WORDS_REASON}${title}${opts.format === 'json' ? '; its stored document follows' : ''}\n`);
      process.exitCode = 1;
      if (opts.format === 'json') process.stdout.write(formatArticle(article, 'json') + '\n');
      return;
    }
    if (outcome === 'not-article') process.stderr.write(`${terminalSafe(ref, true)}: ${NOT_ARTICLE_NOTE}\n`);
    process.stdout.write(formatArticle(article, opts.format) + '\n');
  });

program
  .command('rules')
  .description("show a site's learned rules (or list the learned sites); --format postlight: as a Postlight Parser custom extractor; --report out.html: a page that shows what was learned")
  .argument('[site]', 'site, e.g. example.com (a URL stands for its site)')
  .addOption(new Option('--format <format>', 'json: the rules document; postlight: a Postlight Parser custom extractor (Parser.addExtractor)').choices(['json', 'postlight']).default('json'))
  .option('--report <file>', 'write a static HTML report instead: learned pages drawn in Chromium with every element the rules take boxed (body, header, title, byline, date, cleaned-out parts), the clusters with their scores, samples and why chosen, the self-check, and the rules')
  .option('--pages <n>', 'with --report: how many learned pages to draw (each the one showing the most rules the ones before did not: one of each template first)', positiveInt, 1)
  .action(async (arg: string | undefined, opts: { format: 'json' | 'postlight'; report?: string; pages: number }, command: Command) => {
    // An option the command would not use is refused, not ignored.
    const given = (key: string) => command.getOptionValueSource(key) === 'cli';
    const refusal = (
      [
        [!arg && opts.report, '--report needs a site: spider rules <site> --report out.html'],
        [!arg && given('format'), '--format needs a site: spider rules <site> --format postlight'],
        [!arg && given('pages'), '--pages goes with --report, which needs a site: spider rules <site> --report out.html --pages 2'],
        [opts.report && given('format'), '--report writes an HTML page, in no --format: spider rules <site> --format postlight prints the rules, spider rules <site> --report out.html draws them'],
        [!opts.report && given('pages'), '--pages counts the pages --report draws: spider rules <site> --report out.html --pages 2'],
      ] as const
    ).find(([when]) => when)?.[1];
    if (refusal) {
      process.stderr.write(`spider: ${refusal} (spider rules lists the learned sites)\n`);
      process.exitCode = 1;
      return;
    }
    const site = arg === undefined ? undefined : siteArgument(arg);
    if (arg !== undefined && !site) return;
    if (!(await dataFolderThere())) return;
    const store = await readStore();
    if (!site) {
      const learned = await store.list(keys.rulesPrefix());
      for (const obj of learned) process.stdout.write(obj.key.replace(/^rules\/|\.json$/g, '') + '\n');
      if (learned.length === 0) {
        process.stderr.write('spider: no site learned yet (a site is learned once a few of its pages are rendered; `spider status` lists the sites waiting to learn)\n');
        process.exitCode = 1;
      }
      return;
    }
    const rules = await readDocument(store, keys.rules(site), RulesDocumentSchema, { onBad: reportBadFile });
    if (!rules) {
      if (process.exitCode !== 1) process.stderr.write(`no rules for ${site} yet\n`);
      process.exitCode = 1;
      return;
    }
    if (opts.report) {
      const out = opts.report;
      // a folder that is not there is said before a page is drawn, not after them all
      const folder = path.dirname(await realpath(out).catch(() => out));
      if (!(await stat(folder).then((s) => s.isDirectory(), () => false))) {
        process.stderr.write(`spider: cannot write the report to '${terminalSafe(out, true)}': its folder ${terminalSafe(folder, true)} is not there (nothing drawn)\n`);
        process.exitCode = 1;
        return;
      }
      const { buildSiteReport } = await import('../report/site-report');
      const report = await withStopSignals(async () => {
        const built = await buildSiteReport(store, rules, { pages: opts.pages, signal: stopping.signal, ...STOP_RENDERER });
        await writeWhole(out, built.html, stopping.signal);
        return built;
      }, `the browser closes, no report is written to ${terminalSafe(out, true)}`);
      const boxes = report.pages.reduce((n, p) => n + p.picture.boxes.length, 0);
      process.stderr.write(`wrote ${opts.report}: ${plural(report.pages.length, 'page')} drawn, ${plural(boxes, 'box', 'boxes')}, ${plural(rules.clusters.length, 'cluster')}\n`);
      if (report.pages.length === 0) process.stderr.write(`no learned page of ${site} has a stored snapshot to draw\n`);
      return;
    }
    process.stdout.write(JSON.stringify(opts.format === 'postlight' ? toPostlightExtractor(rules) : rules, null, 2) + '\n');
  });

program
  .command('train')
  .description("retrain the fallback extractor's model from the articles learned rules extracted, and store it for the apply step")
  .option('--no-generated', "train on the store's learned sites only, not also on the generated sites the default model is trained on")
  .option('--max-pages-per-site <n>', 'pages of one site at most', positiveInt, 50)
  .option('--max-pages <n>', 'pages in all at most (taken from the sites in turn)', positiveInt, 1000)
  .option('--min-words <n>', 'articles with fewer words are not used as labels', positiveInt, 50)
  .option('--holdout <n>', 'measure on up to n learned sites, each left out of training in turn (one more training each; 0: none)', nonNegativeInt, 3)
  .option('--dry-run', 'train and report, but do not store the model; with --reset: say what it would remove')
  .option('--reset', 'remove the stored model: the apply step goes back to the shipped default (takes no training option)')
  .action(async (opts: TrainOptions, command: Command) => {
    if (opts.reset) {
      // --reset trains nothing: a training option given with it would be ignored, so it is refused.
      const training = TRAINING_OPTIONS.filter(([key]) => command.getOptionValueSource(key) === 'cli').map(([, flag]) => flag);
      if (training.length) {
        process.stderr.write(`spider: --reset trains nothing, so it takes no ${training.join(', ')} (it only removes the stored model; --dry-run says what it would remove)\n`);
        process.exitCode = 1;
        return;
      }
    }
    const stack = await deployed();
    const store = stack?.store ?? embeddedStore(config().dataDir);
    const where = stack ? `s3://${stack.target.bucket}/${keys.fallbackModel()}` : path.join(embeddedStoreDir(config().dataDir), keys.fallbackModel());
    if (opts.reset) {
      if (!(await store.get(keys.fallbackModel()))) {
        process.stdout.write(`no stored model at ${where}: the apply step already uses the shipped default model\n`);
        return;
      }
      if (opts.dryRun) {
        process.stdout.write(`dry run: would remove ${where}, after which the apply step would use the shipped default model; nothing removed\n`);
        return;
      }
      await store.delete(keys.fallbackModel());
      process.stdout.write(`removed ${where}: the apply step uses the shipped default model\n`);
      return;
    }
    const log = quiet() ? undefined : (m: string) => process.stderr.write(`train: ${m}\n`);
    const [{ trainFromStore }, { modelJson }] = await Promise.all([import('../fallback/store-training'), import('../fallback/model')]);
    let result: StoreTrainingResult;
    try {
      result = await trainFromStore(store, {
        includeGenerated: opts.generated,
        maxPagesPerSite: opts.maxPagesPerSite,
        maxPages: opts.maxPages,
        minWords: opts.minWords,
        holdoutSites: opts.holdout,
        log,
      });
    } catch (error) {
      if (!(error instanceof Error && /no labelled pages/.test(error.message))) throw error;
      process.stderr.write(`spider: ${error.message} (learn some sites first: \`spider run\` or \`spider replay\` with a few pages per site)\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(formatTraining(result) + '\n');
    if (opts.dryRun) {
      process.stdout.write('dry run: model not stored\n');
      return;
    }
    const json = modelJson(result.model);
    await store.put(keys.fallbackModel(), json, { contentType: 'application/json' });
    process.stdout.write(`wrote ${where} (${Math.round(Buffer.byteLength(json) / 1024)} KB): the apply step uses it for pages extracted without rules\n`);
  });

program
  .command('dead-letters')
  .description('list messages that failed for good: one line each, the queue, the URL (or site/page) and the reason')
  .option('--json', 'one JSON object a line (the whole dead letter: queue, message, reason, errors, times), for scripts')
  .action(async (opts: { json?: boolean }) => {
    if (!(await dataFolderThere())) return;
    const letters = await readDeadLetters();
    if (opts.json) process.stdout.write(letters.map((d) => JSON.stringify(d) + '\n').join(''));
    else process.stdout.write(formatDeadLetters(letters));
  });

/**
 * Writes `file` whole or not at all: to a temporary name beside it, renamed to `file` once written,
 * so that a stop or a failure on the way leaves no file that looks complete (the temporary one removed).
 * A link is followed, as writing to it would (the file it names is replaced, the link kept), and what
 * is not a plain file (a link to standard output, a pipe: no name to rename onto) is written to
 * directly. A failure names `file`, not the temporary name.
 */
async function writeWhole(file: string, data: string, signal: AbortSignal): Promise<void> {
  const target = await realpath(file).catch(() => file); // not there yet, or no path (a pipe): as given
  if (await stat(target).then((s) => !s.isFile(), () => false)) return writeFile(target, data);
  const partial = `${target}.${process.pid}.partial`;
  try {
    await writeFile(partial, data);
    signal.throwIfAborted();
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof Error) error.message = error.message.replaceAll(partial, file);
    throw error;
  }
}

/** A bad stored file, named on stderr (terminal-safe); the command exits 1 but goes on. */
function reportBadFile(bad: BadDocument): void {
  process.exitCode = 1;
  process.stderr.write(`skipped ${terminalSafe(describeBadDocument(bad), true).slice(0, 400)}\n`);
}

/** `spider train`'s options that shape a training (option key, flag): --reset takes none of them. */
const TRAINING_OPTIONS = [
  ['generated', '--no-generated'],
  ['maxPagesPerSite', '--max-pages-per-site'],
  ['maxPages', '--max-pages'],
  ['minWords', '--min-words'],
  ['holdout', '--holdout'],
] as const;

interface TrainOptions {
  readonly generated: boolean;
  readonly maxPagesPerSite: number;
  readonly maxPages: number;
  readonly minWords: number;
  readonly holdout: number;
  readonly dryRun?: boolean;
  readonly reset?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number, 1 or more');
  return n;
}

/** A folder option's value: an empty one (`--data-dir "$DIR"` with DIR unset) would be the current folder. */
function folderName(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('a folder, not empty (an empty one would be the current folder)');
  return value;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a number above 0');
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number, 0 or more');
  return n;
}

/** A SPIDER_ variable nothing reads is said (a misspelled one would be ignored silently), with the known one it is close to. */
program.hook('preAction', () => {
  for (const { name, nearest } of unknownVariables()) {
    const meant = nearest ? `; did you mean ${nearest}?` : '';
    process.stderr.write(`spider: warning: ${terminalSafe(name, true)} is not a spider variable and is ignored${meant} (docs/configuration.md lists them)\n`);
  }
});

/**
 * `spider` alone runs the demo (the default command), so commander would hand an unknown command to
 * the demo as an argument ("too many arguments for 'demo'"): name it instead, with the commands.
 */
program.hook('preSubcommand', (thisCommand, subcommand) => {
  const first = thisCommand.args[0];
  if (subcommand.name() === 'demo' && first !== undefined && first !== 'demo' && !first.startsWith('-')) {
    thisCommand.error(`error: unknown command '${terminalSafe(first, true)}'`, { code: 'commander.unknownCommand' });
  }
});

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`spider: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
