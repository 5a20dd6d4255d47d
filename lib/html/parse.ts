/**
 * HTML → DOM for the instant path. The snapshot is the browser's own serialization of the tree it
 * built (`document.documentElement.outerHTML` after a doctype), so it is well-formed and a fast
 * non-spec tokenizer (htmlparser2) rebuilds the same tree the browser had; no html5 tree builder needed.
 */
import { Parser, Tokenizer, type Options } from 'htmlparser2';
import { DomHandler, Document as DocumentNode, Element, ProcessingInstruction, Text, type AnyNode, type Document, type ParentNode } from 'domhandler';

export type { Document, Element, AnyNode } from 'domhandler';

/** Tags and attribute names lowercased, entities decoded, `<x/>` an open tag (as in HTML). */
const BASE_OPTIONS: Options = {
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
  decodeEntities: true,
  recognizeSelfClosing: false,
};

/** What the skipping tokenizer reads of htmlparser2's Tokenizer: its own state (not in its typings). */
interface TokenizerState {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
}

const LT = 0x3c; // <
const AMP = 0x26; // &
const QUOTE = 0x22; // "

/**
 * htmlparser2's tokenizer (the parser's `Tokenizer` option) reading text and double-quoted
 * attribute values in runs. Decoding entities, it hands every character of them to its state
 * machine one at a time, though only `<` and `&` (in a value, `"` and `&`) do anything there: a
 * third of a snapshot's parse. This one moves the index to the next such character at once, and
 * leaves that character, and every other state, to htmlparser2; the tree is the same
 * (test/html/parse.test.ts).
 */
export class SkippingTokenizer extends Tokenizer {}
{
  const base = Tokenizer.prototype as unknown as TokenizerState;
  const own = SkippingTokenizer.prototype as unknown as TokenizerState;
  /** The tokenizer's index moved to just before the next of two characters (the state loop then steps onto it), or to the end of the piece. */
  const skipTo = (t: TokenizerState, a: number, b: number) => {
    const buffer = t.buffer;
    let i = t.index - t.offset + 1;
    while (i < buffer.length) {
      const c = buffer.charCodeAt(i);
      if (c === a || c === b) break;
      i++;
    }
    t.index = i + t.offset - 1;
  };
  own.stateText = function (this: TokenizerState, c: number) {
    if (c === LT || c === AMP || !this.decodeEntities) base.stateText.call(this, c);
    else skipTo(this, LT, AMP);
  };
  own.stateInAttributeValueDoubleQuotes = function (this: TokenizerState, c: number) {
    if (c === QUOTE || c === AMP || !this.decodeEntities) base.stateInAttributeValueDoubleQuotes.call(this, c);
    else skipTo(this, QUOTE, AMP);
  };
}

/** Every event a parse of `html` gives, in order, as text (the skipping tokenizer's check). */
function parseEvents(html: string, tokenizer: typeof Tokenizer): string {
  const events: unknown[] = [];
  const parser = new Parser(
    {
      onopentag: (name, attribs) => events.push(['open', name, attribs]),
      onclosetag: (name) => events.push(['close', name]),
      ontext: (text) => events.push(['text', text]),
      oncomment: (text) => events.push(['comment', text]),
    },
    { ...BASE_OPTIONS, Tokenizer: tokenizer },
  );
  // in pieces, so that runs end at a piece's edge too
  for (let i = 0; i < html.length; i += 7) parser.write(html.slice(i, i + 7));
  parser.end();
  return JSON.stringify(events);
}

const PROBE =
  '<!DOCTYPE html><html><head><title>A &amp; B</title><script>if (a<b && c) x("&amp;")</script></head><body>' +
  '<p class="a b" title="x &amp; y &quot;z&quot; &notit; &#38;">One &lt; two &amp three &nbsp;four<br>five</p>' +
  "<a href='/q?a=1&b=2' data-x=plain>link</a><!-- note --><textarea>&lt;kept&gt;</textarea>&</body></html>";

/**
 * Whether the skipping tokenizer gives htmlparser2's own events on a probe page, once per process:
 * a version of htmlparser2 whose tokenizer is built otherwise gets its own tokenizer back.
 */
function skippingWorks(): boolean {
  try {
    return typeof (Tokenizer.prototype as unknown as Partial<TokenizerState>).stateText === 'function' && parseEvents(PROBE, SkippingTokenizer) === parseEvents(PROBE, Tokenizer);
  } catch {
    return false;
  }
}

/** True when parseHtml reads with the skipping tokenizer (test/html/parse.test.ts pins it, so an upgrade that loses it is seen). */
export const SKIPPING_TOKENIZER = skippingWorks();

const OPTIONS: Options = SKIPPING_TOKENIZER ? { ...BASE_OPTIONS, Tokenizer: SkippingTokenizer } : BASE_OPTIONS;

/**
 * A parsed page's elements in document order (depth first), each with the end of its subtree: the
 * walks of a page (its metadata, the rules' selectors, the field rules) read them as an array and
 * step over a subtree they leave out, instead of going from node to node through the children of
 * each (a quarter of the time on a snapshot, text nodes never touched).
 */
export interface ElementOrder {
  /** Every element under the document, in document order. */
  readonly elements: readonly Element[];
  /** `ends[i]`: the index in `elements` after the last element inside `elements[i]`. */
  readonly ends: readonly number[];
}

/** An order, and where its last element-rooted lookup found its root (the next one looks on from there). */
interface OrderState extends ElementOrder {
  hint: number;
}

/**
 * Where a parsed page keeps its order, as the parser built the tree (OrderingHandler) or as a walk
 * found it: on the document itself, so that it lives and dies with the tree (a WeakMap's entry kept
 * every page's tree alive until a full collection). A parsed tree is not changed after parseHtml
 * (nothing in lib/ changes one; parse.ts itself drops the order where it moves nodes).
 */
const ORDER = Symbol('element order');
type Ordered = Document & { [ORDER]?: OrderState };

/** domhandler's tree builder, noting each element as it opens and where its subtree ends as it closes. */
class OrderingHandler extends DomHandler {
  readonly elements: Element[] = [];
  readonly ends: number[] = [];
  /** Indexes of the elements open now. */
  private readonly open: number[] = [];

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    this.open.push(this.elements.length);
    this.elements.push(this.tagStack[this.tagStack.length - 1] as Element);
    this.ends.push(this.elements.length);
  }

  override onclosetag(): void {
    const i = this.open.pop();
    if (i !== undefined) this.ends[i] = this.elements.length;
    super.onclosetag();
  }
}

/** The order of a tree's elements under `root`, found by walking it. */
function walkOrder(root: ParentNode): OrderState {
  const elements: Element[] = [];
  const ends: number[] = [];
  const visit = (node: ParentNode) => {
    for (const c of node.children) {
      if (!(c instanceof Element)) continue;
      const i = elements.length;
      elements.push(c);
      ends.push(0);
      visit(c);
      ends[i] = elements.length;
    }
  };
  visit(root);
  return { elements, ends, hint: 0 };
}

/** The elements of a page in document order (ElementOrder): the parser's, or a walk's for a tree built otherwise. */
export function elementOrder(doc: Document): ElementOrder {
  return orderState(doc);
}

function orderState(doc: Document): OrderState {
  return ((doc as Ordered)[ORDER] ??= walkOrder(doc));
}

/** The index of `el` in the order, or -1: an array scan, no node read. */
function positionOf(order: OrderState, el: Element): number {
  const at = order.elements.indexOf(el, order.hint);
  return at >= 0 ? at : order.elements.lastIndexOf(el, order.hint);
}

/**
 * The elements under `root` (root excluded) in document order: `order.elements` from `from` up to
 * `to`. A root in no document (a tree built apart) gets an order of its own.
 */
export function elementRange(root: ParentNode): { readonly order: ElementOrder; readonly from: number; readonly to: number } {
  let top: ParentNode = root;
  while (top.parent) top = top.parent;
  const order = top instanceof DocumentNode ? orderState(top) : undefined;
  if (order && root === top) return { order, from: 0, to: order.elements.length };
  const at = order && root instanceof Element ? positionOf(order, root) : -1;
  if (!order || at < 0) {
    const own = walkOrder(root);
    return { order: own, from: 0, to: own.elements.length };
  }
  order.hint = at;
  return { order, from: at + 1, to: order.ends[at] };
}

/**
 * Bytes are decoded this many at a time, each piece parsed as it comes. A page decoded whole
 * becomes one string of a few hundred KB, which V8 allocates outside its young generation: on
 * readability-pages' snapshots that took 1.1 ms at the median, as long as the parse itself, against
 * under 0.1 ms in pieces. The parser keeps its state across pieces, so the tree is the same (on
 * every snapshot and served page of the datasets, and in fuzzing), except at the end of a page cut
 * inside a tag (endsInsideMarkup).
 */
export const DECODE_CHUNK_BYTES = 16 * 1024;

/**
 * A page whose last `<` has no `>` after it ends inside a tag or a comment (a page cut short).
 * htmlparser2 reads such an end differently when the page came in pieces (the rest of the input,
 * tens of KB of markup, as text): a page like that is decoded whole.
 */
function endsInsideMarkup(bytes: Uint8Array): boolean {
  return bytes.lastIndexOf(0x3c /* < */) > bytes.lastIndexOf(0x3e /* > */);
}

/**
 * Parse an HTML page into a domhandler Document. Bytes (a stored object's body) are UTF-8; a page
 * of them is better given as they are than decoded first (DECODE_CHUNK_BYTES). A byte order mark at
 * the start is left out, as a browser leaves it out: a stored page that a reader sniffing its bytes
 * would not read as UTF-8 starts with one (htmlToStore, lib/text/encoding.ts).
 */
export function parseHtml(html: string | Uint8Array): Document {
  const handler = new OrderingHandler(undefined, OPTIONS);
  const parser = new Parser(handler, OPTIONS);
  if (typeof html === 'string') parser.end(html.charCodeAt(0) === 0xfeff ? html.slice(1) : html);
  else {
    const decoder = new TextDecoder('utf-8');
    if (endsInsideMarkup(html)) parser.end(decoder.decode(html));
    else {
      for (let i = 0; i < html.length; i += DECODE_CHUNK_BYTES) parser.write(decoder.decode(html.subarray(i, i + DECODE_CHUNK_BYTES), { stream: true }));
      parser.end(decoder.decode());
    }
  }
  const doc = handler.root;
  // moved nodes change the order: a walk finds it when it is asked for
  if (!normaliseBody(doc)) (doc as Ordered)[ORDER] = { elements: handler.elements, ends: handler.ends, hint: 0 };
  return doc;
}

/** Elements that may stay in <head>; any other element (or text) there starts the body. */
const HEAD_CONTENT = new Set(['title', 'meta', 'link', 'script', 'style', 'base', 'noscript', 'template']);

function isBlankText(n: AnyNode): boolean {
  return n instanceof Text ? !/\S/.test(n.data) : !(n instanceof Element);
}

function relink(parent: ParentNode): void {
  const c = parent.children;
  for (let i = 0; i < c.length; i++) {
    c[i].parent = parent;
    c[i].prev = i > 0 ? c[i - 1] : null;
    c[i].next = i + 1 < c.length ? c[i + 1] : null;
  }
}

/**
 * Put body content where a browser puts it. A snapshot is already right (a no-op there), but raw
 * pages (archives, datasets) may have content inside <head> (a browser ends the head at the first
 * element that doesn't belong there) or after </body>: move it into <body>, as an HTML5 parser does.
 */
function normaliseBody(doc: Document): boolean {
  let html = doc.children.find((c): c is Element => c instanceof Element && c.name === 'html');
  if (!html) {
    // A fragment: give it the <html><body> a browser would.
    const body = new Element('body', {}, doc.children.filter((c) => !(c instanceof ProcessingInstruction)));
    relink(body);
    html = new Element('html', {}, [body]);
    doc.children = [...doc.children.filter((c) => c instanceof ProcessingInstruction), html];
    relink(html);
    relink(doc);
    return true;
  }
  const head = html.children.find((c): c is Element => c instanceof Element && c.name === 'head');
  let body = html.children.find((c): c is Element => c instanceof Element && c.name === 'body');
  const before: AnyNode[] = [];
  if (head) {
    const i = head.children.findIndex((n) => (n instanceof Element ? !HEAD_CONTENT.has(n.name) : !isBlankText(n)));
    if (i >= 0) before.push(...head.children.splice(i));
  }
  // Anything in <html> besides <head> and <body>, and anything after </html>, belongs in <body>.
  const after: AnyNode[] = [];
  let seenBody = false;
  for (const n of html.children) {
    if (n === head) continue;
    if (n === body) {
      seenBody = true;
      continue;
    }
    if (isBlankText(n)) continue;
    (seenBody ? after : before).push(n);
  }
  const docIndex = doc.children.indexOf(html);
  for (const n of doc.children.slice(docIndex + 1)) if (!isBlankText(n)) after.push(n);
  if (before.length === 0 && after.length === 0) return false;
  const moved = new Set([...before, ...after]);
  html.children = html.children.filter((n) => !moved.has(n));
  doc.children = doc.children.filter((n) => !moved.has(n));
  if (!body) {
    body = new Element('body', {});
    html.children.push(body);
  }
  body.children = [...before, ...body.children, ...after];
  relink(body);
  if (head) relink(head);
  relink(html);
  relink(doc);
  return true;
}

export function isElement(node: AnyNode): node is Element {
  return node instanceof Element;
}

export function isText(node: AnyNode): node is Text {
  return node instanceof Text;
}

/** Every element under `root` in document order (root excluded), depth-first, without recursion. */
export function* elements(root: ParentNode): Generator<Element> {
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const node = stack.pop()!;
    if (!(node instanceof Element)) continue;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/** The first element with this tag name under root, in document order. */
export function findFirst(root: ParentNode, name: string): Element | undefined {
  for (const el of elements(root)) if (el.name === name) return el;
  return undefined;
}

/** The <head> and <body> of a parsed page (either may be missing from a fragment). */
export function headAndBody(doc: Document): { html?: Element; head?: Element; body?: Element } {
  let html: Element | undefined;
  for (const c of doc.children) if (c instanceof Element && c.name === 'html') html = c;
  const scope: ParentNode = html ?? doc;
  let head: Element | undefined;
  let body: Element | undefined;
  for (const c of scope.children) {
    if (!(c instanceof Element)) continue;
    if (c.name === 'head' && !head) head = c;
    else if (c.name === 'body' && !body) body = c;
  }
  return { html, head, body };
}

/** Raw text content of a node (script/style text included), like DOM textContent. */
export function textContent(node: AnyNode): string {
  if (node instanceof Text) return node.data;
  if (!('children' in node)) return '';
  let out = '';
  const stack: AnyNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof Text) out += n.data;
    else if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

/**
 * Parse the HTML as a server sent it into the tree a browser builds from it, as far as learned
 * selectors see: parseHtml, then the HTML spec's implied `<tbody>` (a `<tr>` directly in a `<table>`
 * goes into a `<tbody>` the parser creates: "in table" insertion mode), which a source page usually
 * leaves out and a browser's tree, the one the rules were learned on, always has.
 */
export function parseServedHtml(html: string | Uint8Array): Document {
  const doc = parseHtml(html);
  const tables: Element[] = [];
  const walk = (node: ParentNode) => {
    for (const c of node.children) {
      if (!(c instanceof Element)) continue;
      if (c.name === 'table') tables.push(c);
      walk(c);
    }
  };
  walk(doc);
  let moved = false;
  for (const table of tables) if (wrapRows(table)) moved = true;
  if (moved) (doc as Ordered)[ORDER] = undefined;
  return doc;
}

/** Each run of `<tr>` children of a table (with the blank text between them) moves into a new `<tbody>`; whether any did. */
function wrapRows(table: Element): boolean {
  const out: AnyNode[] = [];
  let run: AnyNode[] | undefined;
  const close = () => {
    if (!run) return;
    // blank text after the last row stays outside the tbody
    const trailing: AnyNode[] = [];
    while (run.length && !(run[run.length - 1] instanceof Element)) trailing.unshift(run.pop()!);
    const tbody = new Element('tbody', {}, run);
    relink(tbody);
    out.push(tbody, ...trailing);
    run = undefined;
  };
  for (const c of table.children) {
    if (c instanceof Element && c.name === 'tr') (run ??= []).push(c);
    else if (run && isBlankText(c)) run.push(c);
    else {
      close();
      out.push(c);
    }
  }
  close();
  if (out.length === table.children.length && out.every((n, i) => n === table.children[i])) return false;
  table.children = out;
  relink(table);
  return true;
}

/** The class names of an element, in attribute order, without duplicates. */
export function classesOf(el: Element): string[] {
  const raw = el.attribs.class;
  if (!raw) return [];
  return [...new Set(raw.split(/\s+/).filter(Boolean))];
}
