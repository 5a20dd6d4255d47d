/**
 * Text blocks of a page, as Kohlschütter et al. (WSDM 2010) and Dragnet define them: the page's
 * text cut at every block-level tag (and <br>), so a block is one run of text between two such
 * boundaries. The cut is the same as the clean-HTML output's line breaks (lib/html/content.ts), so
 * a block's text is exactly one line of an extracted article's text: learned rules' output labels
 * blocks by line.
 *
 * One walk, no recursion. Per block: its text, words, words inside links, the tags opened since
 * the previous block (CETR's tag count), its element (nearest block-level ancestor), the id/class
 * tokens of that element and of all its ancestors, whether an <hr> precedes it, its heading level.
 */
import { Element, Text, type AnyNode, type Document, type ParentNode } from 'domhandler';
import { BLOCK_TAGS, HEADING_LEVEL, SKIP_TAGS, isHidden } from '../html/content';
import { headAndBody } from '../html/parse';
import { visibleLength } from '../text/words';
import { elementTokens, words } from './tokens';

export interface Block {
  readonly index: number;
  /** White space collapsed, trimmed; never empty. */
  readonly text: string;
  readonly words: number;
  /** Words inside <a> elements. */
  readonly linkWords: number;
  /** Visible characters of the text. */
  readonly chars: number;
  /** Tags opened since the previous block ended (script/style and other skipped elements not counted). */
  readonly tags: number;
  /** Nearest block-level ancestor: the element whose line this is. */
  readonly el: Element;
  /** 1-6 inside a heading, else 0. */
  readonly heading: number;
  /** Inside an <li> (or <dd>/<dt>). */
  readonly inList: boolean;
  /** An <hr> lies between the previous block and this one. */
  readonly hrBefore: boolean;
  /** Depth of `el` below <body>. */
  readonly depth: number;
  /** id/class tokens of `el` itself. */
  readonly ownTokens: readonly string[];
  /** Distinct id/class tokens of `el` and all its ancestors (only when `tokens: true`). */
  readonly tokens?: readonly string[];
  /** Sum of the token weights over `tokens` (each token once), when a weight function was given. */
  readonly ancestorWeight: number;
  /** Sum of the token weights over `ownTokens`. */
  readonly ownWeight: number;
}

export interface SegmentOptions {
  /** Collect every block's ancestor tokens (training, diagnostics). */
  readonly tokens?: boolean;
  /** Weight of an id/class token (Dragnet's odds); summed over each block's tokens. */
  readonly tokenWeight?: (token: string) => number;
  /** Filled with the block index of every text node that went into a block. */
  readonly textBlock?: Map<Text, number>;
}

export interface Segmentation {
  readonly blocks: Block[];
  readonly root: ParentNode;
  /** <body> (or the root of a page without one). */
  readonly body: Element | undefined;
}

const LIST_ITEMS = new Set(['li', 'dd', 'dt']);

/** <body>, else <html>, else the document itself. */
export function contentRoot(doc: Document): { root: ParentNode; body: Element | undefined } {
  const { html, body } = headAndBody(doc);
  return { root: body ?? html ?? doc, body };
}

interface Frame {
  readonly el: Element | undefined;
  readonly block: Element | undefined;
  readonly blockDepth: number;
  readonly inLink: boolean;
  readonly heading: number;
  readonly inList: boolean;
  /** Tokens this frame added to the running set (first occurrence in the chain). */
  readonly added: readonly string[] | undefined;
  readonly addedWeight: number;
  readonly isBlock: boolean;
}

/** Cut the page under `doc`'s body into text blocks. */
export function segmentBlocks(doc: Document, options: SegmentOptions = {}): Segmentation {
  const { root, body } = contentRoot(doc);
  return { blocks: segmentElement(root, options), root, body };
}

/** Blocks under any element (or document). */
export function segmentElement(root: ParentNode, options: SegmentOptions = {}): Block[] {
  const weight = options.tokenWeight;
  const collect = options.tokens === true;
  const blocks: Block[] = [];
  const tokenCount = new Map<string, number>();
  let runningWeight = 0;

  // Current block.
  let parts: string[] = [];
  const textMap = options.textBlock;
  let partNodes: Text[] = [];
  let linkWords = 0;
  let tags = 0;
  let hrPending = false;
  let owner: Frame | undefined;

  const flush = () => {
    if (parts.length === 0) return;
    const raw = parts.join('');
    parts = [];
    const nodes = partNodes;
    if (textMap) partNodes = [];
    const text = raw.replace(/\s+/g, ' ').trim();
    const f = owner!;
    const lw = linkWords;
    linkWords = 0;
    if (!text) return;
    const el = f.block ?? (root instanceof Element ? root : undefined);
    if (!el) return;
    const w = words(text).length;
    if (w === 0 && text.length < 2) return;
    if (textMap) for (const n of nodes) textMap.set(n, blocks.length);
    const own = elementTokens(el);
    let ownWeight = 0;
    if (weight) for (const t of own) ownWeight += weight(t);
    blocks.push({
      index: blocks.length,
      text,
      words: w,
      linkWords: Math.min(lw, w),
      chars: visibleLength(text),
      tags,
      el,
      heading: f.heading,
      inList: f.inList,
      hrBefore: hrPending,
      depth: f.blockDepth,
      ownTokens: own,
      ...(collect ? { tokens: [...tokenCount.keys()] } : {}),
      ancestorWeight: runningWeight,
      ownWeight,
    });
    tags = 0;
    hrPending = false;
  };

  const rootFrame: Frame = {
    el: root instanceof Element ? root : undefined,
    block: root instanceof Element ? root : undefined,
    blockDepth: 0,
    inLink: false,
    heading: 0,
    inList: false,
    added: undefined,
    addedWeight: 0,
    isBlock: true,
  };
  if (root instanceof Element) {
    for (const t of elementTokens(root)) {
      tokenCount.set(t, 1);
      if (weight) runningWeight += weight(t);
    }
  }
  const frames: Frame[] = [rootFrame];
  const EXIT = 0;
  const stack: Array<AnyNode | typeof EXIT> = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);

  while (stack.length) {
    const item = stack.pop()!;
    if (item === EXIT) {
      const f = frames.pop()!;
      if (f.isBlock) flush();
      if (f.added) {
        for (const t of f.added) {
          const c = tokenCount.get(t)! - 1;
          if (c === 0) tokenCount.delete(t);
          else tokenCount.set(t, c);
        }
        runningWeight -= f.addedWeight;
      }
      continue;
    }
    const top = frames[frames.length - 1];
    if (item instanceof Text) {
      const data = item.data;
      if (parts.length === 0) {
        // Leading white space of a block adds nothing.
        if (!/\S/.test(data)) continue;
        owner = top;
      }
      parts.push(data);
      if (textMap) partNodes.push(item);
      if (top.inLink) linkWords += words(data).length;
      continue;
    }
    if (!(item instanceof Element)) continue;
    const name = item.name;
    if (SKIP_TAGS.has(name) || isHidden(item)) continue;
    if (name === 'br') {
      flush();
      continue;
    }
    if (name === 'hr') {
      flush();
      hrPending = true;
      tags++;
      continue;
    }
    if (name === 'img') {
      tags++;
      continue;
    }
    tags++;
    const isBlock = BLOCK_TAGS.has(name);
    if (isBlock) flush();
    const own = elementTokens(item);
    let added: string[] | undefined;
    let addedWeight = 0;
    for (const t of own) {
      const c = tokenCount.get(t) ?? 0;
      tokenCount.set(t, c + 1);
      (added ??= []).push(t);
      if (c === 0 && weight) addedWeight += weight(t);
    }
    runningWeight += addedWeight;
    const heading = HEADING_LEVEL[name] ?? top.heading;
    frames.push({
      el: item,
      block: isBlock ? item : top.block,
      blockDepth: isBlock ? top.blockDepth + 1 : top.blockDepth,
      inLink: top.inLink || name === 'a',
      heading,
      inList: top.inList || LIST_ITEMS.has(name),
      added,
      addedWeight,
      isBlock,
    });
    stack.push(EXIT);
    const children = item.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  flush();
  return blocks;
}
