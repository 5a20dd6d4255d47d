/**
 * Small text helpers shared by the fallback methods: words as the metric counts them, the tokens of
 * an element's id and class names (lib/text/name-tokens.ts).
 */
import type { Element } from 'domhandler';
import { nameTokens } from '../text/name-tokens';

export { lowerWords, words } from '../text/words';
export { nameTokens } from '../text/name-tokens';

const EMPTY: readonly string[] = [];

/** Tokens of an element's id and class attributes together. */
export function elementTokens(el: Element): readonly string[] {
  const a = el.attribs;
  const id = a.id;
  const cls = a.class;
  if (!id && !cls) return EMPTY;
  if (!id) return nameTokens(cls!);
  if (!cls) return nameTokens(id);
  return nameTokens(`${cls} ${id}`);
}
