/** The home page: a front page listing articles (not an article). Uses the classic template's chrome. */
import type { ArticleModel, SiteModel } from '../model';
import { CLASSIC_CSS, classicFooter, classicHeader, classicSidebar } from './classic';
import { esc, head, join, longDate, page, sectionPath } from './shared';

const HOME_CSS = `
.front { flex: 1 1 auto; max-width: 760px; }
.front-title { font: bold 14px Arial, Helvetica, sans-serif; text-transform: uppercase; letter-spacing: 0.1em; color: var(--accent); margin: 0 0 12px; }
.front-lead h2 { font-size: 34px; line-height: 1.15; margin: 0 0 8px; }
.front-lead h2 a, .teaser h3 a { color: #111; text-decoration: none; }
.teaser { border-top: 1px solid #e5e5e5; padding: 14px 0; }
.teaser h3 { font-size: 21px; margin: 4px 0 6px; line-height: 1.25; }
.teaser-dek { font-size: 15px; color: #555; margin: 0 0 6px; }
.teaser-meta { font: 12px Arial, Helvetica, sans-serif; color: #888; }
.pager { margin-top: 20px; font: 13px Arial, Helvetica, sans-serif; }
`;

export function renderHome(site: SiteModel, articles: ArticleModel[]): string {
  const [lead, ...rest] = articles;
  const meta = (a: ArticleModel) =>
    `<div class="teaser-meta"><a href="${sectionPath(a.section)}">${esc(a.section)}</a> · By ${esc(a.author.name)} · ${longDate(a.published)}</div>`;
  const body = join(
    classicHeader(site),
    '<div class="layout">',
    '<main id="content" class="front">',
    '<h1 class="front-title">Latest news</h1>',
    lead &&
      `<section class="front-lead"><h2><a href="${lead.path}">${esc(lead.headline)}</a></h2><p class="teaser-dek">${esc(lead.dek)}</p>${meta(lead)}</section>`,
    `<section class="latest">
${rest.map((a) => `<div class="teaser"><h3><a href="${a.path}">${esc(a.headline)}</a></h3><p class="teaser-dek">${esc(a.dek)}</p>${meta(a)}</div>`).join('\n')}
</section>`,
    '<div class="pager"><a href="/archive/">Browse the archive »</a></div>',
    '</main>',
    classicSidebar(site, 0),
    '</div>',
    classicFooter(site),
  );
  const description = `${site.name}: ${site.tagline}`;
  return page(head(site, { title: `${site.name} | ${site.tagline}`, level: 'full', css: CLASSIC_CSS + HOME_CSS, description }), 'class="home-page"', body);
}
