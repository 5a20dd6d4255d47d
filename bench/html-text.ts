/**
 * HTML → plain text, the same way for every peer: block-level elements and <br> start a new line,
 * white space inside a line is collapsed, scripts, styles and templates are dropped. Nothing else
 * is filtered, so a peer is scored on exactly what its HTML output shows.
 */
import { parseDocument } from 'htmlparser2';
import { Element, Text, type AnyNode } from 'domhandler';
import { BLOCK_TAGS } from '../lib/html/content';

const DROP = new Set(['script', 'style', 'template', 'head', 'title']);

export function htmlToText(html: string): string {
  const doc = parseDocument(html, { decodeEntities: true, lowerCaseTags: true });
  const lines: string[] = [];
  let line = '';
  const breakLine = () => {
    const t = line.replace(/[ \t\n\r\f\u00a0]+/g, ' ').trim();
    if (t) lines.push(t);
    line = '';
  };
  const EXIT = Symbol('exit');
  const stack: Array<AnyNode | typeof EXIT> = [];
  for (let i = doc.children.length - 1; i >= 0; i--) stack.push(doc.children[i]);
  while (stack.length) {
    const n = stack.pop()!;
    if (n === EXIT) {
      breakLine();
      continue;
    }
    if (n instanceof Text) {
      line += n.data;
    } else if (n instanceof Element) {
      if (DROP.has(n.name)) continue;
      if (n.name === 'br' || n.name === 'hr') {
        breakLine();
        continue;
      }
      const block = BLOCK_TAGS.has(n.name);
      if (block) {
        breakLine();
        stack.push(EXIT);
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  breakLine();
  return lines.join('\n');
}
