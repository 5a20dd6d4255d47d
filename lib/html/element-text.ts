/** The text of an element as the field matcher sees it (lib/fields), white space collapsed. */
import { Element, Text, type AnyNode } from 'domhandler';
import { collapse } from '../text/match';
import { BLOCK_TAGS, SKIP_TAGS } from './content';

/**
 * The visible text of an element as the field matcher sees it: text nodes in document order,
 * `<br>` and the boundaries of block-level elements (BLOCK_TAGS) as a space (`<p>Jane</p><p>Doe</p>`
 * is "Jane Doe"), or with `lines` as a line break (a byline's name and the date on the line after
 * it), what no reader sees as text left out (SKIP_TAGS, as in an article's text: scripts, styles,
 * form controls, embedded objects).
 * Stops once the collapsed text is longer than `maxChars` (the result is then longer than
 * `maxChars`: a long text is never cut so that it looks short).
 */
export function elementText(node: AnyNode, maxChars = Infinity, lines = false): string {
  const gap = lines ? '\n' : ' ';
  let out = '';
  // a string on the stack is written as it comes: the space that closes a block-level element
  const stack: (AnyNode | string)[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') out += n;
    else if (n instanceof Text) {
      // the text's own line breaks are white space (as a browser shows them); gaps are the markup's
      out += lines ? n.data.replace(/\n/g, ' ') : n.data;
      if (out.length > maxChars + 200) {
        // Long only because of white space? Collapse what we have and go on; else it is too long.
        out = lines ? collapseLines(out) : out.replace(/[\s\u00a0\u200b\u2060\ufeff]+/g, ' ');
        if (out.trim().length > maxChars) break;
      }
    } else if (n instanceof Element) {
      if (n !== node && SKIP_TAGS.has(n.name)) continue;
      if (n.name === 'br') {
        out += gap;
        continue;
      }
      if (BLOCK_TAGS.has(n.name)) {
        out += gap;
        stack.push(gap);
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return lines ? collapseLines(out) : collapse(out);
}

/** Each line's white space collapsed, blank lines dropped. */
function collapseLines(s: string): string {
  return s
    .split('\n')
    .map(collapse)
    .filter(Boolean)
    .join('\n');
}

/** An element's own text: its text nodes, not its child elements' (`<h1>Title <span>date</span></h1>` → "Title"). */
export function ownText(el: Element): string {
  let out = '';
  for (const c of el.children) {
    if (c instanceof Text) out += c.data;
    else if (c instanceof Element && c.name === 'br') out += ' ';
  }
  return collapse(out);
}
