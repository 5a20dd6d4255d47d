/** Rules extraction lives in lib/html (learn checks rules on served HTML with it too); re-exported for apply's callers. */
export { extractWithRules, type ExtractOptions, type RulesExtraction } from '../html/extract-with-rules';
