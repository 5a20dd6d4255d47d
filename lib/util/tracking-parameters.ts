/**
 * Tracking parameters: query parameters that only say where a reader came from (campaign and click
 * ids). The page is the same without them: a page's URL (lib/store/keys.ts normalizeUrl) and a feed
 * entry's permalink (lib/fields/sources.ts permalinkKey) leave them out.
 */

const TRACKING_PARAMETER = /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|igshid|yclid)$/i;

/**
 * A URL's query (`?a=1&utm_source=x`, or '') without its tracking parameters; the other parameters as
 * written (URLSearchParams would write them again its own way: a space as +). A query with none is
 * returned as it is.
 */
export function withoutTrackingParameters(search: string): string {
  if (!search) return search;
  const pairs = search.slice(1).split('&');
  const kept = pairs.filter((pair) => !TRACKING_PARAMETER.test(parameterName(pair)));
  if (kept.length === pairs.length) return search;
  return kept.some(Boolean) ? `?${kept.join('&')}` : '';
}

function parameterName(pair: string): string {
  return pair ? (new URLSearchParams(pair).keys().next().value ?? '') : '';
}
