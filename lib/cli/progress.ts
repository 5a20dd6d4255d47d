/**
 * Progress of `run`, `work`, `replay` and `demo`, and the final tally.
 *
 * - On a terminal: one live status line (log-update redraws it in place): URLs done of total,
 *   articles, dead letters, pending per queue, pages per second and an ETA. Dead letters print one
 *   line each above it; every other event only with --verbose.
 * - Without a terminal (CI, logs, `| tee`): the same summary as one plain line every
 *   --progress-interval seconds, dead letters one line each, per-event lines only with --verbose.
 * - Quiet: dead letters and the final tally only.
 *
 * The tally (counts per outcome, dead-letter reasons grouped by kind, wall time, pages per second) is
 * what `--json <file>` writes. It counts the URLs given: a fetched page that apply sends back to
 * render (docs/fetch-path.md) is one URL, done when it was fetched; a URL that is the same page as an
 * earlier one of the input (./same-page.ts) is done at once, not submitted, counted apart
 * (`duplicates`), and so is one whose render gave the page an earlier URL gave (a redirect to another
 * site's page: lib/store/keys.ts pageUrlOf); a page of an earlier run that a relearn extracts again is no article of this run,
 * counted apart (`olderExtracted`). So the URLs given are the articles, the pages flagged not an
 * article, the pages with no words, the dead letters and the duplicates.
 */
import { createLogUpdate } from 'log-update';
import type { ConsumerEvent } from '../queue/worker';
import type { QueueCounts, QueueName } from '../queue/status';
import { failureKind, type FailureKind } from '../util/errors';
import { pageIdOf, siteOf } from '../store/keys';
import { plural } from '../text/plural';
import { articleOutcome, NO_WORDS_REASON, type ArticleOutcome } from './outcome';
import { printLogLinesWith, shownReason, shownText } from './format';

export type ProgressMode = 'live' | 'lines' | 'quiet';

export interface Tally {
  /** Pages rendered in Chromium (a fetched page rendered again after its rules failed on it included). */
  rendered: number;
  /** Pages fetched over HTTP without a browser (the fetch path, docs/fetch-path.md). */
  fetched: number;
  /** URLs that reached an end: rendered or fetched the first time, or dead-lettered at render (rejected at submission included), or the same page as an earlier URL. */
  urlsDone: number;
  learned: number;
  /** Extractions, re-extractions after a learn included. */
  extracted: number;
  /** Each page extracted (`site/pageId`): the method and outcome of its latest extraction (./outcome.ts), its URL. */
  articles: Map<string, { method: string; outcome: ArticleOutcome; url: string }>;
  /** The pages (`site/pageId`) of this run's URLs: rendered or fetched here, or extracted as rendered. */
  pagesOfRun: Set<string>;
  retried: number;
  /** URLs refused at submission (each also a dead letter of the render queue). */
  rejected: number;
  /** URLs given that are the same page as an earlier URL of the input: not submitted, or (a redirect) rendered to the page an earlier URL gave. */
  duplicates: { url: string; sameAs: string }[];
  dead: number;
  /** Dead letters per queue. */
  deadByQueue: Record<string, number>;
}

export interface FinalTally {
  /**
   * 5: `duplicates` also counts a URL whose render gave the page an earlier URL of the input gave (a
   * redirect to another site's page: a link shortener's to an article also given, or two short links
   * to one article), after its render; the sum is the same.
   * 4: `duplicates`, the URLs given that are the same page as an earlier one of the input (not
   * submitted again), counted in `urls`: the URLs given are articles + notArticles + noWords +
   * deadLetters + duplicates.
   * 3: `urls` counts the URLs given (a fetched page rendered again is no second URL), `rendered` counts
   * Chromium's renders and `fetched` the fetch path's pages, `articles` (and `notArticles`, `noWords`)
   * this run's pages only, the older pages a relearn extracted again being `olderExtracted`.
   * 2: `articles` leaves out pages flagged not an article and pages with no words; rejected URLs are dead letters.
   */
  readonly version: 5;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly wallSeconds: number;
  readonly pagesPerSecond: number;
  /** URLs given that reached an end (rendered or fetched, or dead-lettered at render, rejected at submission included, or the same page as an earlier one), of all given. */
  readonly urls: { readonly done: number; readonly total: number };
  readonly outcomes: {
    /** Pages rendered in Chromium (a fetched page rendered again after its rules failed on it included). */
    readonly rendered: number;
    /** Pages fetched over HTTP without a browser (the fetch path). */
    readonly fetched: number;
    readonly learned: number;
    /** Extractions, re-extractions of a page after its site was learned included. */
    readonly extracted: number;
    /** Pages of this run's URLs with an article: words, and not flagged as no article. */
    readonly articles: number;
    /** Those articles by the method of their latest extraction. */
    readonly articlesByMethod: Record<string, number>;
    /** Pages whose text the extractor flags as not an article (a home page, a listing): stored, not counted as articles. */
    readonly notArticles: number;
    /** Pages whose latest extraction had no words: no article, as `spider extract` says (exit code 1 like a dead letter). */
    readonly noWords: number;
    /** Those pages' URLs (the first 20). */
    readonly noWordsUrls: string[];
    /**
     * URLs given that are the same page as an earlier URL of the input: a repeat, a `#fragment`, the host
     * in capitals (not submitted again), or a URL redirected to the page an earlier one gave (found so
     * once rendered).
     */
    readonly duplicates: number;
    /** Those URLs (the first 20), each with the earlier URL of its page. */
    readonly duplicateUrls: { readonly url: string; readonly sameAs: string }[];
    /** Pages of earlier runs (not of this run's URLs) that a relearn extracted again: not counted above. */
    readonly olderExtracted: number;
    readonly retried: number;
    /** URLs refused at submission (invalid): counted in `deadLetters` too. */
    readonly rejected: number;
    readonly deadLetters: number;
    readonly deadLettersByQueue: Record<string, number>;
  };
  /** Dead letters grouped by kind of reason (lib/util/errors.ts failureKind), with a few reasons of each. */
  readonly deadLetterReasons: { readonly kind: FailureKind; readonly count: number; readonly examples: string[] }[];
}

export interface ProgressOptions {
  readonly mode: ProgressMode;
  /** Per-event lines (rendered, learned, extracted, retried) as well. */
  readonly verbose?: boolean;
  /** Seconds between summary lines without a terminal. */
  readonly intervalSeconds?: number;
  /** Each queue's counts now (the embedded pipeline's queueCounts). */
  readonly counts?: () => Readonly<Record<QueueName, QueueCounts>>;
  /**
   * URLs submitted and not yet done (the embedded pipeline's urlsWaiting: the render queue without the
   * renders of pages already fetched); default: the render queue's pending and in-flight messages.
   */
  readonly urlsWaiting?: () => number;
  readonly out?: NodeJS.WritableStream;
  /** Clock, for tests of the summary's arithmetic. */
  readonly now?: () => number;
}

/**
 * The mode for this process: live on a terminal, lines without one, quiet when asked. A terminal that
 * says it has no size (0 rows or columns: `script` in CI, a container's before its first resize) gets
 * lines: log-update draws nothing in no rows, the lines it keeps above the status (dead letters,
 * warnings) included.
 */
export function progressMode(options: { quiet?: boolean; stream?: { isTTY?: boolean; rows?: number; columns?: number } }): ProgressMode {
  if (options.quiet) return 'quiet';
  const stream = options.stream ?? process.stderr;
  return stream.isTTY && stream.rows !== 0 && stream.columns !== 0 ? 'live' : 'lines';
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const EXAMPLES_PER_KIND = 3;
const NO_WORDS_URLS = 20;
const DUPLICATE_URLS = 20;

export function createProgress(options: ProgressOptions) {
  const out = options.out ?? process.stderr;
  const now = options.now ?? Date.now;
  const started = now();
  const tally: Tally = { rendered: 0, fetched: 0, urlsDone: 0, learned: 0, extracted: 0, articles: new Map(), pagesOfRun: new Set(), retried: 0, rejected: 0, duplicates: [], dead: 0, deadByQueue: {} };
  const reasons = new Map<FailureKind, { count: number; examples: string[] }>();
  /** Pages rendered here because apply sent them back from the fetch path (`path: 'render'`): not URLs of their own. */
  const renderedAgain = new Set<string>();
  /** Of the duplicates, those skipped at submission (the others were found after their render). */
  let skipped = 0;
  /** The URL of this run whose render or fetch gave each page first. */
  const firstUrlOf = new Map<string, string>();
  const live = options.mode === 'live' ? createLogUpdate(out as NodeJS.WriteStream) : undefined;
  // the steps' warnings go above the live status line, not through it
  if (live) printLogLinesWith((line) => print(line));
  let stopped = false;

  /** A line above the status line (or just a line). */
  const print = (line: string) => {
    if (live) live.persist(line);
    else out.write(line + '\n');
    if (live) redraw();
  };
  const say = (line: string) => {
    if (options.verbose) print(line);
  };

  /** URLs given that are not done yet. */
  const urlsLeft = (counts = options.counts?.()): number => options.urlsWaiting?.() ?? (counts ? counts.render.pending + counts.render.inFlight : 0);
  /** Pages rendered or fetched. */
  const pages = () => tally.rendered + tally.fetched;
  /** This run's pages extracted, each with its latest extraction. */
  const runArticles = () => [...tally.articles].filter(([key]) => tally.pagesOfRun.has(key)).map(([, a]) => a);

  /** The one-line summary: URLs done of total, articles, dead letters, pending per queue, rate, ETA. */
  const summary = (): string => {
    const counts = options.counts?.();
    const waiting = (q: QueueName) => (counts ? counts[q].pending + counts[q].inFlight : 0);
    const done = tally.urlsDone;
    const total = done + urlsLeft(counts);
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? pages() / seconds : 0;
    const remaining = total - done;
    const eta = remaining === 0 ? 'ETA 0s' : rate > 0 ? `ETA ${formatDuration(remaining / rate)}` : 'ETA ?';
    const pending = counts ? ` · pending render ${waiting('render')} learn ${waiting('learn')} apply ${waiting('apply')}` : '';
    return `${done}/${total} URLs · ${plural(count(runArticles(), 'article'), 'article')} · ${plural(tally.dead, 'dead letter')}${pending} · ${rate.toFixed(1)} pages/s · ${eta} · ${formatDuration(seconds)}`;
  };

  const redraw = () => {
    if (live && !stopped) live(summary());
  };

  const timer =
    options.mode === 'live'
      ? setInterval(redraw, 250)
      : options.mode === 'lines'
        ? setInterval(() => out.write(`progress: ${summary()}\n`), Math.max(0.05, options.intervalSeconds ?? 30) * 1000)
        : undefined;
  timer?.unref();
  redraw();

  const countDead = (queue: string, subject: string, error: string) => {
    tally.dead++;
    tally.deadByQueue[queue] = (tally.deadByQueue[queue] ?? 0) + 1;
    const kind = failureKind(error);
    const entry = reasons.get(kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < EXAMPLES_PER_KIND) entry.examples.push(`${queue} ${subject}: ${error}`);
    reasons.set(kind, entry);
  };

  /** A URL refused at submission: a dead letter of the render queue (its line was printed by whoever submitted it). */
  const rejected = (url: string, reason: string) => {
    tally.rejected++;
    tally.urlsDone++;
    countDead('render', JSON.stringify(url), reason);
  };

  /** A URL not submitted: the same page as an earlier URL of the input (its line was printed by whoever submitted them). */
  const duplicate = (url: string, sameAs: string) => {
    skipped++;
    tally.duplicates.push({ url, sameAs });
    tally.urlsDone++;
  };

  /** A render-queue message's end: a URL given, unless it is the render apply asked of a page fetched already (its URL was done then). */
  const urlEnded = (m: Record<string, unknown> | undefined) => {
    if (m?.path !== 'render') tally.urlsDone++;
  };

  const onEvent = (event: ConsumerEvent) => {
    const m = event.message as Record<string, unknown>;
    // a long URL is cut on the lines for people; the tally's examples keep it whole
    const whole = String(m?.url ?? (m?.pageId ? `${m.site}/${m.pageId}` : (m?.site ?? '')));
    const subject = shownText(whole);
    if (event.outcome === 'dead') {
      if (event.queue === 'render') urlEnded(m);
      countDead(event.queue, whole, event.error ?? '');
      print(`✗ ${event.queue} ${subject}: ${shownReason(event.error ?? '')}`);
      return;
    }
    if (event.outcome === 'retry') {
      tally.retried++;
      say(`↻ ${event.queue} ${subject}: ${shownReason(event.error ?? '')} (will retry)`);
      return;
    }
    const r = event.result as Record<string, unknown> | undefined;
    if (event.queue === 'render') {
      urlEnded(m);
      // the page's: the URL's own, or the page of another site it was redirected to (a link shortener's), rendered or fetched
      const page = r?.site && r?.pageId ? `${r.site}/${r.pageId}` : typeof m?.url === 'string' && URL.canParse(m.url) ? `${siteOf(m.url)}/${pageIdOf(m.url)}` : undefined;
      const landed = typeof r?.submittedUrl === 'string' && typeof r.url === 'string' ? ` → ${shownText(r.url)}` : '';
      // a fetched page apply sent back to render is a page of this run only if its fetch was (as its URL is)
      if (page && m?.path === 'render') renderedAgain.add(page);
      else if (page) {
        // Two URLs of the input that gave one page (one redirected to the other's, or both to a third):
        // one article, and the later URL counted as the same page as the earlier, so the outcomes
        // still add up to the URLs given.
        const earlier = firstUrlOf.get(page);
        if (earlier === undefined) firstUrlOf.set(page, whole);
        else if (earlier !== whole) {
          tally.duplicates.push({ url: whole, sameAs: earlier });
          if (options.mode !== 'quiet') print(`same page: ${subject} and ${shownText(earlier)} are one page${typeof r?.url === 'string' ? `, ${shownText(r.url)}` : ''}: one article`);
        }
        tally.pagesOfRun.add(page);
      }
      // the fetch path's pages had no browser (docs/fetch-path.md)
      if (r?.path === 'fetch') {
        tally.fetched++;
        say(`fetched   ${subject}${landed} (${r?.elapsedMs} ms)`);
      } else {
        tally.rendered++;
        say(`rendered  ${subject}${landed} (${plural(Number(r?.blocks), 'block')}, ${r?.elapsedMs} ms)`);
      }
    } else if (event.queue === 'learn') {
      if (r?.learned) {
        tally.learned++;
        const rules = r.rules as { rulesVersion: number; content: { selectors: string[] }; learnedFrom: string[] };
        say(`learned   ${subject}: rules v${rules.rulesVersion}, ${plural(rules.content.selectors.length, 'selector')} from ${plural(rules.learnedFrom.length, 'page')}`);
      }
    } else if (event.queue === 'apply') {
      tally.extracted++;
      const outcome = articleOutcome({ wordCount: Number(r?.wordCount ?? 0), notArticle: r?.notArticle === true });
      const key = `${r?.site ?? m?.site}/${r?.pageId ?? m?.pageId}`;
      tally.articles.set(key, { method: String(r?.method ?? 'unknown'), outcome, url: String(r?.url ?? whole) });
      // extracted as rendered: a page of this run (its render may have been a process before, `spider work`
      // after a stop), unless that render was of a fetched page sent back to render (its fetch says)
      if ((m?.reason === undefined || m.reason === 'rendered') && !renderedAgain.has(key)) tally.pagesOfRun.add(key);
      say(`extracted ${r?.url ? shownText(String(r.url)) : subject} (${r?.method}, ${plural(Number(r?.wordCount), 'word')})`);
    }
  };

  /** The tally so far, as `--json` writes it. */
  const final = (): FinalTally => {
    const finished = now();
    const wallSeconds = (finished - started) / 1000;
    const done = tally.urlsDone;
    const ours = runArticles();
    return {
      version: 5,
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      wallSeconds: Math.round(wallSeconds * 1000) / 1000,
      pagesPerSecond: wallSeconds > 0 ? Math.round((pages() / wallSeconds) * 1000) / 1000 : 0,
      urls: { done, total: done + urlsLeft() },
      outcomes: {
        rendered: tally.rendered,
        fetched: tally.fetched,
        learned: tally.learned,
        extracted: tally.extracted,
        articles: count(ours, 'article'),
        articlesByMethod: byMethod(ours),
        notArticles: count(ours, 'not-article'),
        noWords: count(ours, 'no-words'),
        noWordsUrls: ours.filter((a) => a.outcome === 'no-words').slice(0, NO_WORDS_URLS).map((a) => a.url),
        duplicates: tally.duplicates.length,
        duplicateUrls: tally.duplicates.slice(0, DUPLICATE_URLS).map((d) => ({ ...d })),
        olderExtracted: tally.articles.size - ours.length,
        retried: tally.retried,
        rejected: tally.rejected,
        deadLetters: tally.dead,
        deadLettersByQueue: { ...tally.deadByQueue },
      },
      deadLetterReasons: [...reasons].map(([kind, r]) => ({ kind, count: r.count, examples: [...r.examples] })).sort((a, b) => b.count - a.count),
    };
  };

  /**
   * Stops the status line and the summary lines; returns the final tally and its one-line form, after
   * a line for each page that gave an article with no words (they are no dead letters, but no article either).
   */
  const stop = (): { tally: FinalTally; line: string } => {
    if (timer) clearInterval(timer);
    if (live && !stopped) live.clear();
    if (live) printLogLinesWith(undefined);
    stopped = true;
    const t = final();
    const o = t.outcomes;
    const methods = Object.entries(o.articlesByMethod).map(([m, n]) => `${n} ${m}`).join(', ');
    const kinds = t.deadLetterReasons.map((r) => `${r.count} ${r.kind}`).join(', ');
    const apart = [
      o.notArticles ? `${o.notArticles} not an article (home page or listing)` : '',
      o.noWords ? `${o.noWords} with no words (no article)` : '',
      o.duplicates ? `${plural(o.duplicates, 'URL')} the same page as an earlier one (${skipped === o.duplicates ? 'not fetched again' : `${skipped} not fetched again, ${o.duplicates - skipped} found so after a redirect`})` : '',
      o.olderExtracted ? `${plural(o.olderExtracted, 'older article')} extracted again` : '',
    ].filter(Boolean);
    const noWordsLines = runArticles().filter((a) => a.outcome === 'no-words').map((a) => `✗ apply ${shownText(a.url)}: ${NO_WORDS_REASON}\n`).join('');
    const line =
      noWordsLines +
      `done: ${o.rendered} rendered, ${o.fetched ? `${o.fetched} fetched, ` : ''}${plural(o.learned, 'learn')}, ${plural(o.articles, 'article')}${methods ? ` (${methods})` : ''} from ${plural(o.extracted, 'extraction')}, ` +
      apart.map((a) => a + ', ').join('') +
      `${plural(o.retried, 'retry', 'retries')}, ${plural(o.deadLetters, 'dead letter')}${kinds ? ` (${kinds})` : ''}${o.rejected ? ` of which ${o.rejected} rejected at submission` : ''} ` +
      `in ${formatDuration(t.wallSeconds)}, ${t.pagesPerSecond.toFixed(1)} pages/s`;
    return { tally: t, line };
  };

  return { onEvent, rejected, duplicate, tally, summary, final, stop };
}

export type Progress = ReturnType<typeof createProgress>;

type Extracted = Tally['articles'] extends Map<string, infer A> ? A : never;

function byMethod(articles: readonly Extracted[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { method, outcome } of articles) if (outcome === 'article') out[method] = (out[method] ?? 0) + 1;
  return out;
}

function count(articles: readonly Extracted[], outcome: ArticleOutcome): number {
  let n = 0;
  for (const a of articles) if (a.outcome === outcome) n++;
  return n;
}
