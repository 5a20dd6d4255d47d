/**
 * The in-page collector: pure DOM code that splits a rendered page into text blocks and records
 * each block's visual features and the page's metadata. It runs inside Chromium through
 * `page.evaluate` (serialized with Function.prototype.toString, so it must not reference anything
 * outside its own body) and under jsdom in tests, with layout supplied through the `seam`.
 *
 * A block is the closest block-level ancestor of a text node (Zhou & Sun, section 3).
 */
import type { MetaNames } from '../html/meta-names';
import type { CollectedPage } from '../types/feature-document';

/** Layout calls go through this seam so the logic can run where there is no layout engine. */
export interface LayoutSeam {
  /** CSS.escape, for a window without it (jsdom); the page's own where absent. */
  cssEscape?(value: string): string;
  /** Bounding box in page coordinates. */
  rect(el: Element): { x: number; y: number; width: number; height: number };
  /** Computed style value of a property. */
  style(el: Element, property: string): string;
  /** False when the element is not rendered (display:none, visibility:hidden, zero size). */
  visible(el: Element): boolean;
  /**
   * False when a text node is not laid out though its element is: an <object>'s bare fallback text
   * while it shows its resource. Asked only of text directly inside an <object>; absent: laid out.
   */
  textShown?(text: Node): boolean;
}

export interface CollectOptions {
  readonly maxBlocks: number;
  /** A block's recorded path keeps its deepest steps up to this many (MAX_PATH_STEPS). */
  readonly maxPathSteps: number;
  /** A block's selector is at most this long (MAX_SELECTOR_CHARS), leading steps dropped to fit. */
  readonly maxSelectorChars: number;
  /** The meta names the page's title, author and date are read from (META_NAMES, lib/html/meta-names.ts). */
  readonly metaNames: MetaNames;
  /** The attribute the in-page Readability marks the elements whose text it kept with (READABILITY_MARK); counted per block. */
  readonly readabilityMark?: string;
}

/** Runs in the page. Everything it uses is defined inside it. */
export function collectPage(doc: Document, seam: LayoutSeam | null, options: CollectOptions): CollectedPage {
  // Visual properties compared with <body>'s; geometry (width, height, top, left, margins) is left out.
  const CSS_PROPERTIES = [
    'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'color', 'background-color',
    'text-align', 'text-decoration-line', 'text-transform', 'letter-spacing', 'white-space', 'display',
    'float', 'position', 'list-style-type', 'border-top-style', 'border-bottom-style', 'border-left-style',
    'border-left-color', 'opacity', 'visibility', 'vertical-align',
  ];
  const INLINE_DISPLAYS = new Set(['inline', 'contents', 'inline-block', 'inline-flex', 'inline-grid', 'ruby', 'ruby-text']);
  const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'MATH', 'IFRAME', 'HEAD', 'TITLE', 'TEXTAREA', 'SELECT', 'OPTION']);
  const BLOCK_TAGS = new Set([
    'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET',
    'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'LI',
    'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'CAPTION', 'CENTER',
  ]);
  const WORD = /[\p{L}\p{N}_]+/gu;
  // JSON-LD nodes recorded: lib/html/schema-types.ts COLLECTED_JSONLD_TYPE (a copy: this runs in the page).
  const JSONLD_TYPE = /Article|Posting|Report|WebPage/i;

  const win = doc.defaultView as (Window & typeof globalThis) | null;
  const layout: LayoutSeam = seam ?? {
    rect(el) {
      const r = el.getBoundingClientRect();
      return { x: r.left + (win?.scrollX ?? 0), y: r.top + (win?.scrollY ?? 0), width: r.width, height: r.height };
    },
    style(el, property) {
      return win ? win.getComputedStyle(el).getPropertyValue(property) : '';
    },
    visible(el) {
      const anyEl = el as Element & { checkVisibility?: (o?: object) => boolean };
      if (typeof anyEl.checkVisibility === 'function' && !anyEl.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 || r.height > 0;
    },
    textShown(text) {
      const range = doc.createRange();
      range.selectNodeContents(text);
      return range.getClientRects().length > 0;
    },
  };

  const body = doc.body;
  const round = (n: number) => Math.round(n * 10) / 10;
  const countWords = (s: string) => (s.match(WORD) ?? []).length;
  const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

  const isBlock = (el: Element): boolean => {
    if (el === body) return true;
    const display = layout.style(el, 'display');
    if (display) return !INLINE_DISPLAYS.has(display) && display !== 'none';
    return BLOCK_TAGS.has(el.tagName);
  };

  type Path = CollectedPage['blocks'][number]['path'];
  // The path from body down to el, its deepest maxPathSteps steps at most (a page nested deeper is
  // kept: only the record of where its blocks sit is cut).
  // Each element's position among its siblings, numbered once per parent: walking the previous
  // siblings for every block is quadratic (190,000 empty <p> before 5,000 paragraphs).
  const siblingIndexes = new Map<Element, number>();
  const siblingIndex = (node: Element): number => {
    let index = siblingIndexes.get(node);
    if (index !== undefined) return index;
    let n = 1;
    for (let s = node.parentElement ? node.parentElement.firstElementChild : node; s; s = s.nextElementSibling) siblingIndexes.set(s, n++);
    index = siblingIndexes.get(node);
    if (index === undefined) { index = 1; for (let s = node.previousElementSibling; s; s = s.previousElementSibling) index++; }
    return index;
  };
  const pathOf = (el: Element): { steps: Path; rooted: boolean } => {
    const steps: Path = [];
    let node: Element | null = el;
    for (; node && node !== body && node !== doc.documentElement && steps.length < options.maxPathSteps; node = node.parentElement) {
      const index = siblingIndex(node);
      const classes = Array.from(node.classList).filter((c) => c.length <= 256).slice(0, 64);
      const step: Path[number] = { tag: node.tagName.toLowerCase(), classes, index };
      if (node.id && node.id.length <= 256) step.id = node.id;
      steps.push(step);
    }
    steps.reverse();
    return { steps, rooted: !node || node === body || node === doc.documentElement };
  };

  // identifiers escaped by the page's CSS.escape (the seam's where the window has none: jsdom)
  const cssIdent = (value: string): string => (seam?.cssEscape ? seam.cssEscape(value) : win!.CSS.escape(value));
  const stepSelector = (s: Path[number]) => cssIdent(s.tag) + (s.id ? '#' + cssIdent(s.id) : '') + s.classes.map((c) => '.' + cssIdent(c)).join('');
  // `body > a > b`, or `body a > b` when leading steps were cut (by the path cap, or here to keep the
  // selector within maxSelectorChars); the path keeps the steps its selector names.
  const located = (el: Element): { path: Path; selector: string } => {
    const { steps, rooted } = pathOf(el);
    const parts = steps.map(stepSelector);
    let start = 0;
    let length = parts.reduce((n, p) => n + p.length + 3, 'body'.length);
    while (length > options.maxSelectorChars && start < parts.length - 1) length -= parts[start++].length + 3;
    const chain = parts.slice(start).join(' > ');
    const selector = rooted && start === 0 ? (chain ? 'body > ' + chain : 'body') : 'body ' + chain;
    // One step alone longer than the cap (ids and classes of hundreds of characters): its tag.
    if (selector.length > options.maxSelectorChars) return { path: [{ ...steps[steps.length - 1], id: undefined, classes: [] }], selector: 'body ' + steps[steps.length - 1].tag };
    return { path: steps.slice(start), selector };
  };

  const bodyCss: Record<string, string> = {};
  if (body) for (const p of CSS_PROPERTIES) bodyCss[p] = layout.style(body, p);

  // Walk text nodes in document order; attach each to its closest block-level ancestor.
  interface Acc { el: Element; parts: string[]; linkChars: number; linkWords: number; keptChars: number }
  // Marked by the in-page Readability (readability-in-page.ts) when it ran first.
  const KEPT = options.readabilityMark;
  const blocks = new Map<Element, Acc>();
  const blockOf = new Map<Element, Element>();
  const visibleCache = new Map<Element, boolean>();
  const visible = (el: Element): boolean => {
    let v = visibleCache.get(el);
    if (v === undefined) {
      v = layout.visible(el);
      visibleCache.set(el, v);
    }
    return v;
  };

  if (body) {
    const walker = doc.createTreeWalker(body, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const raw = node.nodeValue ?? '';
      const blank = !raw.trim();
      const parent = node.parentElement;
      if (!parent) continue;
      let skip = false;
      let inLink = false;
      let block: Element | undefined = blockOf.get(parent);
      for (let el: Element | null = parent; el; el = el.parentElement) {
        if (SKIP_TAGS.has(el.tagName.toUpperCase())) { skip = true; break; }
        if (el.tagName === 'A') inLink = true;
        if (el === body) break;
      }
      if (skip || !visible(parent)) continue;
      // an <object> showing its resource lays out none of its fallback: its bare text neither
      if (parent.tagName === 'OBJECT' && !blank && layout.textShown && !layout.textShown(node)) continue;
      if (!block) {
        let el: Element | null = parent;
        while (el && !isBlock(el)) el = el.parentElement;
        block = el ?? body;
        blockOf.set(parent, block);
      }
      let acc = blocks.get(block);
      if (blank) {
        // White space between inline elements still separates words.
        if (acc) acc.parts.push(' ');
        continue;
      }
      if (!acc) {
        if (blocks.size >= options.maxBlocks) continue;
        acc = { el: block, parts: [], linkChars: 0, linkWords: 0, keptChars: 0 };
        blocks.set(block, acc);
      }
      const text = raw.replace(/\s+/g, ' ');
      // A <br> or an intervening block between this text and the previous part starts a new line.
      const prev = node.previousSibling;
      if (acc.parts.length && prev && prev.nodeType === 1 && (prev as Element).tagName === 'BR') acc.parts.push('\n');
      acc.parts.push(text);
      if (KEPT && parent.hasAttribute(KEPT)) acc.keptChars += text.trim().length;
      if (inLink) {
        acc.linkChars += text.trim().length;
        acc.linkWords += countWords(text);
      }
    }
  }

  const out: CollectedPage['blocks'] = [];
  let order = 0;
  for (const acc of blocks.values()) {
    const text = acc.parts.join('').split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n');
    if (!text) continue;
    const css: Record<string, string> = {};
    for (const p of CSS_PROPERTIES) {
      const v = layout.style(acc.el, p);
      if (v && v !== bodyCss[p]) css[p] = v;
    }
    const r = layout.rect(acc.el);
    const { path, selector } = located(acc.el);
    out.push({
      order: order++,
      text,
      bbox: { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) },
      css,
      path,
      selector,
      words: countWords(text),
      linkWords: acc.linkWords,
      chars: text.length,
      linkChars: acc.linkChars,
      ...(acc.keptChars ? { readabilityChars: Math.min(acc.keptChars, text.length) } : {}),
    });
  }

  // Page metadata. A <meta> is keyed as lib/html/metadata.ts keys it: its property, else its name, else
  // its itemprop, else its http-equiv, whatever the case (`<meta name="Description">`); the first with
  // content is kept.
  const metas = new Map<string, string>();
  for (const el of Array.from(doc.querySelectorAll('meta[content]'))) {
    const key = (el.getAttribute('property') ?? el.getAttribute('name') ?? el.getAttribute('itemprop') ?? el.getAttribute('http-equiv'))?.trim().toLowerCase();
    const v = clean(el.getAttribute('content'));
    if (key && v && !metas.has(key)) metas.set(key, v);
  }
  const meta = (...names: readonly string[]) => names.map((n) => metas.get(n)).find((v) => v !== undefined);
  const jsonLd: CollectedPage['page']['jsonLd'] = [];
  const asStrings = (v: unknown): string[] => {
    if (v == null) return [];
    if (typeof v === 'string') return [clean(v)].filter(Boolean);
    if (Array.isArray(v)) return v.flatMap(asStrings);
    if (typeof v === 'object' && 'name' in (v as object)) return asStrings((v as { name: unknown }).name);
    return [];
  };
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 5 || jsonLd.length >= 20) return;
    if (Array.isArray(node)) { for (const n of node) visit(n, depth + 1); return; }
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['@graph'])) visit(o['@graph'], depth + 1);
    const type = ([] as unknown[]).concat(o['@type'] ?? []).map(String);
    if (type.some((t) => JSONLD_TYPE.test(t)) && (o.headline || o.name || o.datePublished)) {
      const str = (v: unknown) => (typeof v === 'string' ? clean(v) || undefined : undefined);
      const entry: CollectedPage['page']['jsonLd'][number] = { type: type.join(',') };
      const headline = str(o.headline) ?? str(o.name);
      if (headline) entry.headline = headline;
      const description = str(o.description);
      if (description) entry.description = description;
      const author = asStrings(o.author);
      if (author.length) entry.author = author;
      const published = str(o.datePublished);
      if (published) entry.datePublished = published;
      const modified = str(o.dateModified);
      if (modified) entry.dateModified = modified;
      jsonLd.push(entry);
    }
  };
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // A broken JSON-LD block is the page's problem, not ours.
    }
  }
  const feeds = Array.from(doc.querySelectorAll('link[rel~="alternate"][href]'))
    .filter((l) => /(rss|atom)\+xml/i.test(l.getAttribute('type') ?? ''))
    .slice(0, 10)
    .map((l) => {
      const f: CollectedPage['page']['feeds'][number] = {
        href: (l as HTMLLinkElement).href || l.getAttribute('href') || '',
        type: l.getAttribute('type') ?? '',
      };
      const title = clean(l.getAttribute('title'));
      if (title) f.title = title;
      return f;
    });
  const page: CollectedPage['page'] = { title: clean(doc.title), jsonLd, feeds };
  const optional: Record<string, string | undefined> = {
    metaTitle: meta(...options.metaNames.title),
    ogTitle: meta('og:title'),
    twitterTitle: meta('twitter:title'),
    description: meta('description'),
    ogDescription: meta('og:description'),
    twitterDescription: meta('twitter:description'),
    author: meta(...options.metaNames.author),
    published: meta(...options.metaNames.published),
    siteName: meta('og:site_name'),
    canonical: (doc.querySelector('link[rel="canonical"]') as HTMLLinkElement | null)?.href || undefined,
    lang: clean(doc.documentElement?.getAttribute('lang')) || undefined,
  };
  for (const [k, v] of Object.entries(optional)) if (v) (page as Record<string, unknown>)[k] = v;

  return { page, bodyCss, blocks: out };
}
