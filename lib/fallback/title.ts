/**
 * The article's title, and the heading on the page that shows it. The title itself comes from
 * lib/html/metadata.ts (JSON-LD headline, og:title, <title>, cut of its " | Site" part where an
 * <h1> agrees); here we only find which heading block carries it, so the extractor can start the
 * article there, and give qRead and the combination the title's words.
 */
import type { Document } from 'domhandler';
import { extractMetadata } from '../html/metadata';
import { titleParts } from '../text/titles';
import { lowerWords } from './tokens';

/** The page's title as the metadata extractor reads it ('' when none). */
export function pageTitle(doc: Document): string {
  return extractMetadata(doc).title ?? '';
}

/**
 * How well a heading's text matches the title, 0..1: the share of the longer one's words the
 * shorter one covers, 0 when the shorter holds less than 60% of the longer's words.
 */
export function titleMatch(title: string, text: string): number {
  return wordsMatch(lowerWords(title), lowerWords(text));
}

/** titleMatch on the two texts' lowercased words. */
function wordsMatch(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length / long.length < 0.6) return 0;
  const counts = new Map<string, number>();
  for (const w of long) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of short) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      hit++;
      counts.set(w, c - 1);
    }
  }
  return hit / long.length;
}

export interface HeadingCandidate {
  readonly text: string;
  /** 1-6, or 0 for a non-heading block. */
  readonly heading: number;
}

export interface TitleMatches {
  /**
   * Indices of the candidates that show it, in document order (the caller picks by position): their
   * best match over the title's variants is at least 0.75.
   */
  readonly shown: number[];
  /**
   * The candidate that shows the title, -1 when none: the best match, headings before other
   * blocks, higher headings first, earlier first.
   */
  readonly best: number;
}

/** The candidates that show the title or one of its parts (the site's name is often one: "Blog Name: Post Title"). */
export function matchTitle(title: string, candidates: readonly HeadingCandidate[], maxWords = 40): TitleMatches {
  const shown: number[] = [];
  if (!title) return { shown, best: -1 };
  const variants = titleParts(title).map(lowerWords);
  let best = -1;
  let bestKey = -Infinity;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (c.text.length > title.length * 2 + 40) continue;
    const words = lowerWords(c.text);
    if (words.length > maxWords) continue;
    let m = 0;
    for (let v = 0; v < variants.length; v++) m = Math.max(m, wordsMatch(variants[v], words) - (v > 0 ? 0.05 : 0));
    if (m < 0.75) continue;
    shown.push(i);
    // Exact-ish matches first, then headings (h1 best), then document order.
    const key = m * 100 + (c.heading > 0 ? 20 - c.heading : 0) - i * 1e-6;
    if (key > bestKey) {
      bestKey = key;
      best = i;
    }
  }
  return { shown, best };
}
