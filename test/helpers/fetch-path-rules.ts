/** A rules document of a site whose rules work on the HTML as served (`fetchPath.works`): its pages take the fetch path. */
import { RULES_DOCUMENT_VERSION, type RulesDocument } from '../../lib/types/rules-document';

export function fetchPathRules(site: string): RulesDocument {
  return {
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion: 1,
    learnedAt: '2026-11-27T00:00:00.000Z',
    learnedFrom: ['p1'],
    content: { selectors: ['article'], clean: [] },
    clusters: [],
    selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] },
    params: {},
    fetchPath: { works: true, pages: 5, minF1: 1, threshold: 0.99, checkedAt: '2026-11-27T00:00:00.000Z' },
  };
}
