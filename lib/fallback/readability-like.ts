/**
 * A light Readability (the project's first fallback, kept as one of the methods). Paragraphs (blocks
 * with their own text) are scored by length and commas, the score flows to their containers, the
 * container with the best score corrected by link density wins (or its nearest ancestor holding
 * several runners-up that score close to it: an article in sections), widened to the wrapper that
 * also holds its headline and byline (which takes no siblings), or else joined by its siblings that
 * score well or are good paragraphs themselves. Inside the result, boilerplate is left out: navigation,
 * forms, elements whose class/id reads like boilerplate, link-heavy containers (a box of linked
 * headlines: few commas and more than a fifth of its text in links, as Readability tests a `div`).
 *
 * `notArticle` flags pages that look like a listing or a home page: little paragraph text, mostly
 * links, or a stack of linked headlines with teasers.
 */
import { Element, Text, type AnyNode, type Document, type ParentNode } from 'domhandler';
import { BLOCK_TAGS, SKIP_TAGS, isHidden, renderContent, type ArticleContent } from '../html/content';
import { headAndBody } from '../html/parse';
import { visibleLength } from '../text/words';

export interface ReadabilityLikeOptions {
  readonly baseUrl?: string;
}

export interface ReadabilityLikeResult extends ArticleContent {
  /** The page looks like a listing or home page rather than an article. */
  readonly notArticle: boolean;
  /** Elements output (the top candidate and the siblings that joined it). */
  readonly nodes: number;
  /** Diagnostics: why notArticle was set, or '' when it wasn't. */
  readonly reason: string;
  /** The elements output: the top candidate and the siblings that joined it. */
  readonly roots: readonly Element[];
  /** Elements under the roots left out of the output (with everything under them). */
  readonly skip: (el: Element) => boolean;
}

interface Stats {
  /** Text characters under the element (white space collapsed), boilerplate subtrees excluded. */
  chars: number;
  linkChars: number;
  /** Text characters of the element itself: not under a nested block. */
  own: number;
  ownLink: number;
  commas: number;
  /** Commas of the text under the element, outside links (commas counts the element's own). */
  allCommas: number;
  /** Text characters under the element that sit inside a list (ul, ol). */
  listChars: number;
  score: number;
  scored: boolean;
  paragraphs: number;

  images: number;
}

const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|sharing|share-|cookie-|outbrain|taboola/i;
const MAYBE = /and|article|body|column|content|main|shadow|post|entry|story|text/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot|footer|footnote|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|taboola/i;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog', 'banner', 'contentinfo', 'search']);
const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'footer', 'dialog', 'menu']);
/** Left out of the output whatever the flags (unless the output root itself). */
const OUTPUT_DROP = new Set(['form', 'fieldset', 'nav', 'dialog']);
/** Blocks whose own text counts as a paragraph (list items and headings excluded, as in Readability). */
const PARAGRAPH_EXCLUDED = new Set(['li', 'ul', 'ol', 'dl', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'th', 'caption', 'figcaption', 'summary', 'legend', 'html', 'body', 'header', 'footer', 'nav', 'aside']);
/** Where a paragraph's score goes first: p-like blocks give it to their parent, containers keep it. */
const P_LIKE = new Set(['p', 'pre', 'blockquote', 'dd', 'address']);
const LIST_TAGS = new Set(['ul', 'ol']);
/** Boxes linkyContainer tests: Readability's `div`, and `section`, which pages use as one (a home page's teaser lists). */
const LINKY_TAGS = new Set(['div', 'section']);
const CONDITIONAL = new Set(['div', 'section', 'ul', 'ol', 'table', 'dl', 'header', 'center', 'figure', 'article']);

function classAndId(el: Element): string {
  const a = el.attribs;
  const c = a.class ?? '';
  const id = a.id ?? '';
  return c && id ? `${c} ${id}` : c || id;
}

function isUnlikely(el: Element): boolean {
  const name = el.name;
  if (name === 'body' || name === 'html' || name === 'article' || name === 'main' || name === 'a') return false;
  if (BOILERPLATE_TAGS.has(name)) return true;
  const role = el.attribs.role;
  if (role && UNLIKELY_ROLES.has(role.trim().toLowerCase())) return true;
  const ci = classAndId(el);
  return ci !== '' && UNLIKELY.test(ci) && !MAYBE.test(ci);
}

function classWeight(el: Element): number {
  const ci = classAndId(el);
  if (!ci) return 0;
  let w = 0;
  if (NEGATIVE.test(ci)) w -= 25;
  if (POSITIVE.test(ci)) w += 25;
  return w;
}

function tagWeight(name: string): number {
  switch (name) {
    case 'div':
    case 'article':
    case 'main':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
    case 'section':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

interface Analysis {
  stats: Map<Element, Stats>;
  /** Paragraph blocks in document order. */
  paragraphs: Element[];
  /** Everything under body (boilerplate included), for the listing test. */
  totalChars: number;
  totalLinkChars: number;
}

/** One walk: per-element text statistics, with boilerplate subtrees left out of them. */
function analyse(root: ParentNode, stripUnlikely: boolean): Analysis {
  const stats = new Map<Element, Stats>();
  const paragraphs: Element[] = [];
  let totalChars = 0;
  let totalLinkChars = 0;

  const newStats = (): Stats => ({ chars: 0, linkChars: 0, own: 0, ownLink: 0, commas: 0, allCommas: 0, listChars: 0, score: 0, scored: false, paragraphs: 0, images: 0 });

  interface Frame { el: ParentNode; st: Stats; block: Stats; inLink: boolean; junk: boolean }
  const EXIT = Symbol('exit');
  type Item = AnyNode | { [EXIT]: Frame };
  const rootFrame: Frame = { el: root, st: newStats(), block: undefined as unknown as Stats, inLink: false, junk: false };
  rootFrame.block = rootFrame.st;
  if (root instanceof Element) stats.set(root, rootFrame.st);
  const frames: Frame[] = [rootFrame];
  const stack: Item[] = [{ [EXIT]: rootFrame }];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);

  while (stack.length) {
    const item = stack.pop()!;
    const top = frames[frames.length - 1];
    if (item instanceof Text) {
      const len = visibleLength(item.data);
      if (len === 0) continue;
      totalChars += len;
      if (top.inLink) totalLinkChars += len;
      if (top.junk) continue;
      top.st.chars += len;
      top.block.own += len;
      if (top.inLink) {
        top.st.linkChars += len;
        top.block.ownLink += len;
      } else {
        let commas = 0;
        for (let i = item.data.indexOf(','); i >= 0; i = item.data.indexOf(',', i + 1)) commas++;
        top.block.commas += commas;
        top.st.allCommas += commas;
      }
      continue;
    }
    if (item instanceof Element) {
      const name = item.name;
      if (SKIP_TAGS.has(name) || isHidden(item)) continue;
      const junk = top.junk || (stripUnlikely && isUnlikely(item));
      const st = newStats();
      if (name === 'img') top.st.images++;
      const block = BLOCK_TAGS.has(name) ? st : top.block;
      const frame: Frame = { el: item, st, block, inLink: top.inLink || name === 'a', junk };
      if (!junk) stats.set(item, st);
      frames.push(frame);
      stack.push({ [EXIT]: frame });
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]);
      continue;
    }
    if (typeof item === 'object' && item !== null && EXIT in item) {
      const frame = frames.pop()!;
      const { el, st } = frame;
      if (!(el instanceof Element)) continue; // the root of a page without <body>/<html>
      if (!frame.junk && st === frame.block && el !== root && !PARAGRAPH_EXCLUDED.has(el.name) && st.own >= 25) {
        paragraphs.push(el);
        st.paragraphs++;
      }
      const parent = frames[frames.length - 1];
      if (parent && !frame.junk) {
        parent.st.chars += st.chars;
        parent.st.linkChars += st.linkChars;
        parent.st.paragraphs += st.paragraphs;
        parent.st.images += st.images;
        parent.st.allCommas += st.allCommas;
        parent.st.listChars += LIST_TAGS.has(el.name) ? st.chars : st.listChars;
      }
    }
  }
  return { stats, paragraphs, totalChars, totalLinkChars };
}

const linkDensity = (s: Stats) => (s.chars === 0 ? 0 : s.linkChars / s.chars);

interface Flags {
  /** Leave out elements whose class/id/role/tag reads like boilerplate before scoring. */
  readonly stripUnlikely: boolean;
  /** Let class/id names raise or lower a container's score. */
  readonly weightClasses: boolean;
  /** Drop link-heavy containers from the output. */
  readonly cleanConditionally: boolean;
}

/** Like Readability: relax the heuristics one by one while the result is shorter than this. */
const MIN_CHARS = 500;
const ATTEMPTS: readonly Flags[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];

interface Attempt extends ArticleContent {
  readonly roots: Element[];
  readonly skip: (el: Element) => boolean;
  readonly analysis: Analysis;
}

function attempt(root: ParentNode, body: Element | undefined, flags: Flags, options: ReadabilityLikeOptions): Attempt | undefined {
  const analysis = analyse(root, flags.stripUnlikely);
  const { stats, paragraphs } = analysis;

  // Score paragraphs and hand the score up to five levels of containers.
  const candidates: Element[] = [];
  const initialise = (el: Element) => {
    const st = stats.get(el);
    if (!st) return undefined;
    if (!st.scored) {
      st.scored = true;
      st.score = tagWeight(el.name) + (flags.weightClasses ? classWeight(el) : 0);
      candidates.push(el);
    }
    return st;
  };
  for (const p of paragraphs) {
    const ps = stats.get(p)!;
    const ownLinkDensity = ps.own === 0 ? 0 : ps.ownLink / ps.own;
    if (ownLinkDensity > 0.5) continue;
    const score = (1 + ps.commas + Math.min(3, Math.floor(ps.own / 100))) * (1 - ownLinkDensity);
    let level = 0;
    let el: Element | null = P_LIKE.has(p.name) ? (p.parent instanceof Element ? p.parent : null) : p;
    for (; el && level < 5; el = el.parent instanceof Element ? el.parent : null, level++) {
      const st = initialise(el);
      if (!st) break;
      st.score += level === 0 ? score : level === 1 ? score / 2 : score / (level * 3);
      if (el === body) break;
    }
  }

  let top: Element | undefined;
  let topScore = -Infinity;
  for (const c of candidates) {
    const st = stats.get(c)!;
    st.score *= 1 - linkDensity(st);
    if (st.score > topScore) {
      topScore = st.score;
      top = c;
    }
  }
  if (!top) return undefined;
  const lifted = sharedAncestor(top, topScore, candidates, stats, body);
  // The best candidate, the runners-up that lifted it, and their ancestors hold the article's core:
  // the test for boxes of links (linkyContainer) never drops them.
  const core = new Set<Element>();
  for (const c of [top, ...lifted.runnersUp]) for (let e: Element | null = c; e && !core.has(e); e = e.parent instanceof Element ? e.parent : null) core.add(e);
  top = lifted.top;

  // While the top candidate holds nearly all of its parent's text, take the parent: it adds the
  // headline and byline that sit next to the body. `widened`: some parent added text of its own (a
  // bare wrapper around the top, adding none, is no wider).
  let widened = false;
  while (top !== body && top.parent instanceof Element && top.parent !== body && stats.has(top.parent)) {
    const parent: Element = top.parent;
    const ps = stats.get(parent)!;
    const ts = stats.get(top)!;
    if (ps.chars > ts.chars * 1.25 + 200 || linkDensity(ps) > linkDensity(ts) + 0.1) break;
    if (ps.chars > ts.chars) widened = true;
    top = parent;
  }

  // Siblings that belong with it. This climb goes further than Readability's (to a parent only while
  // it scores higher or is an only child): up to the wrapper that holds the headline and byline as
  // well. That wrapper holds the article, and its own siblings are the page's other boxes (readers'
  // comments, related links, the next story), so none joins it.
  const roots: Element[] = [];
  const topStats = stats.get(top)!;
  const threshold = Math.max(10, topStats.score * 0.2);
  const siblings = widened ? [top] : top.parent ? top.parent.children : [top];
  const topClass = classAndId(top);
  for (const s of siblings) {
    if (!(s instanceof Element)) continue;
    if (s === top) {
      roots.push(s);
      continue;
    }
    const st = stats.get(s);
    if (!st || st.chars === 0) continue;
    let append = false;
    const ld = linkDensity(st);
    const bonus = topClass && classAndId(s) === topClass ? topStats.score * 0.2 : 0;
    if (st.scored && st.score + bonus >= threshold) append = true;
    else if (s.name === 'p' || (st.paragraphs === 1 && !CONDITIONAL.has(s.name))) {
      if (st.chars > 80 && ld < 0.25) append = true;
      else if (st.chars <= 80 && ld === 0 && /\.( |$)/.test(flatText(s))) append = true;
    }
    if (append) roots.push(s);
  }

  const rootSet = new Set(roots);
  const skip = (el: Element): boolean => {
    if (rootSet.has(el)) return false;
    if (OUTPUT_DROP.has(el.name)) return true;
    const st = stats.get(el);
    if (!st) return true; // a boilerplate subtree analyse left out
    if (!flags.cleanConditionally || !CONDITIONAL.has(el.name)) return false;
    if (st.chars === 0) return st.images === 0;
    const ld = linkDensity(st);
    const weight = flags.weightClasses ? classWeight(el) : 0;
    if (!core.has(el) && linkyContainer(el, st, weight)) return true;
    if (ld > 0.5) return true;
    if (ld > 0.25 && st.chars < 300 && st.paragraphs <= 1) return true;
    if (weight < 0 && ld > 0.1 && st.paragraphs <= 2) return true;
    return false;
  };
  return { ...renderContent(roots, { skip, baseUrl: options.baseUrl }), roots, analysis, skip };
}

/** Readability's `_cleanConditionally`: a container with this many commas is prose, not a box of links. */
const PROSE_COMMAS = 10;
/** A container whose text is more than this share link text is a list of links (Readability: 0.2). */
const LINKY_SHARE = 0.2;
/** Text share inside lists (LIST_TAGS) from which a container is a list. */
const LIST_SHARE = 0.9;
/** Class weight from which a container is named as content (POSITIVE), and keeps more links. */
const CONTENT_WEIGHT = 25;

/**
 * A box (LINKY_TAGS) of few commas (outside links) whose text is more than a fifth link text, not a
 * list and not named as content, is a box of linked headlines (with or without teasers), not prose:
 * Readability's "low weight and a little linky", which it tests on `div`s. A story's `header` (the
 * headline and linked author names), a table of linked names or a `figure` is no such box. A box of
 * inline text only (a `div` used as a paragraph, which Readability turns into a `p` first) is no
 * container: a short post ending on a "read more" link stays.
 */
function linkyContainer(el: Element, st: Stats, weight: number): boolean {
  if (!LINKY_TAGS.has(el.name) || st.allCommas >= PROSE_COMMAS || st.own >= st.chars) return false;
  return st.listChars <= LIST_SHARE * st.chars && weight < CONTENT_WEIGHT && linkDensity(st) > LINKY_SHARE;
}

/** Readability's alternative top candidates: the best few, those scoring this share of the top one… */
const TOP_CANDIDATES = 5;
const CLOSE_SCORE = 0.75;
/** …and how many of them an ancestor of the top candidate must hold to replace it. */
const SHARED_BY = 3;

/**
 * The article split into sections of their own (the steps of a how-to, the parts of a long story)
 * shows as several candidates scoring close to the best one: the nearest ancestor of the best that
 * holds at least three of them is the article (Readability's alternative candidate ancestors).
 */
function sharedAncestor(
  top: Element,
  topScore: number,
  candidates: readonly Element[],
  stats: Map<Element, Stats>,
  body: Element | undefined,
): { top: Element; runnersUp: readonly Element[] } {
  const unchanged = { top, runnersUp: [] };
  if (top === body || topScore <= 0) return unchanged;
  const close = candidates
    .filter((c) => c !== top)
    .sort((x, y) => stats.get(y)!.score - stats.get(x)!.score)
    .slice(0, TOP_CANDIDATES - 1)
    .filter((c) => stats.get(c)!.score >= CLOSE_SCORE * topScore);
  if (close.length < SHARED_BY) return unchanged;
  const ancestors = close.map((c) => {
    const out = new Set<Element>();
    for (let e = c.parent; e instanceof Element; e = e.parent) out.add(e);
    return out;
  });
  for (let e = top.parent; e instanceof Element && e !== body; e = e.parent) {
    if (ancestors.filter((a) => a.has(e as Element)).length >= SHARED_BY) return stats.has(e) ? { top: e, runnersUp: close } : unchanged;
  }
  return unchanged;
}

export interface Region {
  readonly roots: readonly Element[];
  readonly skip: (el: Element) => boolean;
  /** Characters of the region's text. */
  readonly chars: number;
}

/**
 * The attempts, strictest first, as Readability makes them: until one yields `MIN_CHARS` of text
 * (or, with `all`, every one). The result Readability keeps is the longest of them.
 */
export function readabilityAttempts(doc: Document, options: ReadabilityLikeOptions & { all?: boolean } = {}): Region[] {
  const out: Region[] = [];
  for (const a of runAttempts(doc, options, options.all === true)) out.push({ roots: a.roots, skip: a.skip, chars: a.text.length });
  return out;
}

function runAttempts(doc: Document, options: ReadabilityLikeOptions, all: boolean): Attempt[] {
  const { body, html } = headAndBody(doc);
  const root: ParentNode = body ?? html ?? doc;
  const out: Attempt[] = [];
  let longest = 0;
  for (const flags of ATTEMPTS) {
    const a = attempt(root, body, flags, options);
    if (a) {
      out.push(a);
      longest = Math.max(longest, a.text.length);
    }
    if (!all && longest >= MIN_CHARS) break;
  }
  return out;
}

export function extractReadabilityLike(doc: Document, options: ReadabilityLikeOptions = {}): ReadabilityLikeResult {
  let best: Attempt | undefined;
  for (const a of runAttempts(doc, options, false)) if (!best || a.text.length > best.text.length) best = a;
  if (!best) return { text: '', html: '', wordCount: 0, notArticle: true, nodes: 0, reason: 'no paragraph text', roots: [], skip: () => true };

  // Listing test: little text and mostly links, or a stack of linked headlines with short teasers.
  const { totalChars, totalLinkChars } = best.analysis;
  const totalLinkDensity = totalChars === 0 ? 1 : totalLinkChars / totalChars;
  // Headlines that are links, and lines of prose, as output (boilerplate already left out).
  const linkedHeadings = best.html.match(/<h[1-4]>\s*<a href=/g)?.length ?? 0;
  const longLines = best.text.split('\n').filter((l) => l.length >= 200).length;
  let reason = '';
  if (best.wordCount < 80 && totalLinkDensity > 0.3) reason = 'little text, mostly links';
  else if (linkedHeadings >= 4 && longLines < 3 && best.wordCount / linkedHeadings < 120) reason = 'linked headlines with teasers';
  else if (best.wordCount < 25) reason = 'almost no text';
  return { text: best.text, html: best.html, wordCount: best.wordCount, notArticle: reason !== '', nodes: best.roots.length, reason, roots: best.roots, skip: best.skip };
}

function flatText(el: Element): string {
  let out = '';
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof Text) out += n.data;
    else if (n instanceof Element) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out.replace(/\s+/g, ' ').trim();
}
