/**
 * Template "magazine": a component-built news app. Deep <div> nesting with BEM class names, wide grid,
 * body paragraphs as `<div class="para">` (no <p>). Partial metadata: og:title, JSON-LD, RSS link.
 */
import type { ArticleModel, BodyBlock, SiteModel, TemplateSpec } from '../model';
import { commentCountLabel, esc, head, imgTag, join, longDate, page, paragraphHtml, sectionPath, topicPath } from './shared';

const CSS = `
body { margin: 0; font-family: "Trebuchet MS", Verdana, "DejaVu Sans", sans-serif; color: #2b2b2b; background: #fdfcf9; }
a { color: inherit; }
.app__shell { min-height: 100vh; display: flex; flex-direction: column; }
.brand-bar { background: var(--accent); color: #fff; }
.brand-bar__inner { max-width: 1280px; margin: 0 auto; padding: 14px 32px; display: flex; align-items: center; justify-content: space-between; }
.brand { font: 900 28px/1 Impact, "Arial Black", sans-serif; letter-spacing: 0.02em; text-transform: uppercase; text-decoration: none; color: #fff; }
.brand-bar__tools a { color: #fff; font-size: 13px; margin-left: 16px; text-decoration: none; opacity: 0.9; }
.nav-rail { background: #111; }
.nav-rail__inner { max-width: 1280px; margin: 0 auto; padding: 0 32px; display: flex; flex-wrap: wrap; }
.nav-rail__link { color: #eee; text-decoration: none; font-size: 13px; padding: 10px 12px; display: block; }
.topic-strip { max-width: 1280px; margin: 0 auto; padding: 10px 32px; font-size: 12px; color: #777; }
.topic-strip__item { display: inline-block; padding: 3px 10px; margin: 0 6px 6px 0; border-radius: 12px; background: #efece4; color: #444; text-decoration: none; }
.page-grid { max-width: 1280px; margin: 0 auto; padding: 16px 32px 48px; display: grid; grid-template-columns: minmax(0, 820px) 340px; gap: 56px; }
.crumbs { font-size: 12px; color: #888; margin-bottom: 18px; }
.crumbs__sep { margin: 0 6px; }
.article-shell__kicker { font-size: 12px; font-weight: bold; text-transform: uppercase; color: var(--accent); letter-spacing: 0.12em; }
.article-shell__headline h1 { font: 700 46px/1.08 Georgia, "Times New Roman", serif; margin: 10px 0 16px; color: #111; }
.article-shell__dek { font-size: 20px; line-height: 1.45; color: #555; margin-bottom: 22px; }
.article-shell__byline { display: flex; align-items: center; gap: 18px; padding: 14px 0; border-top: 1px solid #e4e0d6; border-bottom: 1px solid #e4e0d6; margin-bottom: 28px; font-size: 13px; }
.author-chip__avatar { width: 36px; height: 36px; border-radius: 50%; background: var(--accent); display: inline-block; vertical-align: middle; margin-right: 8px; }
.author-chip__name { font-weight: bold; color: #111; }
.author-chip__role { color: #888; margin-left: 6px; }
.article-shell__date { color: #777; }
.rich-text__inner { max-width: 700px; }
.para { font-size: 18px; line-height: 1.72; margin-bottom: 24px; color: #2b2b2b; }
.para a { color: var(--accent); text-decoration: underline; }
.rich-text__heading h2 { font: 400 28px/1.25 Georgia, "Times New Roman", serif; color: #111; margin: 40px 0 14px; }
.rich-text__quote blockquote { margin: 36px 0; padding: 22px 0; border-top: 2px solid var(--accent); border-bottom: 2px solid var(--accent); font: italic 30px/1.3 Georgia, "Times New Roman", serif; color: var(--accent); text-align: center; }
.rich-text__list ul { background: #f2f6fa; border-radius: 6px; padding: 18px 18px 18px 40px; margin: 0 0 26px; }
.rich-text__list li { font-size: 16px; line-height: 1.5; color: #1c3d5a; margin: 6px 0; }
.rich-text__media { margin: 0 0 28px; }
.rich-text__media img { width: 100%; height: auto; display: block; }
.rich-text__media-caption { font-size: 12px; color: #777; padding: 8px 0 0; }
.rich-text__promo { border-left: 3px solid #111; padding: 8px 14px; margin: 0 0 24px; font-size: 14px; font-weight: bold; color: #111; }
.rich-text__promo a { color: var(--accent); }
.article-shell__tags { margin: 24px 0; }
.more-stories { margin-top: 40px; }
.more-stories__title, .discussion__title { font: 700 22px Georgia, "Times New Roman", serif; color: #111; margin-bottom: 16px; }
.more-stories__grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 18px; }
.story-card { background: #fff; border: 1px solid #e4e0d6; padding: 14px; font-size: 15px; font-weight: bold; }
.story-card a { text-decoration: none; }
.discussion { margin-top: 44px; }
.discussion__item { display: flex; gap: 12px; padding: 14px 0; border-top: 1px solid #ece8de; }
.discussion__avatar { flex: 0 0 32px; height: 32px; border-radius: 50%; background: #d8d2c4; }
.discussion__head { font-size: 12px; color: #888; }
.discussion__name { font-weight: bold; color: #333; margin-right: 8px; }
.discussion__text { font-size: 14px; line-height: 1.5; color: #444; margin-top: 4px; }
.discussion__votes { font-size: 11px; color: #aaa; margin-top: 4px; }
.rail-module { margin-bottom: 32px; background: #fff; border: 1px solid #e4e0d6; padding: 18px; }
.rail-module__title { font-size: 12px; text-transform: uppercase; letter-spacing: 0.14em; color: #888; margin-bottom: 12px; }
.rail-module__item { padding: 8px 0; border-bottom: 1px solid #f0ede5; font-size: 14px; line-height: 1.35; }
.rail-module__item a { text-decoration: none; }
.rail-ad { min-height: 280px; display: flex; flex-direction: column; justify-content: center; text-align: center; background: repeating-linear-gradient(45deg, #f6f4ee, #f6f4ee 10px, #efece4 10px, #efece4 20px); color: #666; font-size: 13px; }
.app__footer { background: #111; color: #aaa; margin-top: auto; }
.app__footer-inner { max-width: 1280px; margin: 0 auto; padding: 32px; font-size: 13px; line-height: 1.6; }
.app__footer-inner a { color: #ddd; text-decoration: none; margin-right: 14px; }
.footer-columns { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; margin-bottom: 18px; }
`;

function block(site: SiteModel, b: BodyBlock): string {
  switch (b.kind) {
    case 'p':
      return `<div class="rich-text__block"><div class="para">${paragraphHtml(b)}</div></div>`;
    case 'h2':
      return `<div class="rich-text__block rich-text__heading"><h2 class="subhead">${esc(b.text)}</h2></div>`;
    case 'quote':
      return `<div class="rich-text__block rich-text__quote"><blockquote>${esc(b.text)}</blockquote></div>`;
    case 'list':
      return `<div class="rich-text__block rich-text__list"><ul>\n${b.items.map((i) => `<li><span>${esc(i)}</span></li>`).join('\n')}\n</ul></div>`;
    case 'figure':
      return `<div class="rich-text__block rich-text__media"><div class="media-frame">${imgTag(b.figure, 'media-frame__img')}</div><div class="rich-text__media-caption">${esc(b.figure.caption)} <span class="media-credit">${esc(b.figure.credit)}</span></div></div>`;
    case 'ad':
      return `<div class="rich-text__block rich-text__promo">Read more: <a href="${b.promo.path}">${esc(b.promo.title)}</a></div>`;
  }
}

function render(site: SiteModel, a: ArticleModel): string {
  const body = join(
    '<div id="app" class="app"><div class="app__shell">',
    `<div class="app__header">
<div class="brand-bar"><div class="brand-bar__inner"><a class="brand" href="/">${esc(site.name)}</a><div class="brand-bar__tools"><a href="/search/">Search</a><a href="/subscribe/">Subscribe</a><a href="/account/">Account</a></div></div></div>
<div class="nav-rail"><div class="nav-rail__inner">${site.sections.map((s) => `<div class="nav-rail__entry"><a class="nav-rail__link" href="${sectionPath(s)}">${esc(s)}</a></div>`).join('')}</div></div>
<div class="topic-strip">${site.topics.map((t) => `<a class="topic-strip__item" href="${topicPath(t)}">${esc(t)}</a>`).join('')}</div>
</div>`,
    '<div class="app__main"><div class="page-grid"><div class="page-grid__primary">',
    `<div class="crumbs"><span class="crumbs__item"><a href="/">Home</a></span><span class="crumbs__sep">/</span><span class="crumbs__item"><a href="${sectionPath(a.section)}">${esc(a.section)}</a></span></div>`,
    '<div class="article-shell" data-kind="story">',
    `<div class="article-shell__head">
<div class="article-shell__kicker">${esc(a.section)}</div>
<div class="article-shell__headline"><h1>${esc(a.headline)}</h1></div>
<div class="article-shell__dek">${esc(a.dek)}</div>
<div class="article-shell__byline"><div class="author-chip"><span class="author-chip__avatar"></span><span class="author-chip__name">${esc(a.author.name)}</span><span class="author-chip__role">${esc(a.author.role)}</span></div><div class="article-shell__date"><time datetime="${a.published}">${longDate(a.published)}</time></div></div>
</div>`,
    `<div class="article-shell__body"><div class="rich-text"><div class="rich-text__inner">\n${a.blocks.map((b) => block(site, b)).join('\n')}\n</div></div></div>`,
    `<div class="article-shell__tags">${a.tags.map((t) => `<a class="topic-strip__item" href="${topicPath(t)}">${esc(t)}</a>`).join('')}</div>`,
    '</div>',
    `<div class="more-stories"><div class="more-stories__title">Related articles</div><div class="more-stories__grid">
${a.related.map((l) => `<div class="story-card"><div class="story-card__inner"><a href="${l.path}">${esc(l.title)}</a></div></div>`).join('\n')}
</div></div>`,
    `<div class="discussion" id="comments"><div class="discussion__title">Conversation · ${commentCountLabel(a.comments.length)}</div>
${a.comments
  .map(
    (c) => `<div class="discussion__item"><div class="discussion__avatar"></div><div class="discussion__main"><div class="discussion__head"><span class="discussion__name">${esc(c.author)}</span><span class="discussion__when">${longDate(c.at)}</span></div><div class="discussion__text">${esc(c.text)}</div><div class="discussion__votes">▲ ${c.likes} · Reply · Share</div></div></div>`,
  )
  .join('\n')}
</div>`,
    '</div>',
    `<div class="page-grid__secondary">
<div class="rail-module rail-ad"><div class="rail-ad__label">Advertisement</div><div class="rail-ad__copy">${esc(site.ads[(a.index + 2) % site.ads.length])}</div></div>
<div class="rail-module"><div class="rail-module__title">Trending</div>${site.trending.map((l) => `<div class="rail-module__item"><a href="${l.path}">${esc(l.title)}</a></div>`).join('')}</div>
<div class="rail-module"><div class="rail-module__title">Newsletter</div><div class="rail-module__item">Our editors’ picks, every Friday. Sign up for free and get the week’s essential reads.</div></div>
<div class="rail-module rail-ad"><div class="rail-ad__label">Advertisement</div><div class="rail-ad__copy">${esc(site.ads[(a.index + 4) % site.ads.length])}</div></div>
</div>`,
    '</div></div>',
    `<div class="app__footer"><div class="app__footer-inner">
<div class="footer-columns">${site.sections.map((s) => `<a href="${sectionPath(s)}">${esc(s)}</a>`).join('')}</div>
<div class="footer-about">${esc(site.about)}</div>
<div class="footer-legal"><a href="/about/">About</a><a href="/privacy/">Privacy</a><a href="/terms/">Terms</a><a href="/cookies/">Cookie settings</a> © ${site.year} ${esc(site.name)}</div>
</div></div>`,
    '</div></div>',
  );
  return page(head(site, { title: `${a.headline} | ${site.name}`, level: 'partial', css: CSS, article: a }), '', body);
}

export const magazine: TemplateSpec = {
  id: 'magazine',
  metadata: 'partial',
  leadFigure: false,
  showsDek: true,
  bodySelector: 'div.article-shell div.rich-text__inner',
  render,
};
