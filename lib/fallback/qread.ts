/**
 * qRead (Wang & Wang, KDIR 2015): segment densities and title similarity, no DOM scoring.
 *
 * 1. Junk out: script, style, comments, head, and navigation containers (<nav>, elements whose
 *    class or id names `nav` or `menu`).
 * 2. Tags out, the source's lines kept: a line that held only tags becomes an empty line; </p>,
 *    <br> and other block boundaries end a line (the paper's paragraph break marks) without adding
 *    an empty one.
 * 3. Segments: runs of lines separated by at least λ = 3 empty lines.
 * 4. Word density of a segment: words / non-empty lines. The densest segment is the article.
 * 5. Every other segment whose cosine similarity to the title beats the whole text's, and whose
 *    density is at least the segments' mean, is added.
 */
import { Element, Text, type AnyNode, type Document } from 'domhandler';
import { BLOCK_TAGS, SKIP_TAGS, isHidden } from '../html/content';
import { contentRoot } from './blocks';
import { elementTokens, lowerWords, words } from './tokens';

export interface QReadSegment {
  /** Non-empty lines of the segment, white space collapsed. */
  readonly lines: string[];
  readonly words: number;
  /** Words per non-empty line. */
  readonly density: number;
}

/** Split lines into segments separated by at least `lambda` empty lines (lines of white space only). */
export function segmentLines(lines: readonly string[], lambda = 3): QReadSegment[] {
  const out: QReadSegment[] = [];
  let current: string[] = [];
  let empties = 0;
  const close = () => {
    if (current.length === 0) return;
    const w = current.reduce((a, l) => a + words(l).length, 0);
    out.push({ lines: current, words: w, density: w / current.length });
    current = [];
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line) {
      empties++;
      continue;
    }
    if (empties >= lambda) close();
    empties = 0;
    current.push(line);
  }
  close();
  return out;
}

const JUNK_NAMES = new Set(['nav', 'menu', 'navigation', 'navbar', 'menubar']);

/** The page's text without tags, its source lines kept (step 1 and 2). */
export function qreadLines(doc: Document): string[] {
  const lines: string[] = [];
  let current = '';
  let sourceLineHadText = false;
  const hard = () => {
    if (/\S/.test(current)) lines.push(current);
    else if (!sourceLineHadText) lines.push('');
    current = '';
    sourceLineHadText = false;
  };
  const soft = () => {
    if (/\S/.test(current)) {
      lines.push(current);
      sourceLineHadText = true;
    }
    current = '';
  };

  const { root } = contentRoot(doc);
  const EXIT = 0;
  const stack: Array<AnyNode | typeof EXIT> = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length) {
    const item = stack.pop()!;
    if (item === EXIT) {
      soft();
      continue;
    }
    if (item instanceof Text) {
      const data = item.data;
      if (data.indexOf('\n') < 0) {
        current += data;
        continue;
      }
      const parts = data.split('\n');
      current += parts[0];
      for (let i = 1; i < parts.length; i++) {
        hard();
        current += parts[i];
      }
      continue;
    }
    if (!(item instanceof Element)) continue; // comments are junk
    const name = item.name;
    if (SKIP_TAGS.has(name) || isHidden(item) || name === 'nav' || name === 'menu') continue;
    if (elementTokens(item).some((t) => JUNK_NAMES.has(t))) continue;
    if (name === 'br' || name === 'hr') {
      soft();
      continue;
    }
    if (BLOCK_TAGS.has(name)) {
      soft();
      stack.push(EXIT);
    }
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]);
  }
  hard();
  return lines;
}

/** Cosine similarity of two texts' lowercased word counts. */
export function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [, v] of a) na += v * v;
  for (const [, v] of b) nb += v * v;
  if (na === 0 || nb === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, v] of small) {
    const w = large.get(k);
    if (w) dot += v * w;
  }
  return dot / Math.sqrt(na * nb);
}

export function termCounts(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of lowerWords(text)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export interface QReadResult {
  readonly text: string;
  readonly segments: QReadSegment[];
  /** Indices of the chosen segments, ascending. */
  readonly chosen: number[];
}

export interface QReadOptions {
  readonly lambda?: number;
  /** The article's title (lib/fallback/title.ts); without one only the densest segment is taken. */
  readonly title?: string;
}

/** Choose segments: the densest, plus those more similar to the title than the page and dense enough. */
export function chooseSegments(segments: readonly QReadSegment[], title: string | undefined): number[] {
  if (segments.length === 0) return [];
  let best = 0;
  for (let i = 1; i < segments.length; i++) if (segments[i].density > segments[best].density) best = i;
  const chosen = new Set([best]);
  const t = title ? termCounts(title) : undefined;
  if (t && t.size) {
    const all = termCounts(segments.map((s) => s.lines.join('\n')).join('\n'));
    const average = cosine(all, t);
    const meanDensity = segments.reduce((a, s) => a + s.density, 0) / segments.length;
    segments.forEach((s, i) => {
      if (s.density >= meanDensity && cosine(termCounts(s.lines.join('\n')), t) > average) chosen.add(i);
    });
  }
  return [...chosen].sort((a, b) => a - b);
}

export function extractQRead(doc: Document, options: QReadOptions = {}): QReadResult {
  const segments = segmentLines(qreadLines(doc), options.lambda ?? 3);
  const chosen = chooseSegments(segments, options.title);
  return { text: chosen.map((i) => segments[i].lines.join('\n')).join('\n'), segments, chosen };
}
