/** Looking up the generator's truth for a demo site's pages. */
import type { GeneratedSite, PageKind, PageTruth, SiteFile, TemplateId } from './site-generator';
import { ORIGIN_TOKEN } from './model';

/** The path of a URL or path, without query or fragment (`http://x:1/a.html?b#c` → `/a.html`). */
export function pathOf(urlOrPath: string): string {
  return new URL(urlOrPath, 'http://demo.invalid').pathname;
}

/** The truth of the page at a URL (any origin) or path; undefined when the site does not have it. */
export function truthFor(site: GeneratedSite, urlOrPath: string): PageTruth | undefined {
  const path = pathOf(urlOrPath);
  return site.pages.find((p) => p.path === path);
}

export interface PageFilter {
  kind?: PageKind;
  template?: TemplateId;
}

/** Pages of a kind and/or template, in site order (home first, then newest first). */
export function pagesOf(site: GeneratedSite, filter: PageFilter = {}): PageTruth[] {
  return site.pages.filter((p) => (!filter.kind || p.kind === filter.kind) && (!filter.template || p.template === filter.template));
}

/** Healthy article pages, optionally of one template. */
export function articlesOf(site: GeneratedSite, template?: TemplateId): PageTruth[] {
  return pagesOf(site, { kind: 'article', template });
}

/** Absolute URLs of pages under an origin (`http://127.0.0.1:PORT`), optionally filtered. */
export function urlsOf(site: GeneratedSite, origin: string, filter: PageFilter = {}): string[] {
  return pagesOf(site, filter).map((p) => origin.replace(/\/$/, '') + p.path);
}

/** A served body with the origin placeholder replaced (text bodies only). */
export function resolveOrigin(file: SiteFile, origin: string): string | Uint8Array {
  return typeof file.body === 'string' ? file.body.replaceAll(ORIGIN_TOKEN, origin.replace(/\/$/, '')) : file.body;
}

/** The HTML of a page as served from `origin` (for archiving a copy, or parsing in tests). */
export function pageHtml(site: GeneratedSite, urlOrPath: string, origin: string): string {
  const file = site.files.get(pathOf(urlOrPath));
  if (!file || typeof file.body !== 'string') throw new Error(`no text page at ${urlOrPath}`);
  return resolveOrigin(file, origin) as string;
}
