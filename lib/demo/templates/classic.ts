/**
 * Template "classic": a broadsheet. Serif body, centred masthead, right sidebar.
 * `<main id="content"><article class="story"><div class="story-body"><p>`. Full metadata.
 */
import type { ArticleModel, BodyBlock, SiteModel, TemplateSpec } from '../model';
import { clock, commentCountLabel, esc, head, imgTag, join, longDate, page, paragraphHtml, sectionPath, topicPath } from './shared';

const CSS = `
* { box-sizing: border-box; }
body { margin: 0; font-family: Georgia, "Times New Roman", Times, serif; color: #1a1a1a; background: #fff; line-height: 1.5; }
a { color: var(--accent); }
.site-header { border-bottom: 3px double #222; }
.utility-bar { display: flex; justify-content: space-between; max-width: 1140px; margin: 0 auto; padding: 6px 20px; font: 12px Arial, Helvetica, sans-serif; color: #666; }
.utility-bar a { color: #444; text-decoration: none; margin-left: 12px; }
.masthead { text-align: center; padding: 14px 0 6px; }
.logo { font-size: 44px; font-weight: 700; color: #111; text-decoration: none; letter-spacing: -0.01em; }
.tagline { font-style: italic; color: #666; font-size: 13px; margin-top: 2px; }
.primary-nav ul { list-style: none; margin: 0; padding: 8px 20px; display: flex; flex-wrap: wrap; justify-content: center; gap: 4px 18px; font: 13px Arial, Helvetica, sans-serif; text-transform: uppercase; letter-spacing: 0.06em; }
.primary-nav a { color: #222; text-decoration: none; }
.sub-nav { border-top: 1px solid #ddd; text-align: center; padding: 6px 20px; font: 12px Arial, Helvetica, sans-serif; color: #555; }
.sub-nav a { color: #555; margin: 0 8px; text-decoration: none; }
.layout { display: flex; max-width: 1140px; margin: 0 auto; gap: 48px; padding: 24px 20px; }
main#content { flex: 1 1 auto; max-width: 720px; }
.breadcrumb ol { list-style: none; padding: 0; margin: 0 0 14px; display: flex; gap: 6px; font: 12px Arial, Helvetica, sans-serif; color: #777; }
.breadcrumb li + li::before { content: "›"; margin-right: 6px; }
.breadcrumb a { color: #777; }
.kicker { font: bold 12px Arial, Helvetica, sans-serif; text-transform: uppercase; letter-spacing: 0.08em; color: var(--accent); }
.headline { font-size: 40px; line-height: 1.15; margin: 8px 0 12px; font-weight: 700; }
.dek { font-size: 21px; color: #444; margin: 0 0 16px; line-height: 1.35; }
.meta { font: 13px Arial, Helvetica, sans-serif; color: #555; border-top: 1px solid #e5e5e5; border-bottom: 1px solid #e5e5e5; padding: 8px 0; margin-bottom: 20px; }
.byline { font-weight: bold; text-transform: uppercase; letter-spacing: 0.04em; margin-right: 10px; }
.byline a { color: #222; text-decoration: none; }
.lead-image, .inline-image { margin: 0 0 24px; }
.lead-image img, .inline-image img { width: 100%; height: auto; display: block; }
figcaption { font: 12px/1.4 Arial, Helvetica, sans-serif; color: #666; margin-top: 6px; }
figcaption .credit { color: #999; text-transform: uppercase; font-size: 10px; margin-left: 6px; }
.story-body p { font-size: 19px; line-height: 1.65; margin: 0 0 1.2em; }
.story-body h2 { font: bold 24px/1.25 Arial, Helvetica, sans-serif; margin: 1.6em 0 0.6em; color: #111; }
.story-body .pullquote { margin: 1.6em 0; padding: 4px 0 4px 24px; border-left: 4px solid var(--accent); }
.story-body .pullquote p { font-size: 26px; font-style: italic; color: #3a3a3a; line-height: 1.35; margin: 0; }
.story-body .story-list { font: 16px/1.5 Arial, Helvetica, sans-serif; color: #222; padding-left: 1.4em; margin: 0 0 1.4em; }
.story-body .story-list li { margin: 0.4em 0; }
.ad-inline { background: #f4f4f4; border: 1px solid #ddd; text-align: center; padding: 14px; margin: 1.6em 0; font: 12px Arial, Helvetica, sans-serif; color: #888; }
.ad-inline .ad-copy { font: 15px Arial, Helvetica, sans-serif; color: #333; margin: 6px 0 0; }
.ad-label { text-transform: uppercase; letter-spacing: 0.1em; font-size: 10px; color: #999; }
.story-footer { border-top: 1px solid #e5e5e5; padding-top: 12px; font: 13px Arial, Helvetica, sans-serif; color: #666; }
.story-footer .tags a { display: inline-block; border: 1px solid #ccc; border-radius: 3px; padding: 2px 8px; margin: 0 4px 4px 0; color: #444; text-decoration: none; }
.share a { margin-right: 10px; }
.related { margin-top: 36px; border-top: 2px solid #111; padding-top: 12px; }
.related h2, .comments h2 { font: bold 18px Arial, Helvetica, sans-serif; text-transform: uppercase; letter-spacing: 0.05em; }
.related ul { list-style: none; padding: 0; display: grid; grid-template-columns: 1fr 1fr; gap: 12px 24px; }
.related a { color: #111; text-decoration: none; font-size: 17px; font-weight: bold; }
.comments { margin-top: 36px; background: #fafafa; padding: 16px 20px; }
.comment-list { list-style: none; padding: 0; margin: 0; }
.comment { border-bottom: 1px solid #e8e8e8; padding: 12px 0; }
.comment-meta { font: 12px Arial, Helvetica, sans-serif; color: #777; }
.comment-author { font-weight: bold; color: #333; margin-right: 8px; }
.comment-body p { font: 14px/1.5 Arial, Helvetica, sans-serif; color: #333; margin: 6px 0; }
.comment-actions { font: 11px Arial, Helvetica, sans-serif; color: #999; }
.sidebar { flex: 0 0 300px; font-family: Arial, Helvetica, sans-serif; }
.widget { margin-bottom: 28px; }
.widget h3 { font-size: 14px; text-transform: uppercase; letter-spacing: 0.08em; border-bottom: 2px solid var(--accent); padding-bottom: 4px; }
.widget ol { padding-left: 20px; font-size: 14px; line-height: 1.4; }
.widget li { margin-bottom: 10px; }
.widget a { color: #222; text-decoration: none; }
.ad-box { background: #f0f0f0; border: 1px solid #ddd; height: 250px; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; padding: 16px; color: #555; font-size: 13px; }
.newsletter { background: #111; color: #eee; padding: 16px; font-size: 13px; }
.newsletter input { width: 100%; padding: 6px; margin: 8px 0; }
.site-footer { background: #1d1d1d; color: #bbb; font: 13px/1.5 Arial, Helvetica, sans-serif; padding: 28px 20px; margin-top: 40px; }
.site-footer a { color: #ddd; text-decoration: none; }
.footer-sections { display: flex; flex-wrap: wrap; gap: 6px 18px; max-width: 1140px; margin: 0 auto 16px; }
.footer-links { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 16px; max-width: 1140px; margin: 0 auto; }
.about, .copyright { max-width: 1140px; margin: 8px auto; }
.cookie-notice { background: #fffbe6; border-top: 1px solid #e6d98c; font: 12px Arial, Helvetica, sans-serif; padding: 10px 20px; text-align: center; }
`;

export function classicHeader(site: SiteModel): string {
  return `<header class="site-header">
<div class="utility-bar"><span class="today">Independent local journalism since ${site.year - 37}</span><span><a href="/subscribe/">Subscribe</a><a href="/login/">Sign in</a><a href="/newsletters/">Newsletters</a></span></div>
<div class="masthead"><a class="logo" href="/">${esc(site.name)}</a><div class="tagline">${esc(site.tagline)}</div></div>
<nav class="primary-nav" aria-label="Sections"><ul>
${site.sections.map((s) => `<li><a href="${sectionPath(s)}">${esc(s)}</a></li>`).join('\n')}
</ul></nav>
<nav class="sub-nav" aria-label="Topics">Trending topics: ${site.topics.map((t) => `<a href="${topicPath(t)}">${esc(t)}</a>`).join(' ')}</nav>
</header>`;
}

export function classicSidebar(site: SiteModel, adIndex: number): string {
  return `<aside class="sidebar">
<section class="widget trending"><h3>Trending</h3><ol>
${site.trending.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ol></section>
<div class="widget ad-box" aria-label="Advertisement"><span class="ad-label">Advertisement</span><p>${esc(site.ads[adIndex % site.ads.length])}</p><a href="/advertise/">Learn more</a></div>
<section class="widget newsletter"><h3>The Morning Briefing</h3><p>The day's most important local stories, delivered to your inbox before 7 a.m. Free for every reader.</p><form action="/newsletters/" method="post"><input type="email" name="email" placeholder="Your email address"><button type="submit">Sign up</button></form></section>
<section class="widget most-read"><h3>Most read</h3><ol>
${[...site.trending].reverse().map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ol></section>
<div class="widget ad-box" aria-label="Advertisement"><span class="ad-label">Advertisement</span><p>${esc(site.ads[(adIndex + 1) % site.ads.length])}</p></div>
</aside>`;
}

export function classicFooter(site: SiteModel): string {
  return `<footer class="site-footer">
<nav class="footer-sections">${site.sections.map((s) => `<a href="${sectionPath(s)}">${esc(s)}</a>`).join(' ')}</nav>
<p class="about">${esc(site.about)}</p>
<ul class="footer-links">${FOOTER_LINKS.map(([label, path]) => `<li><a href="${path}">${label}</a></li>`).join('')}</ul>
<p class="copyright">© ${site.year} ${esc(site.name)}. All rights reserved. Use of this site constitutes acceptance of our Terms of Use and Privacy Policy.</p>
</footer>
<div class="cookie-notice">We use cookies to understand how readers use our site and to show relevant advertising. By continuing you agree to our <a href="/privacy/">privacy policy</a>. <button type="button">Accept</button></div>`;
}

export const FOOTER_LINKS: Array<[string, string]> = [
  ['About us', '/about/'],
  ['Contact', '/contact/'],
  ['Careers', '/careers/'],
  ['Advertise', '/advertise/'],
  ['Corrections', '/corrections/'],
  ['Privacy Policy', '/privacy/'],
  ['Terms of Use', '/terms/'],
  ['Accessibility', '/accessibility/'],
  ['RSS', '/feed.xml'],
];

function block(site: SiteModel, b: BodyBlock): string {
  switch (b.kind) {
    case 'p':
      return `<p>${paragraphHtml(b)}</p>`;
    case 'h2':
      return `<h2>${esc(b.text)}</h2>`;
    case 'quote':
      return `<blockquote class="pullquote"><p>${esc(b.text)}</p></blockquote>`;
    case 'list':
      return `<ul class="story-list">\n${b.items.map((i) => `<li>${esc(i)}</li>`).join('\n')}\n</ul>`;
    case 'figure':
      return `<figure class="inline-image">${imgTag(b.figure)}<figcaption>${esc(b.figure.caption)}<span class="credit">${esc(b.figure.credit)}</span></figcaption></figure>`;
    case 'ad':
      return `<div class="ad ad-inline" aria-label="Advertisement"><span class="ad-label">Advertisement</span><p class="ad-copy">${esc(site.ads[0])}</p></div>`;
  }
}

function render(site: SiteModel, a: ArticleModel): string {
  const body = join(
    classicHeader(site),
    '<div class="layout">',
    '<main id="content">',
    `<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="${sectionPath(a.section)}">${esc(a.section)}</a></li></ol></nav>`,
    '<article class="story">',
    `<header class="story-header">
<a class="kicker" href="${sectionPath(a.section)}">${esc(a.section)}</a>
<h1 class="headline">${esc(a.headline)}</h1>
<p class="dek">${esc(a.dek)}</p>
<div class="meta"><span class="byline">By <a rel="author" href="/authors/${a.author.slug}/">${esc(a.author.name)}</a></span> <time datetime="${a.published}">${longDate(a.published)} at ${clock(a.published)}</time></div>
</header>`,
    a.leadFigure &&
      `<figure class="lead-image">${imgTag(a.leadFigure)}<figcaption>${esc(a.leadFigure.caption)}<span class="credit">${esc(a.leadFigure.credit)}</span></figcaption></figure>`,
    `<div class="story-body">\n${a.blocks.map((b) => block(site, b)).join('\n')}\n</div>`,
    `<footer class="story-footer">
<div class="share">Share this story: <a href="#share-facebook">Facebook</a><a href="#share-x">X</a><a href="#share-email">Email</a><a href="#print">Print</a></div>
<div class="tags">Filed under: ${a.tags.map((t) => `<a href="${topicPath(t)}">${esc(t)}</a>`).join('')}</div>
</footer>`,
    '</article>',
    `<section class="related"><h2>Related articles</h2><ul>
${a.related.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ul></section>`,
    `<section class="comments" id="comments"><h2>${commentCountLabel(a.comments.length)}</h2><ol class="comment-list">
${a.comments
  .map(
    (c) => `<li class="comment"><div class="comment-meta"><span class="comment-author">${esc(c.author)}</span><time datetime="${c.at}">${longDate(c.at)} ${clock(c.at)}</time></div>
<div class="comment-body"><p>${esc(c.text)}</p></div><div class="comment-actions">Reply · ${c.likes} likes · Report</div></li>`,
  )
  .join('\n')}
</ol></section>`,
    '</main>',
    classicSidebar(site, a.index),
    '</div>',
    classicFooter(site),
  );
  return page(head(site, { title: `${a.headline} | ${site.name}`, level: 'full', css: CSS, article: a }), 'class="article-page"', body);
}

export const classic: TemplateSpec = {
  id: 'classic',
  metadata: 'full',
  leadFigure: true,
  showsDek: true,
  bodySelector: 'main#content article.story div.story-body',
  render,
};

export const CLASSIC_CSS = CSS;
