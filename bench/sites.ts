/**
 * What the benchmarks call a site. By default the pipeline's key (`siteOf`, lib/store/keys.ts: a
 * URL's hostname without `www.`), so a bench learns and applies what the pipeline would; or the
 * manifest's `site`, its registrable domain (`--sites-by dataset`), under which two users' blogs on
 * one platform, or a portal's properties, are one site.
 */
import type { DatasetEntry } from '../lib/dataset/dataset';
import { siteOf } from '../lib/store/keys';

export type SitesBy = 'host' | 'dataset';

/** The group of pages without a URL (or a site): never learned, always through the fallback. */
export const NO_SITE = '(no site)';

/** A page's site under the grouping, NO_SITE when it has none. */
export function siteKeyOf(sitesBy: SitesBy = 'host'): (e: DatasetEntry) => string {
  if (sitesBy === 'dataset') return (e) => e.site ?? NO_SITE;
  return (e) => {
    if (!e.url) return NO_SITE;
    try {
      return siteOf(e.url);
    } catch {
      return NO_SITE;
    }
  };
}

/** Pages by site, in manifest order (pages without a site under NO_SITE). */
export function groupBySite(entries: readonly DatasetEntry[], sitesBy: SitesBy = 'host'): Map<string, DatasetEntry[]> {
  const key = siteKeyOf(sitesBy);
  const groups = new Map<string, DatasetEntry[]>();
  for (const e of entries) {
    const k = key(e);
    let list = groups.get(k);
    if (!list) groups.set(k, (list = []));
    list.push(e);
  }
  return groups;
}
