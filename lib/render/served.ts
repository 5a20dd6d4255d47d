/**
 * The HTML as served: the main document's response body, kept beside the rendered snapshot
 * (`pages/<site>/<pageId>/served.html`, docs/storage-layout.md). A page's own scripts can take the
 * article away (an error handler replacing the document with a banner, a consent or paywall
 * overlay, a failed hydration); apply then extracts from the served HTML instead
 * (lib/apply/served-choice.ts). To tell, the snapshot carries the text length of both documents:
 * `<meta name="spider:served-text">` and `<meta name="spider:rendered-text">` (SERVED_TEXT_META,
 * RENDERED_TEXT_META), both counted by `textLength`: in the page on the rendered document, here on
 * the served HTML's parse (`servedTextLength`).
 */
import { isUtf8 } from 'node:buffer';
import type { HTTPResponse } from 'puppeteer-core';
import { elements, parseHtml } from '../html/parse';
import { decodeBytes } from '../text/encoding';
import { SNAPSHOT_META } from '../types/feature-document';

export const SERVED_TEXT_META = SNAPSHOT_META.servedText;
export const RENDERED_TEXT_META = SNAPSHOT_META.renderedText;

/** The tree `textLength` walks: a DOM node in the page, a domhandler node (lib/html/parse) here. */
export interface TextTree {
  readonly nodeType: number;
  readonly nodeValue?: string | null;
  readonly tagName?: string;
  readonly firstChild: TextTree | null;
  readonly nextSibling: TextTree | null;
  readonly parentNode: TextTree | null;
}

/**
 * Characters of the text under `root` (a document's <body>), white space collapsed, without
 * scripts, styles, templates and <noscript> (a page rendered with scripts does not show it; one
 * parsed as served does not run them either), nor the elements named in `alsoSkip`. Runs in the
 * page (serialized with Function.prototype.toString: nothing from outside its body) on the rendered
 * document, and here on the served HTML, so both are counted alike.
 */
export function textLength(root: TextTree | null, alsoSkip: readonly string[] = []): number {
  if (!root) return 0;
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', ...alsoSkip]);
  // in document order, a skipped element's subtree passed over whole: no recursion, as a page may
  // nest its elements far deeper than a call stack goes
  const parts: string[] = [];
  let node = root.firstChild;
  while (node) {
    if (node.nodeType === 3) parts.push(node.nodeValue ?? '');
    else if (node.nodeType === 1 && node.firstChild && !skip.has(String(node.tagName).toUpperCase())) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
  // runs of white space count as one character, none at either end; characters are code points
  const text = parts.join('').replace(/[ \n\t\r\f]+/g, ' ').replace(/^ | $/g, '');
  let surrogatePairs = 0;
  for (const _ of text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) surrogatePairs++;
  return text.length - surrogatePairs;
}

/**
 * The text length of served HTML as the page counts its rendered document, parsed here
 * (htmlparser2) rather than in the page: the render counts it while the page runs Readability. In
 * the page, parsing it with DOMParser took 30 ms a render at the median, a tenth of a render.
 * htmlparser2 makes no <body> the HTML does not have: then the whole document counts, its <head> left out.
 */
export function servedTextLength(html: string): number {
  const doc = parseHtml(html);
  for (const el of elements(doc)) if (el.name === 'body') return textLength(el as unknown as TextTree);
  return textLength(doc as unknown as TextTree, ['HEAD']);
}

/** The expression giving the rendered document's text length. */
export function renderedTextExpression(): string {
  return `(() => { const __name = (f) => f; return (${textLength.toString()})(document.body); })()`;
}

/**
 * The HTML as served, from the bytes puppeteer gives of a document response (`content()`), read as
 * the fetch path reads the page (lib/text/encoding.ts), so that both paths store the same text. Those
 * are not always the bytes sent: DevTools hands a body over as text when Chromium could decode it (by
 * the Content-Type's charset, a `<meta>`, a BOM, or as UTF-8), and puppeteer encodes that text in UTF-8
 * again, a `<meta charset="shift_jis">` in it notwithstanding: bytes that are valid UTF-8 are read as
 * UTF-8. Only a body it could not decode comes as sent (an undeclared legacy encoding; puppeteer's
 * `text()` threw on it, so such a page had no served HTML): read as the fetch path reads it, by its
 * declarations and else as windows-1252, not as Chromium's detector guessed it. (Chromium 153;
 * test/render/renderer.test.ts holds it to that.)
 */
export function servedHtmlOf(bytes: Uint8Array, contentType: string | undefined): string {
  return isUtf8(bytes) ? new TextDecoder('utf-8').decode(bytes) : decodeBytes(bytes, contentType);
}

/**
 * Keeps the body of the main frame's latest successful (2xx) document response, read as soon as
 * it arrives (a later navigation, to an error page say, would take it out of the browser's buffers).
 */
export class ServedCapture {
  private latest?: Promise<string | undefined>;

  /** Call from the page's `response` handler with main-frame document responses. */
  onDocumentResponse(res: HTTPResponse): void {
    const status = res.status();
    if (status < 200 || status >= 300) return;
    const contentType = res.headers()['content-type'];
    this.latest = res.content().then((bytes) => servedHtmlOf(bytes, contentType), () => undefined);
  }

  /**
   * The served HTML: the archived copy when the page was answered from one, else the captured body.
   * A document its own script replaced at once (location.replace('about:blank')) may never give its
   * body: after `waitMs` it counts as unread.
   */
  async html(archivedHtml: string | undefined, waitMs = 2000): Promise<string | undefined> {
    if (archivedHtml !== undefined) return archivedHtml;
    if (this.latest === undefined) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    try {
      return await Promise.race([this.latest, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
