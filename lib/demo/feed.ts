/** The site's RSS 2.0 feed and sitemap. Links carry `ORIGIN_TOKEN`, replaced when served. */
import type { ArticleModel, SiteModel } from './model';
import { ORIGIN_TOKEN } from './model';

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** RFC 822 date, as RSS wants: "Sat, 14 Mar 2026 09:30:00 GMT". */
export function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

export function renderFeed(site: SiteModel, items: ArticleModel[]): string {
  const newest = items[0]?.published;
  const entries = items.map(
    (a) => `    <item>
      <title>${xml(a.headline)}</title>
      <link>${ORIGIN_TOKEN}${a.path}</link>
      <guid isPermaLink="true">${ORIGIN_TOKEN}${a.path}</guid>
      <dc:creator>${xml(a.author.name)}</dc:creator>
      <pubDate>${rfc822(a.published)}</pubDate>
      <category>${xml(a.section)}</category>
      <description>${xml(a.dek)}</description>
    </item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xml(site.name)}</title>
    <link>${ORIGIN_TOKEN}/</link>
    <atom:link href="${ORIGIN_TOKEN}/feed.xml" rel="self" type="application/rss+xml"/>
    <description>${xml(site.tagline)}</description>
    <language>en-us</language>
${newest ? `    <lastBuildDate>${rfc822(newest)}</lastBuildDate>\n` : ''}${entries.join('\n')}
  </channel>
</rss>
`;
}

export function renderSitemap(paths: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${ORIGIN_TOKEN}${xml(p)}</loc></url>`).join('\n')}
</urlset>
`;
}

export function renderRobots(): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN_TOKEN}/sitemap.xml\n`;
}
