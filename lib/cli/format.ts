/** An article in the formats readers want: text, Markdown, clean HTML, or the JSON document. */
import TurndownService from 'turndown';
import { strikethrough, tables } from '@joplin/turndown-plugin-gfm';
import { escapeText } from '../html/content';
import type { Logger } from '../step/context';
import type { ArticleDocument } from '../types/article-document';
import { normalizeText } from '../text/normalize';

/**
 * Clean HTML to Markdown that keeps the article's structure: ATX headings, `-` lists, `>` quotes,
 * fenced code, GitHub tables and strikethrough, and a figure's caption as an italic line of its own
 * (Turndown, the common converter, with the GitHub plugin Joplin keeps).
 */
function markdownConverter(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '*' });
  service.use([tables, strikethrough]);
  // Rules added later are tried first.
  service.addRule('figcaption', {
    filter: 'figcaption',
    replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : ''),
  });
  // A table a GitHub table cannot hold stays HTML, which Markdown allows, where the plugin would pad
  // it with an empty header row, break its rows at a list or wrap it in its application's <div>.
  service.addRule('tableAsHtml', {
    filter: (node) => node.nodeName === 'TABLE' && !isGithubTable(node as HTMLTableElement),
    replacement: (_content, node) => `\n\n${(node as HTMLElement).outerHTML}\n\n`,
  });
  // Every <pre> fenced as written (its <br>s as line breaks), its fence longer than any backtick run
  // inside, with the language the clean HTML names on its <code> or on itself. Turndown fences only
  // a <pre> that starts with <code>, reads that <code> alone, and the language on it alone: a bare
  // <pre> (most pages' code, and any text laid out in white space) lost its line breaks and
  // indentation and had its characters escaped.
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const code = element.firstElementChild?.nodeName === 'CODE' ? element.firstElementChild : undefined;
      const language = /\blanguage-(\S+)/.exec(code?.getAttribute('class') ?? element.getAttribute('class') ?? '')?.[1] ?? '';
      const text = preformattedText(element).replace(/\n+$/, '');
      const fence = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map((run) => run.length + 1)));
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  return service;
}

/** A table of a header row of cells, then rows of as many plain cells: no caption, merged cells or blocks in a cell. */
function isGithubTable(table: HTMLTableElement): boolean {
  const rows = Array.from(table.rows);
  if (rows.length < 2 || Array.from(table.children).some((child) => child.nodeName === 'CAPTION')) return false;
  const width = rows[0].cells.length;
  if (!Array.from(rows[0].cells).every((cell) => cell.nodeName === 'TH')) return false;
  return rows.every(
    (row) =>
      row.cells.length === width &&
      Array.from(row.cells).every((cell) => !cell.hasAttribute('colspan') && !cell.hasAttribute('rowspan') && !cell.querySelector('p, ul, ol, pre, table, blockquote, figure, h1, h2, h3, h4, h5, h6')),
  );
}

/** A preformatted element's text as shown: its text, a <br> a line break. */
function preformattedText(node: Node): string {
  if (node.nodeType === 3) return node.nodeValue ?? '';
  if (node.nodeName === 'BR') return '\n';
  let text = '';
  for (const child of Array.from(node.childNodes)) text += preformattedText(child);
  return text;
}
let converter: TurndownService | undefined;

/** The body as Markdown: from its clean HTML when there is some, else one paragraph per line of text. */
function bodyMarkdown(body: Pick<ArticleDocument, 'text' | 'html'>): string[] {
  if (!body.html.trim()) return body.text.split('\n');
  converter ??= markdownConverter();
  return [converter.turndown(body.html)];
}

/** How near the top a heading that shows the title is dropped: within the body's first blocks. */
const TITLE_SEARCH_BLOCKS = 3;
const HEADING = /<h([1-3])\b[^>]*>([\s\S]*?)<\/h\1>/i;

/**
 * The body as printed under the title: without its own heading that shows the title again (the
 * single-page extractor starts its article with the page's headline; the title is printed above).
 * The article document keeps its text and HTML as extracted.
 */
export function bodyUnderTitle(article: Pick<ArticleDocument, 'title' | 'text' | 'html'>): { text: string; html: string } {
  const title = article.title ? normalizeText(article.title) : '';
  if (!title) return { text: article.text, html: article.html };
  const lines = article.text.split('\n');
  const near = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.trim()).slice(0, TITLE_SEARCH_BLOCKS);
  const line = near.find(({ l }) => normalizeText(l) === title);
  const text = line ? lines.filter((_, i) => i !== line.i).join('\n') : article.text;
  const m = HEADING.exec(article.html);
  const before = m ? (article.html.slice(0, m.index).match(/<(p|li|h[1-6]|blockquote|figure|pre|table)\b/gi) ?? []).length : 0;
  const html = m && before < TITLE_SEARCH_BLOCKS && normalizeText(m[2].replace(/<[^>]+>/g, ' ')) === title ? article.html.slice(0, m.index) + article.html.slice(m.index + m[0].length) : article.html;
  return { text, html };
}

export type OutputFormat = 'text' | 'markdown' | 'html' | 'json';

/**
 * Between title and body: the header as the page shows it (byline and dateline line, lead caption)
 * when the site's rules give one, else a line made of the byline and the date. A dek the rules tell
 * is the body's first line.
 */
function headLines(article: ArticleDocument): string[] {
  if (article.header) return article.header.split('\n').filter((l) => l.trim());
  const byline = [article.byline, article.published].filter(Boolean).join(' · ');
  return byline ? [byline] : [];
}

/**
 * Text from a page made safe to print on a terminal: control characters (C0 but tab and newline,
 * DEL, C1) are dropped, so a page cannot send escape sequences (retitle the window, rewrite the
 * screen, forge lines) through `spider article` or `spider articles`. `singleLine` also turns tabs
 * and newlines into spaces, for one field of a tab-separated line.
 */
export function terminalSafe(text: string, singleLine = false): string {
  const safe = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
  return singleLine ? safe.replace(/[\t\n]/g, ' ') : safe;
}

/** JSON with the C1 controls (which JSON.stringify leaves raw) escaped: the same data, safe on a terminal. */
export function terminalSafeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Longest text (a URL, a word of a reason) shown whole on a line for people; `--json` keeps it whole. */
const LONG_TEXT = 200;
const HEAD_CHARS = 150;
const TAIL_CHARS = 30;

/**
 * One field of a line for people (a URL, given or stored), terminal-safe and, past 200 characters,
 * cut in the middle with its length said: `http://a.example/xxx…xxx.html (4,217 characters)`. `quoted`
 * writes it as JSON (for text that is no valid URL, whose spaces and quotes should show).
 */
export function shownText(text: string, quoted = false): string {
  const chars = Array.from(text);
  const say = (t: string) => (quoted ? terminalSafeJson(t) : terminalSafe(t, true));
  if (chars.length <= LONG_TEXT) return say(text);
  return `${say(`${chars.slice(0, HEAD_CHARS).join('')}…${chars.slice(-TAIL_CHARS).join('')}`)} (${chars.length.toLocaleString('en-US')} characters)`;
}

/** A reason on one line for people, terminal-safe, each word longer than 200 characters (a URL in it) cut as shownText cuts it. */
export function shownReason(reason: string): string {
  return terminalSafe(reason, true).replace(new RegExp(`\\S{${LONG_TEXT + 1},}`, 'gu'), (word) => shownText(word));
}

export function formatArticle(article: ArticleDocument, format: OutputFormat): string {
  return format === 'json' ? terminalSafeJson(article, 2) : terminalSafe(formatted(article, format));
}

function formatted(article: ArticleDocument, format: Exclude<OutputFormat, 'json'>): string {
  const head = headLines(article);
  const body = bodyUnderTitle(article);
  switch (format) {
    case 'html': {
      const header = head.length ? `<header>${head.map((l) => `<p>${escapeText(l)}</p>`).join('')}</header>\n` : '';
      return `<article>\n${article.title ? `<h1>${escapeText(article.title)}</h1>\n` : ''}${header}${body.html}\n</article>`;
    }
    case 'markdown':
      return [article.title && `# ${article.title}`, ...head.map((l) => `*${l}*`), ...bodyMarkdown(body)].filter(Boolean).join('\n\n');
    case 'text':
      return [article.title, ...head, '', body.text].filter((l) => l !== undefined).join('\n');
  }
}

/**
 * The steps' warnings and errors on stderr, one line each (`warning: <message> key=value …`), made
 * terminal-safe: what a user should see (an article replaced by a much shorter one, rules that no
 * longer fit a page). Debug and info lines stay silent; the progress lines say what was done.
 */
export const stderrLogger: Logger = {
  debug() {},
  info() {},
  warn: (message, extra) => writeLogLine(logLine('warning', message, extra)),
  error: (message, extra) => writeLogLine(logLine('error', message, extra)),
};

/** Where log lines go while a live status line is on the terminal: above it (the progress's print). */
let aboveStatusLine: ((line: string) => void) | undefined;

/** Send the stderr logger's lines through `print` (undefined: straight to stderr again). */
export function printLogLinesWith(print: ((line: string) => void) | undefined): void {
  aboveStatusLine = print;
}

function writeLogLine(line: string): void {
  if (aboveStatusLine) aboveStatusLine(line.replace(/\n$/, ''));
  else process.stderr.write(line);
}

function logLine(level: string, message: string, extra?: Record<string, unknown>): string {
  const fields = Object.entries(extra ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return terminalSafe([`${level}: ${message}`, ...fields].join(' '), true) + '\n';
}
