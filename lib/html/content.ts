/**
 * Output of the article body, shared by the rules and the fallback extractors: given the chosen
 * nodes, produce plain text (one paragraph per line) and clean HTML in a single walk.
 *
 * Clean HTML keeps p, h1-h6, ul/ol/li, blockquote, pre, code, em, strong (b → strong, i → em), del,
 * s (strike → s), a[href], img[src,alt], figure, figcaption, br and data tables (table, caption,
 * thead, tbody, tfoot, tr, th[colspan,rowspan], td[colspan,rowspan]); every other element is
 * unwrapped, and inline text left directly inside an unwrapped block (a bare <div>) is wrapped in
 * <p>. Layout tables (nested tables, cells holding paragraphs or sections, a row framing
 * preformatted text, a single cell) are unwrapped like <div>s; a code listing's line-number cell
 * beside it is left out, as are line numbers written at the start of each of its lines. Scripts,
 * styles, forms' controls, hidden elements and empty elements are dropped; no other attribute
 * survives but a code block's language (`class="language-js"` on pre and code, as the page names it).
 */
import { Element, Text, type AnyNode } from 'domhandler';
import { countWords } from '../text/words';
import { textContent } from './parse';

export interface ContentOptions {
  /** Leave out this element and everything under it (the rules' clean selectors, the fallback's filters). */
  readonly skip?: (el: Element) => boolean;
  /** Resolve relative href/src against this URL. */
  readonly baseUrl?: string;
  /** Filled with the text's lines, in order, with their heading level and link text (the not-an-article test reads them). */
  readonly lines?: ContentLine[];
}

/** One line of a rendered text, as the not-an-article test reads it (lib/html/not-article.ts). */
export interface ContentLine {
  /** The line, as in the text. */
  readonly text: string;
  /** 1-6 when it is a heading's (h1-h6), else 0. */
  readonly heading: number;
  /** Its text inside links (`a` elements), '' when none. */
  readonly linkText: string;
}

export interface ArticleContent {
  /** Plain text, one paragraph per line, whitespace collapsed. */
  readonly text: string;
  /** Clean HTML of the content. */
  readonly html: string;
  readonly wordCount: number;
}

/**
 * The in-page collector's tag lists (lib/render/collector.ts carries them in upper case, since code
 * serialized into the page cannot import; test/render/collector-constants.test.ts pins its copies):
 * elements whose text it never reads, and the block-level elements it falls back on when the page
 * gives no display.
 */
export const COLLECTOR_SKIP_TAGS: readonly string[] = [
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'head', 'title', 'textarea', 'select', 'option',
];
export const COLLECTOR_BLOCK_TAGS: readonly string[] = [
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li',
  'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
  'caption', 'center',
];

/** Elements whose content is never article text: the collector's, plus form controls and other non-text. */
export const SKIP_TAGS: ReadonlySet<string> = new Set([
  ...COLLECTOR_SKIP_TAGS,
  'embed', 'optgroup', 'datalist', 'button', 'input', 'canvas', 'link', 'meta', 'base', 'map',
]);

/** Block-level elements: each starts a new line of text (the render collector's list, plus a few). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  ...COLLECTOR_BLOCK_TAGS,
  'html', 'menu', 'legend', 'listing', 'plaintext', 'xmp', 'video', 'audio', 'picture',
]);

const OUTPUT_TAG: Readonly<Record<string, string>> = {
  p: 'p', h1: 'h1', h2: 'h2', h3: 'h3', h4: 'h4', h5: 'h5', h6: 'h6', ul: 'ul', ol: 'ol', li: 'li',
  blockquote: 'blockquote', pre: 'pre', code: 'code', em: 'em', i: 'em', strong: 'strong', b: 'strong',
  a: 'a', img: 'img', figure: 'figure', figcaption: 'figcaption', br: 'br', del: 'del', s: 's', strike: 's',
};
const TABLE_TAGS: ReadonlySet<string> = new Set(['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td']);
/** Output elements that may hold only phrasing content: no implicit <p> inside them. */
const PHRASING_ONLY: ReadonlySet<string> = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'a', 'em', 'strong', 'code', 'del', 's']);
/** Output elements kept even when empty (table cells keep the grid aligned). */
const KEEP_EMPTY: ReadonlySet<string> = new Set(['td', 'th', 'br', 'img']);
/** Elements that mark the table holding them as layout (tableUse). */
const LAYOUT_HINTS: ReadonlySet<string> = new Set([
  'table', 'article', 'section', 'form', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'main', 'header', 'footer', 'nav', 'aside',
]);
/** Preformatted elements: in a table of one row, the frame a syntax highlighter sets around a code listing. */
const PRE_TAGS: ReadonlySet<string> = new Set(['pre', 'listing', 'xmp', 'plaintext']);

/** Heading elements and their level. */
export const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\b/i;
const VISIBILITY_HIDDEN = /(?:^|;)\s*visibility\s*:\s*hidden\b/i;

/**
 * Hidden with everything inside it, in the markup itself: `hidden` (which render sets on what the
 * page laid out as display:none), or an inline display:none. Unlike visibility, no child can undo it.
 */
export function hidesSubtree(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  const style = a.style;
  return style !== undefined && style.length > 0 && DISPLAY_NONE.test(style);
}

/** Hidden in the markup itself: what hidesSubtree says, or an inline visibility:hidden. */
export function isHidden(el: Element): boolean {
  if (hidesSubtree(el)) return true;
  const style = el.attribs.style;
  return style !== undefined && style.length > 0 && VISIBILITY_HIDDEN.test(style);
}

const NEEDS_ESCAPE = /[&<>"]/;
/** White space other than a single space: what collapsing (WHITE_SPACE_RUN to one space) changes. */
const COLLAPSIBLE = /[^\S ]| {2}/;
const WHITE_SPACE_RUN = /\s+/g;

export function escapeText(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeAttr(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(/[&"<>]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : '&gt;'));
}

function resolveUrl(value: string, base: string | undefined): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  if (/^\s*(?:javascript|vbscript|data):/i.test(v)) return undefined;
  if (!base) return v;
  try {
    return new URL(v, base).toString();
  } catch {
    return v;
  }
}

function imageSource(el: Element, base: string | undefined): string | undefined {
  const a = el.attribs;
  for (const name of ['src', 'data-src', 'data-lazy-src', 'data-original']) {
    const v = a[name];
    if (v && !/^\s*data:/i.test(v)) return resolveUrl(v, base);
  }
  return undefined;
}

/** A class token naming a code block's language, in the HTML standard's convention and its short form. */
const LANGUAGE_CLASS = /(?:^|\s)lang(?:uage)?-([A-Za-z0-9_+#.-]{1,30})(?=\s|$)/;

/** The language a <pre> or <code> names for its code (`class="language-js"`, `lang-js`), kept so a reader can highlight it. */
function codeLanguage(el: Element): string | undefined {
  const m = LANGUAGE_CLASS.exec(el.attribs.class ?? '');
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * A cell that holds only the numbers 1, 2, 3... one per line: the line-number gutter a syntax
 * highlighter sets in a cell beside its code, not the code's text. Lines are those a reader sees:
 * the breaks of preformatted text, <br> and blocks; a row of page links ("1 2 3") is not. Reads the
 * cell until its first other character, so a cell of prose costs next to nothing.
 */
function isLineNumberGutter(cell: Element): boolean {
  const lines: string[] = [''];
  const walk = (node: AnyNode, pre: boolean): boolean => {
    if (node instanceof Text) {
      for (const ch of node.data) {
        if (ch >= '0' && ch <= '9') lines[lines.length - 1] += ch;
        else if (ch === '\n' && pre) lines.push('');
        else if (!/\s/.test(ch)) return false;
        else if (lines[lines.length - 1] !== '' && !pre) return false; // two numbers on one line
      }
      return true;
    }
    if (!(node instanceof Element)) return true;
    const block = node.name === 'br' || BLOCK_TAGS.has(node.name);
    if (block) lines.push('');
    const inPre = pre || node.name === 'pre';
    for (const child of node.children) if (!walk(child, inPre)) return false;
    if (block) lines.push('');
    return true;
  };
  for (const child of cell.children) if (!walk(child, false)) return false;
  const numbers = lines.filter((l) => l !== '');
  return numbers.length >= 2 && numbers.every((n, i) => Number(n) === i + 1);
}

/** The text of an element at the start of a code line that holds a line number and nothing else ("12", "12 ", "12:"). */
const LINE_NUMBER = /^\s*(\d{1,6})[:.]?\s*$/;

/**
 * The line numbers a highlighter writes inside preformatted code, one element at the start of each
 * line (`<span class="linenos">1</span>let a = 1;`): elements that each hold only a number, at the
 * start of their line, numbering (nearly) every line one after another, on lines that mostly go on
 * with code. A listing of numbers alone (its lines hold nothing else) is the code's own text, and a
 * document's numbered headings ("2. Terminology" in an RFC's <pre>) number only a few of its lines.
 */
function inlineLineNumbers(pre: Element): Set<Element> {
  const found: Array<{ el: Element; n: number; line: number; rest: boolean }> = [];
  let line = 0;
  let atStart = true;
  /** Lines with something on them, their number or code. */
  let shown = 0;
  let lastShown = -1;
  const walk = (node: AnyNode): void => {
    if (node instanceof Text) {
      for (const ch of node.data) {
        if (ch === '\n') {
          line++;
          atStart = true;
        } else if (!/\s/.test(ch)) {
          const last = found[found.length - 1];
          if (last?.line === line) last.rest = true;
          if (lastShown !== line) [shown, lastShown] = [shown + 1, line];
          atStart = false;
        }
      }
      return;
    }
    if (!(node instanceof Element)) return;
    if (node.name === 'br') {
      line++;
      atStart = true;
      return;
    }
    if (atStart) {
      const text = textContent(node);
      const m = LINE_NUMBER.exec(text);
      if (m && !text.includes('\n')) {
        found.push({ el: node, n: Number(m[1]), line, rest: false });
        if (lastShown !== line) [shown, lastShown] = [shown + 1, line];
        atStart = false;
        return;
      }
    }
    for (const child of node.children) walk(child);
  };
  for (const child of pre.children) walk(child);
  // a gutter numbers every line (a document's numbered headings number a few)
  const consecutive = found.length >= 2 && found.length * 10 >= shown * 9 && found.every((f, i) => i === 0 || f.n === found[i - 1].n + 1);
  const withCode = found.filter((f) => f.rest).length;
  return consecutive && withCode * 2 >= found.length ? new Set(found.map((f) => f.el)) : new Set();
}

/** Elements only a data table has a use for: header cells and groups, a caption, column groups. */
const DATA_TABLE_MARKS: ReadonlySet<string> = new Set(['th', 'thead', 'tfoot', 'caption', 'colgroup', 'col']);

/**
 * What a table is used for, as its shown content says.
 * - `layout`: nested tables, cells holding sections, or more paragraphs than there are cells where
 *   nothing declares it data (a cell of a data table may hold two lines), one row holding
 *   preformatted text (a syntax highlighter's frame around a code listing, its line numbers in a cell
 *   beside it), or a single cell or none (a frame: data has rows or columns);
 * - `declared`: a grid (two rows of two cells or more) its author declared data, with header
 *   cells, a caption or column groups;
 * - `data`: the rest (a list in a column, or a grid of cells, which may be a gallery's).
 */
export function tableUse(table: Element): 'layout' | 'declared' | 'data' {
  let cells = 0;
  let rows = 0;
  let paragraphs = 0;
  let preformatted = false;
  let declared = false;
  let columns = 0;
  const rowCells = new Map<AnyNode | null, number>();
  const stack: AnyNode[] = [...table.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element) || SKIP_TAGS.has(n.name) || isHidden(n)) continue;
    const name = n.name;
    if (LAYOUT_HINTS.has(name)) return 'layout';
    if (name === 'td' || name === 'th') {
      cells++;
      const inRow = (rowCells.get(n.parent) ?? 0) + 1;
      rowCells.set(n.parent, inRow);
      columns = Math.max(columns, inRow);
    } else if (name === 'tr') rows++;
    else if (name === 'p' || name === 'div' || name === 'ul' || name === 'ol') paragraphs++;
    else if (PRE_TAGS.has(name)) preformatted = true;
    if (DATA_TABLE_MARKS.has(name)) declared = true;
    for (const c of n.children) stack.push(c);
  }
  if (cells <= 1 || (paragraphs > cells && !declared) || (preformatted && rows <= 1)) return 'layout';
  return declared && rows >= 2 && columns >= 2 ? 'declared' : 'data';
}

interface Frame {
  /** Inline content directly in this block needs an implicit <p> (the block itself is unwrapped or the root). */
  readonly wrap: boolean;
  /** Index in `html` of the open implicit <p>, or -1. */
  pMark: number;
  pMeaning: number;
}

interface Open {
  readonly el: Element;
  readonly block: boolean;
  /** Output tag, or '' when unwrapped. */
  readonly out: string;
  readonly mark: number;
  readonly meaning: number;
  readonly phrasing: boolean;
  readonly table: 0 | 1 | -1;
  readonly pre: boolean;
  /** An `a` element (its text is link text). */
  readonly link: boolean;
  /** The heading level around it before it opened, when it is a heading; -1 otherwise. */
  readonly outerHeading: number;
}

/**
 * A root of rendered content: an element, or a run of sibling inline nodes (text written bare into
 * a container, with the inline elements among it), rendered as one paragraph.
 */
export type ContentRoot = Element | readonly AnyNode[];

/**
 * Text and clean HTML of the given roots, in the given order (callers pass them in document order,
 * none inside another).
 */
export function renderContent(roots: readonly ContentRoot[], options: ContentOptions = {}): ArticleContent {
  const skip = options.skip;
  const base = options.baseUrl;
  const sink = options.lines;

  const html: string[] = [];
  const lines: string[] = [];
  let line = '';
  let meaning = 0; // count of meaningful things emitted (text with a non-space, images)
  let htmlSpace = true; // last html output ended in white space (or a block boundary)
  let phrasingDepth = 0;
  let preDepth = 0;
  /** Line-number elements inside the preformatted blocks met so far (inlineLineNumbers): left out. */
  const lineNumbers = new Set<Element>();
  /** Stack of emitted-table states: 1 inside a data table being emitted, -1 inside a layout table. */
  const tables: number[] = [];
  const frames: Frame[] = [{ wrap: true, pMark: -1, pMeaning: 0 }];
  const opens: Open[] = [];

  /** Set when raw (pre) text went into the line: then it needs a full white-space collapse. */
  let lineRaw = false;
  /** Open `a` elements, and the level of the innermost open heading (0: none). */
  let linkDepth = 0;
  let heading = 0;
  /** For `sink`: the line's text inside links, and its heading level. */
  let lineLink = '';
  let lineHeading = 0;
  const breakLine = () => {
    if (line) {
      // Parts are collapsed already; only their joins can leave double spaces.
      let t = lineRaw ? line.replace(/\s+/g, ' ') : line;
      t = t.trim();
      if (t.includes('  ')) t = t.replace(/ {2,}/g, ' ');
      if (t) {
        lines.push(t);
        if (sink) sink.push({ text: t, heading: lineHeading, linkText: lineLink.trim() });
      }
      line = '';
    }
    lineRaw = false;
    lineLink = '';
    lineHeading = 0;
  };
  /** For `sink`: text that went into the line. */
  const noteText = (data: string) => {
    if (linkDepth > 0) lineLink += ' ' + data;
    if (heading > lineHeading) lineHeading = heading;
  };

  /** Drop the white space that ends a block's content, before its closing tag. */
  const trimEnd = () => {
    const last = html.length - 1;
    if (last >= 0 && html[last].endsWith(' ')) {
      const t = html[last].trimEnd();
      if (t) html[last] = t;
      else html.length = last;
    }
  };

  const closeImplicit = (frame: Frame) => {
    if (frame.pMark < 0) return;
    trimEnd();
    if (meaning > frame.pMeaning) html.push('</p>');
    else html.length = frame.pMark;
    frame.pMark = -1;
    htmlSpace = true;
  };

  /** Before inline output: open an implicit <p> when inline content sits directly in an unwrapped block. */
  const ensureInline = () => {
    const frame = frames[frames.length - 1];
    if (frame.wrap && phrasingDepth === 0 && frame.pMark < 0) {
      frame.pMark = html.length;
      frame.pMeaning = meaning;
      html.push('<p>');
      htmlSpace = true;
    }
  };

  const inlineAllowed = () => {
    const frame = frames[frames.length - 1];
    return !frame.wrap || phrasingDepth > 0 || frame.pMark >= 0;
  };

  const emitText = (data: string) => {
    if (preDepth > 0) {
      const parts = data.split('\n');
      line += parts[0];
      lineRaw = true;
      if (sink) noteText(parts[0]);
      for (let i = 1; i < parts.length; i++) {
        breakLine();
        line += parts[i];
        lineRaw = true;
        if (sink) noteText(parts[i]);
      }
      if (/\S/.test(data)) meaning++;
      html.push(escapeText(data));
      htmlSpace = /\s$/.test(data);
      return;
    }
    // white space collapsed: a text whose only white space is single spaces is already
    const collapsed = COLLAPSIBLE.test(data) ? data.replace(WHITE_SPACE_RUN, ' ') : data;
    line += collapsed;
    if (collapsed === ' ' || collapsed === '') {
      if (!htmlSpace && inlineAllowed()) {
        html.push(' ');
        htmlSpace = true;
      }
      return;
    }
    ensureInline();
    if (sink) noteText(collapsed);
    let out = collapsed;
    if (htmlSpace && out.startsWith(' ')) out = out.slice(1);
    html.push(escapeText(out));
    htmlSpace = out.endsWith(' ');
    meaning++;
  };

  const enter = (el: Element, stack: Array<AnyNode | Open>) => {
    const name = el.name;
    if (SKIP_TAGS.has(name) || isHidden(el) || (skip && skip(el))) return;
    // a code listing's line numbers, in a cell of the layout table beside its code, or at the start of each of its lines
    if ((name === 'td' || name === 'th') && tables[tables.length - 1] === -1 && isLineNumberGutter(el)) return;
    if (preDepth > 0 && lineNumbers.has(el)) return;
    if (PRE_TAGS.has(name) && preDepth === 0) for (const n of inlineLineNumbers(el)) lineNumbers.add(n);

    if (name === 'br') {
      breakLine();
      const frame = frames[frames.length - 1];
      if (frame.wrap && phrasingDepth === 0) {
        // Text in a bare block split by <br>s: each run becomes its own paragraph.
        closeImplicit(frame);
      } else if (meaning > (opens.length ? opens[opens.length - 1].meaning : 0)) {
        // A line break inside a kept element, after some content of it.
        html.push('<br>');
        htmlSpace = true;
      }
      return;
    }
    if (name === 'img') {
      const src = imageSource(el, base);
      if (!src) return;
      ensureInline();
      const alt = el.attribs.alt;
      html.push(`<img src="${escapeAttr(src)}"${alt ? ` alt="${escapeAttr(alt.replace(/\s+/g, ' ').trim())}"` : ''}>`);
      htmlSpace = false;
      meaning++;
      return;
    }
    if (name === 'hr') {
      breakLine();
      if (phrasingDepth === 0) closeImplicit(frames[frames.length - 1]);
      return;
    }

    const block = BLOCK_TAGS.has(name);
    let out = OUTPUT_TAG[name] ?? '';
    let table: 0 | 1 | -1 = 0;
    const inDataTable = tables.length > 0 && tables[tables.length - 1] === 1;
    if (name === 'table') {
      table = phrasingDepth === 0 && tableUse(el) !== 'layout' ? 1 : -1;
      out = table === 1 ? 'table' : '';
      tables.push(table);
    } else if (TABLE_TAGS.has(name)) {
      out = inDataTable ? name : '';
    }
    if (block && phrasingDepth > 0 && out) {
      // A block inside a phrasing element (<a><div>, <p><p> built by a script): can't nest it in the output, unwrap.
      out = '';
    }
    let href: string | undefined;
    if (out === 'a') {
      // Links within the page (footnotes, anchors) and script links are unwrapped.
      const raw = el.attribs.href;
      href = raw !== undefined && !raw.trim().startsWith('#') ? resolveUrl(raw, base) : undefined;
      if (!href) out = '';
    }
    if (out === 'pre' && preDepth > 0) out = '';

    if (block) {
      breakLine();
      // Inside a kept phrasing element (<a><div>) the open <p> holds that element: leave it open.
      if (phrasingDepth === 0) closeImplicit(frames[frames.length - 1]);
    } else if (out) {
      ensureInline();
    }

    const mark = html.length;
    if (out) {
      if (out === 'a') html.push(`<a href="${escapeAttr(href!)}">`);
      else if ((out === 'td' || out === 'th') && (el.attribs.colspan || el.attribs.rowspan)) {
        let attrs = '';
        for (const k of ['colspan', 'rowspan']) {
          const v = el.attribs[k];
          if (v && /^\d{1,3}$/.test(v.trim())) attrs += ` ${k}="${v.trim()}"`;
        }
        html.push(`<${out}${attrs}>`);
      } else if (out === 'pre' || out === 'code') {
        const language = codeLanguage(el);
        html.push(language ? `<${out} class="language-${language}">` : `<${out}>`);
      } else html.push(`<${out}>`);
      if (block) htmlSpace = true;
    }
    const phrasing = out !== '' && PHRASING_ONLY.has(out);
    if (phrasing) phrasingDepth++;
    const pre = name === 'pre' || name === 'listing' || name === 'plaintext' || name === 'xmp';
    if (pre) preDepth++;
    if (block) frames.push({ wrap: out === '' && phrasingDepth === 0, pMark: -1, pMeaning: 0 });

    const link = name === 'a';
    if (link) linkDepth++;
    const level = HEADING_LEVEL[name];
    const outerHeading = level ? heading : -1;
    if (level) heading = level;
    const rec: Open = { el, block, out, mark, meaning, phrasing, table, pre, link, outerHeading };
    opens.push(rec);
    stack.push(rec);
    const children = el.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  };

  const leave = (rec: Open) => {
    opens.pop();
    if (rec.block) {
      breakLine();
      closeImplicit(frames[frames.length - 1]);
      frames.pop();
    }
    if (rec.phrasing) phrasingDepth--;
    if (rec.pre) preDepth--;
    if (rec.table !== 0) tables.pop();
    if (rec.link) linkDepth--;
    if (rec.outerHeading >= 0) heading = rec.outerHeading;
    if (rec.out) {
      if (meaning === rec.meaning && !KEEP_EMPTY.has(rec.out)) {
        html.length = rec.mark;
      } else {
        if (rec.block && rec.out !== 'pre') trimEnd();
        html.push(`</${rec.out}>`);
      }
      if (rec.block) htmlSpace = true;
    }
  };

  // Roots that are list items of one list (rules often select each <li>) are wrapped in that list's tag.
  let list: { parent: Element; mark: number; meaning: number; tag: string } | undefined;
  const closeList = () => {
    if (!list) return;
    if (meaning > list.meaning) html.push(`</${list.tag}>`);
    else html.length = list.mark;
    list = undefined;
    htmlSpace = true;
  };

  for (const root of roots) {
    const parent = root instanceof Element ? root.parent : undefined;
    if (root instanceof Element && root.name === 'li' && parent instanceof Element && (parent.name === 'ul' || parent.name === 'ol')) {
      if (list?.parent !== parent) {
        closeList();
        list = { parent, mark: html.length, meaning, tag: parent.name };
        html.push(`<${parent.name}>`);
      }
      frames[0] = { wrap: false, pMark: -1, pMeaning: 0 };
    } else {
      closeList();
      frames[0] = { wrap: true, pMark: -1, pMeaning: 0 };
    }
    const stack: Array<AnyNode | Open> = root instanceof Element ? [root] : [...root].reverse();
    while (stack.length) {
      const item = stack.pop()!;
      if (item instanceof Text) emitText(item.data);
      else if (item instanceof Element) enter(item, stack);
      else if ('el' in item && 'mark' in item) leave(item as Open);
      // comments, directives and CDATA carry no article text
    }
    breakLine();
    closeImplicit(frames[0]);
  }
  closeList();

  const text = lines.join('\n');
  return { text, html: html.join('').trim(), wordCount: countWords(text) };
}
