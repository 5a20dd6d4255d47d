/**
 * `spider extract`: one-shot extraction of URLs, HTML files or standard input, printed to stdout.
 * Each input goes through the embedded pipeline (render, learn, apply) like any submitted URL: the
 * site's rules apply when the store has them, the single-page extractor otherwise, and what was
 * rendered stays in the store so the site keeps learning. Nothing here renders or extracts itself.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmbeddedPipeline, Submission } from '../pipeline/embedded';
import type { DeadLetter } from '../queue/memory-queue';
import { keys, normalizeUrl, pageIdOf, siteOf } from '../store/keys';
import { readThroughRedirect } from '../store/redirects';
import { getJson } from '../store/store';
import { ArticleDocumentSchema, type ArticleDocument } from '../types/article-document';
import { HttpUrlSchema } from '../types/messages';
import { hasArticle, NO_WORDS_REASON } from './outcome';
import { schemeHint } from './url-hint';

export interface ExtractInput {
  /** What the user typed: a URL, a file path or `-`. */
  readonly arg: string;
  /** The submission: the URL, with the HTML for a file or standard input (rendered as an archived page). */
  readonly submission?: Submission;
  /** Why the input could not be read. */
  readonly error?: string;
}

export interface ExtractOutcome {
  readonly arg: string;
  readonly url?: string;
  readonly article?: ArticleDocument;
  /** Why there is no article. */
  readonly reason?: string;
}

/** The page's own URL as its HTML states it (canonical link or og:url), when absolute http(s). */
function statedUrl(html: string): string | undefined {
  const patterns = [
    /<link\b[^>]*\brel=["']?canonical["']?[^>]*\bhref=["']([^"']+)["']/i,
    /<link\b[^>]*\bhref=["']([^"']+)["'][^>]*\brel=["']?canonical\b/i,
    /<meta\b[^>]*\bproperty=["']og:url["'][^>]*\bcontent=["']([^"']+)["']/i,
    /<meta\b[^>]*\bcontent=["']([^"']+)["'][^>]*\bproperty=["']og:url["']/i,
  ];
  for (const re of patterns) {
    const url = re.exec(html)?.[1];
    if (url && HttpUrlSchema.safeParse(url).success) return url;
  }
  return undefined;
}

/**
 * The URL of HTML that states none: `http://file.localhost/<content hash>/<file name>` (a site of its
 * own, so such pages learn together). The hash (12 hex digits of SHA-256 of the HTML) keeps apart
 * different pages of one name (standard input's, or files of one name in two folders), which would
 * otherwise replace each other's article; the same HTML again is the same page.
 */
export function fileUrl(name: string, html: string): string {
  const hash = createHash('sha256').update(html).digest('hex').slice(0, 12);
  return `http://file.localhost/${hash}/${encodeURIComponent(name)}`;
}

/** Whether a command-line argument is a URL (a scheme and `//`), not a file or a name. */
export function isUrlArgument(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg);
}

/**
 * What a file's text is, when it is plainly no HTML page: nothing (empty, or only white space: a file
 * cut short, `spider extract - < /dev/null`), a PDF, or binary (a NUL character in its first 4 KB: an
 * image, an archive), as a URL's content type tells the render step.
 */
function notHtml(text: string): string | undefined {
  if (!text.trim()) return text ? 'only white space' : 'empty';
  if (/^\s*%PDF-/.test(text)) return 'a PDF';
  if (text.slice(0, 4096).includes('\u0000')) return 'binary content';
  return undefined;
}

/**
 * Reads the inputs: a URL is rendered live; a file (or `-`, standard input) is rendered as an
 * archived page at `baseUrl` (standard input's, or the only file's), else at the URL its HTML states
 * (canonical, og:url), else at `fileUrl` (`http://file.localhost/<content hash>/<file name>`).
 * Standard input can be read once: `-` twice is an error.
 */
export async function readInputs(args: readonly string[], options: { baseUrl?: string; readStdin(): Promise<string> }): Promise<ExtractInput[]> {
  if (args.filter((a) => a === '-').length > 1) throw new Error('- (standard input) is given more than once: standard input can be read only once');
  const inputs: ExtractInput[] = [];
  const files = args.filter((a) => !isUrlArgument(a));
  if (options.baseUrl !== undefined && !files.includes('-') && files.length !== 1) {
    throw new Error(`--url is the URL of standard input or of the only file, and ${files.length ? `${files.length} files are` : 'no file is'} given: it would name none`);
  }
  // `baseUrl` is standard input's, or the only file's
  const baseUrlOf = (arg: string) => (arg === '-' || (files.length === 1 && !files.includes('-')) ? options.baseUrl : undefined);
  for (const arg of args) {
    if (isUrlArgument(arg)) {
      const parsed = HttpUrlSchema.safeParse(arg);
      inputs.push(parsed.success ? { arg, submission: { url: arg } } : { arg, error: parsed.error.issues[0].message });
      continue;
    }
    let html: string;
    try {
      html = arg === '-' ? await options.readStdin() : await readFile(arg, 'utf8');
    } catch (error) {
      // `www.example.com/page.html` is read as a file name: a URL without its scheme, most likely
      const guess = (error as NodeJS.ErrnoException).code === 'ENOENT' ? schemeHint(arg) : '';
      inputs.push({ arg, error: `cannot read ${arg}: ${(error as Error).message}${guess}` });
      continue;
    }
    const binary = notHtml(html);
    if (binary) {
      inputs.push({ arg, error: `${arg === '-' ? 'standard input' : arg} is not an HTML page (${binary})` });
      continue;
    }
    const name = arg === '-' ? 'stdin.html' : path.basename(arg);
    const url = baseUrlOf(arg) ?? statedUrl(html) ?? fileUrl(name, html);
    const parsed = HttpUrlSchema.safeParse(url);
    inputs.push(parsed.success ? { arg, submission: { url, html } } : { arg, error: `${url}: ${parsed.error.issues[0].message}` });
  }
  return inputs;
}

/**
 * Submits the inputs, runs the pipeline until its queues are empty, and reads back each input's
 * article, or the reason it has none (its dead letter, or an extraction with no words).
 */
export async function extractAll(pipeline: EmbeddedPipeline, inputs: readonly ExtractInput[], run: () => Promise<void>): Promise<ExtractOutcome[]> {
  const started = new Date().toISOString();
  const submissions = inputs.flatMap((i) => (i.submission ? [i.submission] : []));
  const report = await pipeline.submit(submissions);
  await run();
  const dead = pipeline.deadLetters().filter((d) => d.deadAt >= started);
  const outcomes: ExtractOutcome[] = [];
  for (const input of inputs) {
    if (!input.submission) {
      outcomes.push({ arg: input.arg, reason: input.error ?? 'not read' });
      continue;
    }
    const url = input.submission.url;
    const rejected = report.rejected.find((r) => r.url === url);
    if (rejected) {
      outcomes.push({ arg: input.arg, url, reason: rejected.reason });
      continue;
    }
    const site = siteOf(url);
    const pageId = pageIdOf(url);
    // this run's article of the URL's page: its own, or the page of another site it led to (its redirect record)
    const fresh = (s: string, id: string) =>
      getJson(pipeline.store, keys.article(s, id), (v) => ArticleDocumentSchema.parse(v)).then((a) => (a && a.extractedAt >= started ? a : undefined));
    const { value: article, redirect } = await readThroughRedirect(pipeline.store, site, pageId, fresh);
    if (article && hasArticle(article)) {
      outcomes.push({ arg: input.arg, url, article });
      continue;
    }
    const letter = findDeadLetter(dead, { url, site, pageId }) ?? (redirect && findDeadLetter(dead, redirect.to));
    outcomes.push({
      arg: input.arg,
      url,
      reason: letter ? `${letter.queue}: ${letter.reason}` : article ? NO_WORDS_REASON : 'no article was extracted',
    });
  }
  return outcomes;
}

/**
 * The newest dead letter of a page: a message whose URL is the page's (normalised), or that names its
 * site and page id (learn's and apply's messages), or a URL rejected at submission as it was typed.
 */
export function findDeadLetter(letters: readonly DeadLetter[], page: { url?: string; site?: string; pageId?: string }): DeadLetter | undefined {
  const normal = page.url && URL.canParse(page.url) ? normalizeUrl(page.url) : undefined;
  const matches = letters.filter((d) => {
    const body = d.body as { url?: unknown; site?: unknown; pageId?: unknown } | undefined;
    if (typeof body?.url === 'string') {
      if (body.url === page.url) return true;
      if (normal && URL.canParse(body.url) && normalizeUrl(body.url) === normal) return true;
    }
    return page.site !== undefined && page.pageId !== undefined && body?.site === page.site && body?.pageId === page.pageId;
  });
  return matches.sort((a, b) => (a.deadAt < b.deadAt ? 1 : a.deadAt > b.deadAt ? -1 : 0))[0];
}
