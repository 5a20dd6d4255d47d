/**
 * Whether a site's content rules work on the HTML as served (parsed without a browser): on each
 * training page, the article the rules give on the served HTML against the one they give on the
 * rendered snapshot, by token F1 (lib/metric). Pure: the learn step reads the pages and calls it.
 */
import type { Document } from 'domhandler';
import { pageF1, scorePage } from '../metric/metric';
import type { FetchPathVerdict, RulesDocument } from '../types/rules-document';
import { extractWithRules } from './extract-with-rules';
import { contentRulesFor } from './template-choice';

export interface VerdictPage {
  readonly pageId: string;
  readonly rendered: Document;
  /** The HTML as served; undefined when render could not read it (the page counts as failing). */
  readonly served: Document | undefined;
}

/** Token F1 of a text against a reference (1 when both are empty). */
export function tokenF1(predicted: string, reference: string): number {
  return pageF1(scorePage(predicted, reference));
}

/**
 * The verdict on the pages where the rules select something on the rendered snapshot (the others say
 * nothing about the served HTML). Works when at least one page was checked, at least half the pages
 * given were, and every checked page's F1 reaches minF1.
 */
export function fetchPathVerdict(rules: Pick<RulesDocument, 'content' | 'templates'>, pages: readonly VerdictPage[], minF1: number, checkedAt: Date): FetchPathVerdict {
  let checked = 0;
  let lowest = 1;
  let worst: string | undefined;
  for (const page of pages) {
    // each HTML with the rules apply would choose for it (a site of several templates)
    const rendered = extractWithRules(page.rendered, contentRulesFor(page.rendered, rules).content);
    if (rendered.wordCount === 0) continue;
    checked++;
    const f1 = page.served ? tokenF1(extractWithRules(page.served, contentRulesFor(page.served, rules).content).text, rendered.text) : 0;
    // the worst page of equals is the first by id: the same pages give the same verdict, in any order
    if (f1 < lowest || (f1 === lowest && worst !== undefined && page.pageId < worst)) {
      lowest = f1;
      worst = page.pageId;
    }
  }
  const works = checked > 0 && checked * 2 >= pages.length && lowest >= minF1;
  return {
    works,
    pages: checked,
    minF1: checked ? Math.round(lowest * 10_000) / 10_000 : 0,
    threshold: minF1,
    ...(worst && lowest < 1 ? { worstPage: worst } : {}),
    checkedAt: checkedAt.toISOString(),
  };
}
