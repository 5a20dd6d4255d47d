/**
 * Labelled pages for training: a page's DOM plus the article text some trusted extractor found on
 * it (a generated site's truth, or a learned site's rules), one paragraph per line. Blocks and MSS
 * tokens are labelled by matching their text to those lines.
 */
import type { Document } from 'domhandler';
import type { Block } from './blocks';
import type { MssTokens } from './mss';
import { titleMatch } from './title';
import { lowerWords } from './tokens';

export interface LabelledPage {
  readonly doc: Document;
  /** The article's text (dek and body), one paragraph per line ('' for a page that holds no article). */
  readonly article: string;
  /** The article's title, when known: its block is left out of training (title.ts finds it). */
  readonly title?: string;
  /** Group for held-out estimates: the template of a generated page, the site of a stored one. */
  readonly group: string;
}

const key = (text: string) => lowerWords(text).join(' ');

/** 1: article text, 0: not, -1: left out (the title). */
export type Label = 1 | 0 | -1;

/** Label blocks: a block whose words equal a line's (or, from 3 words on, lie inside the article) is article text. */
export function labelBlocks(blocks: readonly Pick<Block, 'text' | 'heading'>[], page: Pick<LabelledPage, 'article' | 'title'>): Label[] {
  const lines = page.article.split('\n').map(key).filter(Boolean);
  const set = new Set(lines);
  const joined = '\n' + lines.join('\n') + '\n';
  let titleSeen = false;
  return blocks.map((b) => {
    const k = key(b.text);
    if (!k) return 0;
    if (page.title && !titleSeen && titleMatch(page.title, b.text) >= 0.8 && !set.has(k)) {
      titleSeen = true;
      return -1;
    }
    if (set.has(k)) return 1;
    if (k.split(' ').length >= 3 && (joined.includes(`\n${k} `) || joined.includes(` ${k} `) || joined.includes(` ${k}\n`))) return 1;
    return 0;
  });
}

/**
 * Label MSS tokens as the paper does: "in" from the first token of the first article line to the
 * last token of the last one (a contiguous span, tags inside it included), "out" elsewhere.
 */
export function labelTokens(tokens: MssTokens, page: Pick<LabelledPage, 'article'>): Uint8Array {
  const labels = new Uint8Array(tokens.length);
  const lines = new Set(page.article.split('\n').map(key).filter(Boolean));
  if (lines.size === 0) return labels;
  // Words of each MSS line, to compare with the article's lines.
  let first = -1;
  let last = -1;
  let i = 0;
  while (i < tokens.length) {
    const line = tokens.line[i];
    let j = i;
    const ws: string[] = [];
    let firstWord = -1;
    let lastWord = -1;
    while (j < tokens.length && tokens.line[j] === line) {
      if (!tokens.isTag[j]) {
        const w = lowerWords(tokens.surface[j]);
        if (w.length) {
          ws.push(...w);
          if (firstWord < 0) firstWord = j;
          lastWord = j;
        }
      }
      j++;
    }
    if (ws.length && lines.has(ws.join(' '))) {
      if (first < 0) first = firstWord;
      last = lastWord;
    }
    i = j;
  }
  if (first >= 0) labels.fill(1, first, last + 1);
  return labels;
}
