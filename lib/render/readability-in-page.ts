/**
 * Mozilla Readability (@mozilla/readability) run inside the rendered page, at render time, where the
 * DOM is already built: on a deep clone of the document (Readability takes its input apart), with
 * every element of the clone numbered so that what Readability keeps can be traced back to the live
 * document. Each element of the live document that directly holds text Readability kept gets the
 * attribute `data-spider-readability` (READABILITY_MARK), so the marks travel in the snapshot (apply,
 * the fallback's Readability vote) and the collector counts them per block (`readabilityChars`, for
 * the learner). Its result (title, byline, text length, marks) is the feature document's
 * `readability` field (docs/feature-document.md).
 *
 * The library's own source is evaluated in the page (in the collector's isolated world), not a copy:
 * it is read from the installed package, which the render Lambda ships beside its bundle
 * (cdk/spider-stack.ts `nodeModules`), and minified once per process with esbuild (shipped there
 * too). The page receives and compiles the source on every render: at 33 KB instead of the
 * package's 90 KB, that took 13 ms instead of 26 at the median of readability-pages' renders.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transformSync } from 'esbuild';
import { READABILITY_MARK, SNAPSHOT_META, type InPageReadability } from '../types/feature-document';

export { READABILITY_MARK };
/** The snapshot's `<meta name>` holding Readability's title of the page (apply's title when the page's own evidence is weak). */
export const READABILITY_TITLE_META = SNAPSHOT_META.readabilityTitle;
/** Numbers the clone's elements while Readability runs; never reaches the live document. */
const INDEX_ATTR = 'data-spider-i';

let source: string | undefined;
/** Readability.js as shipped by the package, minified (once): the same code in a third of the bytes. */
export function readabilitySource(): string {
  if (source === undefined) {
    const require = createRequire(import.meta.url);
    const shipped = readFileSync(require.resolve('@mozilla/readability/Readability.js'), 'utf8');
    // a script, not a module: its top-level `Readability` keeps its name
    source = transformSync(shipped, { minify: true, loader: 'js' }).code;
  }
  return source;
}

interface ReadabilityArticle {
  title?: string | null;
  byline?: string | null;
  excerpt?: string | null;
  siteName?: string | null;
  publishedTime?: string | null;
  length?: number | null;
  content?: unknown;
}
type ReadabilityClass = new (doc: Document, options: object) => { parse(): ReadabilityArticle | null };

/**
 * Runs in the page (serialized with Function.prototype.toString: it must not reference anything
 * outside its own body). Returns the result as the feature document stores it.
 */
export function markReadability(doc: Document, Readability: ReadabilityClass, mark: string, indexAttr: string): InPageReadability {
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const live = doc.getElementsByTagName('*');
  const clone = doc.cloneNode(true) as Document;
  const copies = clone.getElementsByTagName('*');
  if (copies.length !== live.length) return { version: 1, ok: false, error: 'the clone differs from the document', length: 0, marked: 0 };
  for (let i = 0; i < copies.length; i++) copies[i].setAttribute(indexAttr, String(i));
  let article: ReadabilityArticle | null;
  try {
    article = new Readability(clone, { serializer: (el: Element) => el }).parse();
  } catch (error) {
    return { version: 1, ok: false, error: String(error instanceof Error ? error.message : error).slice(0, 200), length: 0, marked: 0 };
  }
  const content = article?.content as Element | undefined;
  if (!article || !content || typeof content !== 'object') return { version: 1, ok: false, length: 0, marked: 0 };
  const marked = new Set<Element>();
  // Kept text whose element Readability made itself (a <p> around loose text, or one that replaced a
  // <div> holding only text): its live counterpart is found by its text under the nearest numbered element.
  const byText = new Map<Element, Set<string>>();
  const walker = clone.createTreeWalker(content, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = clean(node.nodeValue);
    if (!text) continue;
    const parent = node.parentElement;
    if (parent && parent.hasAttribute(indexAttr)) {
      const original = live[Number(parent.getAttribute(indexAttr))];
      if (original) marked.add(original);
      continue;
    }
    let el = parent;
    while (el && !el.hasAttribute(indexAttr)) el = el.parentElement;
    const ancestor = el ? live[Number(el.getAttribute(indexAttr))] : undefined;
    if (!ancestor) continue;
    let texts = byText.get(ancestor);
    if (!texts) byText.set(ancestor, (texts = new Set()));
    texts.add(text);
  }
  for (const [ancestor, texts] of byText) {
    const inLive = doc.createTreeWalker(ancestor, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = inLive.nextNode(); node; node = inLive.nextNode()) {
      if (node.parentElement && texts.has(clean(node.nodeValue))) marked.add(node.parentElement);
    }
  }
  for (const el of marked) el.setAttribute(mark, '1');
  const out: InPageReadability = { version: 1, ok: true, length: clean(content.textContent).length, marked: marked.size };
  const fields = { title: article.title, byline: article.byline, excerpt: article.excerpt, siteName: article.siteName, publishedTime: article.publishedTime };
  for (const [k, v] of Object.entries(fields)) {
    const s = clean(v).slice(0, 1000);
    if (s) (out as Record<string, unknown>)[k] = s;
  }
  return out;
}

/** The expression evaluated in the page: Readability's source, then markReadability on `document`. */
export function readabilityExpression(): string {
  return `(() => { const __name = (f) => f; const module = undefined;
${readabilitySource()}
;return (${markReadability.toString()})(document, Readability, ${JSON.stringify(READABILITY_MARK)}, ${JSON.stringify(INDEX_ATTR)}); })()`;
}
