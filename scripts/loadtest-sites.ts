/**
 * The load test's web (scripts/loadtest.ts): generated news sites served on 127.0.0.1, in a process of
 * their own, so that the runner's memory is measured without them (20,000 generated pages held for
 * serving are about a gigabyte). Started with fork(): it receives the sites to make, serves them, and
 * answers with each site's URLs; it serves until its parent closes the IPC channel.
 */
import { generateSite, serveSite, type ServedSite } from '../lib/demo/index';

export interface SitesRequest {
  readonly sites: number;
  /** URLs of a site in the run. */
  readonly perSite: number;
  /** Unseen URLs of a site kept for a later wave (healthy ones only). */
  readonly extra: number;
  /** Share of broken pages (404, 500, non-HTML). */
  readonly brokenRate: number;
}

export interface SiteUrls {
  readonly urls: { url: string; broken: boolean }[];
  readonly later: { url: string; broken: boolean }[];
}

const served: ServedSite[] = [];

process.once('message', async (request: SitesRequest) => {
  const out: SiteUrls[] = [];
  for (let i = 0; i < request.sites; i++) {
    // each site with all four templates
    const healthyPerTemplate = Math.ceil(((request.perSite + request.extra) * (1 - request.brokenRate)) / 4) + 1;
    const site = generateSite({ seed: `loadtest-${i}`, pagesPerTemplate: healthyPerTemplate, templates: 4, brokenRate: request.brokenRate, host: `site-${i}` });
    const s = await serveSite(site, { hostname: `site-${i}.localhost` });
    served.push(s);
    const urls = site.pages.filter((p) => p.kind !== 'home').map((p) => ({ url: s.url(p.path), broken: p.kind === 'broken' }));
    out.push({ urls: urls.slice(0, request.perSite), later: urls.slice(request.perSite, request.perSite + request.extra).filter((u) => !u.broken) });
  }
  process.send!(out);
});

process.once('disconnect', async () => {
  for (const s of served) await s.close();
  process.exit(0);
});
