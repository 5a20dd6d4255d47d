/**
 * The HTML as served: the main document's response body, kept beside the rendered snapshot
 * (`pages/<site>/<pageId>/served.html`, docs/storage-layout.md). A page's own scripts can take the
 * article away (an error handler replacing the document with a banner, a consent or paywall
 * overlay, a failed hydration); apply then extracts from the served HTML instead
 * (lib/apply/served-choice.ts). To tell, the snapshot carries the text length of both documents:
 * `<meta name="spider:served-text">` and `<meta name="spider:rendered-text">` (SERVED_TEXT_META,
 * RENDERED_TEXT_META), counted alike: the rendered document by `textLength` in the page, the served
 * HTML by `servedTextLength` here.
 */
import type { AnyNode, ParentNode } from 'domhandler';
import type { HTTPResponse } from 'puppeteer-core';
import { elements, isElement, isText, parseHtml } from '../html/parse';
import { SNAPSHOT_META } from '../types/feature-document';

export const SERVED_TEXT_META = SNAPSHOT_META.servedText;
export const RENDERED_TEXT_META = SNAPSHOT_META.renderedText;

/**
 * Runs in the page (serialized with Function.prototype.toString). Characters of a document's
 * <body> text, white space collapsed, without scripts, styles, templates and <noscript> (a page
 * rendered with scripts does not show it; one parsed as served does not run them either).
 */
export function textLength(doc: Document): number {
  const body = doc.body;
  if (!body) return 0;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  let n = 0;
  let space = true;
  const walker = doc.createTreeWalker(body, 4 /* NodeFilter.SHOW_TEXT */);
  outer: for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let el = node.parentElement; el && el !== body; el = el.parentElement) if (SKIP.has(el.tagName.toUpperCase())) continue outer;
    for (const ch of node.nodeValue ?? '') {
      const isSpace = ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f';
      if (isSpace) {
        if (!space) n++;
        space = true;
      } else {
        n++;
        space = false;
      }
    }
  }
  return space && n > 0 ? n - 1 : n;
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template']);

/**
 * The text length of served HTML as `textLength` counts a document, parsed here (htmlparser2)
 * rather than in the page: the render counts it while the page runs Readability. In the page,
 * parsing it with DOMParser took 30 ms a render at the median, a tenth of a render.
 */
export function servedTextLength(html: string): number {
  const doc = parseHtml(html);
  let root: ParentNode = doc;
  for (const el of elements(doc)) {
    if (el.name === 'body') {
      root = el;
      break;
    }
  }
  // in document order, with a stack: a page may nest its elements far deeper than a call stack goes
  const parts: string[] = [];
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (isText(node)) parts.push(node.data);
    else if (isElement(node) && !SKIPPED.has(node.name) && !(root === doc && node.name === 'head')) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  // runs of white space count as one character, none at either end; characters are code points
  const text = parts.join('').replace(/[ \n\t\r\f]+/g, ' ').replace(/^ | $/g, '');
  let surrogatePairs = 0;
  for (const _ of text.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) surrogatePairs++;
  return text.length - surrogatePairs;
}

/** The expression giving the rendered document's text length. */
export function renderedTextExpression(): string {
  return `(() => { const __name = (f) => f; return (${textLength.toString()})(document); })()`;
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
    this.latest = res.text().then((t) => t, () => undefined);
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
