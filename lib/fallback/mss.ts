/**
 * Maximum subsequence segmentation (Pasternack & Roth, WWW 2009). The page becomes one sequence of
 * tokens (tags, words and symbols; script and style left out), each token gets a score from a local
 * classifier, and the article is the contiguous run of tokens with the largest sum.
 *
 * - Tokens: an opening and a closing token per element (`<p>`, `</p>`; tags outside the common
 *   HTML list become `<unknown>`), words, numbers as `1`, every other non-space character a symbol
 *   token. Words are Porter stems in the paper; the default here is their shapes (see
 *   `WordFeatures`).
 * - Local classifier: Naive Bayes over two features per token, the trigram of it and the next two
 *   tokens, and the most recent unclosed tag (the DOM parent); score = P(in) − 0.5.
 * - The simple baseline: −3.25 per tag, +1 per word or symbol.
 * - The `<hr>` constraint: articles rarely hold an <hr>, so the span stops at the first <hr> inside it.
 */
import { Element, Text, type AnyNode, type Document } from 'domhandler';
import { stemmer } from 'stemmer';
import { BLOCK_TAGS, SKIP_TAGS, isHidden } from '../html/content';
import { STOP_WORDS } from '../text/terms';
import { contentRoot } from './blocks';
import { compileNaiveBayes, naiveBayesLogOdds, type NaiveBayesModel, type NaiveBayesScorer } from './naive-bayes';

export interface Span {
  /** First index in the span, -1 when empty. */
  readonly start: number;
  /** Last index in the span (inclusive), -1 when empty. */
  readonly end: number;
  readonly value: number;
}

export const EMPTY_SPAN: Span = { start: -1, end: -1, value: 0 };

/**
 * The maximum-sum contiguous subsequence, in one pass (the paper's Figure 1, Kadane's algorithm).
 * The first of equal maxima wins; an empty or all-negative sequence gives its largest single element.
 */
export function maxSubsequence(scores: ArrayLike<number>, from = 0, to = scores.length - 1): Span {
  let best = -Infinity;
  let bestStart = -1;
  let bestEnd = -1;
  let start = from;
  let sum = 0;
  for (let i = from; i <= to; i++) {
    sum += scores[i];
    if (sum > best) {
      best = sum;
      bestStart = start;
      bestEnd = i;
    }
    if (sum < 0) {
      start = i + 1;
      sum = 0;
    }
  }
  return bestStart < 0 ? EMPTY_SPAN : { start: bestStart, end: bestEnd, value: best };
}

/**
 * The paper's <hr> constraint: a span that holds an <hr> ends just before the first one.
 * `hr` are the sorted indices of the <hr> tokens (or blocks preceded by an <hr>).
 */
export function cutAtFirstHr(span: Span, hr: readonly number[], scores?: ArrayLike<number>): Span {
  if (span.start < 0) return span;
  for (const h of hr) {
    if (h <= span.start) continue;
    if (h > span.end) break;
    let value = 0;
    if (scores) for (let i = span.start; i < h; i++) value += scores[i];
    return { start: span.start, end: h - 1, value };
  }
  return span;
}

const COMMON_TAGS = new Set([
  'a', 'abbr', 'address', 'article', 'aside', 'audio', 'b', 'blockquote', 'body', 'br', 'caption', 'center', 'cite', 'code',
  'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'font', 'footer', 'form', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'html', 'i', 'img', 'ins', 'kbd', 'label', 'legend', 'li', 'main', 'mark', 'menu', 'nav',
  'ol', 'p', 'picture', 'pre', 'q', 's', 'section', 'small', 'source', 'span', 'strike', 'strong', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'video', 'fieldset', 'dialog', 'hgroup',
]);
const VOID = new Set(['br', 'hr', 'img', 'source', 'wbr', 'area', 'col', 'embed', 'param', 'track']);

/** The page as MSS tokens, in parallel arrays. */
export interface MssTokens {
  /** The token as the classifier sees it: `<p>`, `</p>`, a stem, `1`, a symbol. */
  readonly feature: string[];
  /** The token as written ('' for tags). */
  readonly surface: string[];
  readonly isTag: Uint8Array;
  /** Most recent unclosed tag (the DOM parent's name) when the token appears. */
  readonly parent: string[];
  /** Line (block) number: increases at block-level boundaries, for output. */
  readonly line: Int32Array;
  /** Indices of <hr> tokens, ascending. */
  readonly hr: number[];
  readonly length: number;
  /** The text node each word token comes from (undefined for tags), when asked for. */
  readonly node?: Array<Text | undefined>;
}

/**
 * How the classifier sees a word. `stems` is the paper's (Porter stem, numbers as `1`); `shapes`
 * keeps stop words (numbers as `1`) but turns every other word into its shape (`w` lowercase, `W`
 * capitalised, `A` all capitals): the default model is trained on generated prose, whose
 * vocabulary is not the web's, while the rhythm of function words, capitals, punctuation and tags
 * carries over.
 */
export type WordFeatures = 'stems' | 'shapes';

const featureCache = { stems: new Map<string, string>(), shapes: new Map<string, string>() };
function wordFeature(word: string, mode: WordFeatures): string {
  const cache = featureCache[mode];
  let s = cache.get(word);
  if (s === undefined) {
    const lower = word.toLowerCase();
    if (/^\d[\d_]*$/.test(lower)) s = '1';
    else if (mode === 'stems') s = /^[a-z]+$/.test(lower) ? stemmer(lower) : lower;
    else if (STOP_WORDS.has(lower)) s = lower;
    else if (word === lower) s = word.length === 1 && !/\p{L}/u.test(word) ? word : 'w';
    else if (word === word.toUpperCase() && word.length > 1) s = 'A';
    else s = 'W';
    if (cache.size > 100_000) cache.clear();
    cache.set(word, s);
  }
  return s;
}

const PIECE = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
const ASCII_PIECE = /[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** Tokenise a page (its body) for MSS. */
export function mssTokens(doc: Document, options: { nodes?: boolean; words?: WordFeatures } = {}): MssTokens {
  const mode = options.words ?? 'shapes';
  const node: Array<Text | undefined> | undefined = options.nodes ? [] : undefined;
  let currentNode: Text | undefined;
  const feature: string[] = [];
  const surface: string[] = [];
  const isTag: number[] = [];
  const parent: string[] = [];
  const line: number[] = [];
  const hr: number[] = [];
  let lineNo = 0;
  let lineHasWords = false;
  const newLine = () => {
    if (lineHasWords) {
      lineNo++;
      lineHasWords = false;
    }
  };
  const push = (f: string, s: string, tag: boolean, p: string) => {
    feature.push(f);
    surface.push(s);
    isTag.push(tag ? 1 : 0);
    parent.push(p);
    line.push(lineNo);
    if (node) node.push(tag ? undefined : currentNode);
    if (!tag) lineHasWords = true;
  };

  const { root } = contentRoot(doc);
  const rootName = root instanceof Element ? root.name : 'html';
  type Exit = { exit: string; parentName: string; block: boolean };
  const stack: Array<AnyNode | Exit> = [];
  const parents: string[] = [rootName];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const item = stack.pop()!;
    if (item instanceof Text) {
      const data = item.data;
      const re = NON_ASCII.test(data) ? PIECE : ASCII_PIECE;
      re.lastIndex = 0;
      const p = parents[parents.length - 1];
      currentNode = item;
      for (let m = re.exec(data); m; m = re.exec(data)) push(wordFeature(m[0], mode), m[0], false, p);
      continue;
    }
    if (item instanceof Element) {
      const name = item.name;
      if (SKIP_TAGS.has(name) || isHidden(item)) continue;
      const tag = COMMON_TAGS.has(name) ? name : 'unknown';
      const block = BLOCK_TAGS.has(name) || name === 'br';
      if (block) newLine();
      if (name === 'hr') hr.push(feature.length);
      push(`<${tag}>`, '', true, parents[parents.length - 1]);
      if (VOID.has(name)) continue;
      stack.push({ exit: `</${tag}>`, parentName: parents[parents.length - 1], block });
      parents.push(tag);
      for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]);
      continue;
    }
    if ('exit' in item) {
      parents.pop();
      if (item.block) newLine();
      push(item.exit, '', true, item.parentName);
    }
  }
  return { feature, surface, isTag: Uint8Array.from(isTag), parent, line: Int32Array.from(line), hr, length: feature.length, ...(node ? { node } : {}) };
}

/** The NB features of token i: its trigram and its most recent unclosed tag. */
export function tokenFeatures(tokens: MssTokens, i: number): { tri: string; tag: string } {
  const f = tokens.feature;
  const tri = `${f[i]} ${i + 1 < f.length ? f[i + 1] : '</>'} ${i + 2 < f.length ? f[i + 2] : '</>'}`;
  return { tri, tag: tokens.parent[i] };
}

/** The simple baseline's scores: `tagScore` per tag, `wordScore` per word or symbol. */
export function baselineScores(tokens: MssTokens, tagScore = -3.25, wordScore = 1): Float64Array {
  const s = new Float64Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) s[i] = tokens.isTag[i] ? tagScore : wordScore;
  return s;
}

/** Naive Bayes scores: P(in) − 0.5 per token. */
export function naiveBayesScores(tokens: MssTokens, scorer: NaiveBayesScorer): Float64Array {
  const s = new Float64Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const z = naiveBayesLogOdds(scorer, tokenFeatures(tokens, i));
    s[i] = (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z))) - 0.5;
  }
  return s;
}

/** The text of tokens start..end: words and symbols, one line per block. */
export function spanText(tokens: MssTokens, span: Span): string {
  if (span.start < 0) return '';
  const lines: string[] = [];
  let current: string[] = [];
  let line = -1;
  for (let i = span.start; i <= span.end; i++) {
    if (tokens.isTag[i]) continue;
    if (tokens.line[i] !== line) {
      if (current.length) lines.push(current.join(' '));
      current = [];
      line = tokens.line[i];
    }
    current.push(tokens.surface[i]);
  }
  if (current.length) lines.push(current.join(' '));
  return lines.join('\n');
}

export interface MssOptions {
  /** Apply the <hr> constraint. Default true. */
  readonly hr?: boolean;
}

export interface MssResult {
  readonly text: string;
  readonly span: Span;
  readonly tokens: MssTokens;
}

/** The simple baseline: tags −3.25, words +1, maximum subsequence, <hr> constraint. */
export function extractMssBaseline(doc: Document, options: MssOptions & { tagScore?: number } = {}): MssResult {
  const tokens = mssTokens(doc);
  const scores = baselineScores(tokens, options.tagScore ?? -3.25);
  let span = maxSubsequence(scores);
  if (options.hr !== false) span = cutAtFirstHr(span, tokens.hr, scores);
  return { text: spanText(tokens, span), span, tokens };
}

const compiled = new WeakMap<NaiveBayesModel, NaiveBayesScorer>();

/** MSS with the Naive Bayes local classifier. */
export function extractMss(doc: Document, model: NaiveBayesModel | NaiveBayesScorer, options: MssOptions = {}): MssResult {
  let scorer: NaiveBayesScorer;
  if ('ratios' in model) scorer = model;
  else {
    let c = compiled.get(model);
    if (!c) compiled.set(model, (c = compileNaiveBayes(model)));
    scorer = c;
  }
  const tokens = mssTokens(doc);
  const scores = naiveBayesScores(tokens, scorer);
  let span = maxSubsequence(scores);
  if (options.hr !== false) span = cutAtFirstHr(span, tokens.hr, scores);
  return { text: spanText(tokens, span), span, tokens };
}
