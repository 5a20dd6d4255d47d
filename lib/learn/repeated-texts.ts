import type { FeatureDocument } from '../types/feature-document';

/** Block texts found word for word on two pages or more: the site's, not one page's. */
export function repeatedTexts(docs: readonly FeatureDocument[]): Set<string> {
  const pagesOf = new Map<string, number>();
  const out = new Set<string>();
  docs.forEach((d, i) => {
    for (const b of d.blocks) {
      if (!b.text) continue;
      const seen = pagesOf.get(b.text);
      if (seen === undefined) pagesOf.set(b.text, i);
      else if (seen !== i) out.add(b.text);
    }
  });
  return out;
}
