/**
 * Template "blog": a WordPress-style theme. Sans-serif, wide content column, widgets on the right.
 * `<div class="post"><div class="entry-content"><p>`. No metadata at all: only the visible HTML.
 */
import type { ArticleModel, BodyBlock, SiteModel, TemplateSpec } from '../model';
import { commentCountLabel, esc, head, imgTag, join, page, paragraphHtml, sectionPath, shortDate, topicPath } from './shared';

const CSS = `
html { font-size: 16px; }
body { margin: 0; background: #eef0f2; font-family: "Helvetica Neue", Helvetica, Arial, sans-serif; color: #333; }
a { color: #1e73be; text-decoration: none; }
a:hover { text-decoration: underline; }
#page { max-width: 1200px; margin: 0 auto; background: #fff; box-shadow: 0 0 12px rgba(0, 0, 0, 0.08); }
.topbar { background: #23282d; color: #aaa; font-size: 12px; padding: 6px 24px; display: flex; justify-content: space-between; }
.topbar a { color: #ddd; margin-left: 14px; }
.site-header { padding: 24px; display: flex; align-items: flex-end; justify-content: space-between; border-bottom: 1px solid #e2e2e2; }
.site-title { margin: 0; font-size: 30px; font-weight: 800; letter-spacing: -0.02em; }
.site-title a { color: #23282d; }
.site-description { margin: 4px 0 0; color: #888; font-size: 14px; }
.main-navigation { background: var(--accent); }
.main-navigation ul { list-style: none; margin: 0; padding: 0 16px; display: flex; flex-wrap: wrap; }
.main-navigation li a { display: block; color: #fff; padding: 10px 12px; font-size: 14px; font-weight: 600; }
.secondary-menu { padding: 8px 24px; font-size: 12px; color: #777; border-bottom: 1px solid #eee; }
.secondary-menu a { margin-right: 12px; color: #555; }
.site-content { display: flex; gap: 40px; padding: 24px; }
.content-area { flex: 1 1 760px; min-width: 0; }
.breadcrumbs { font-size: 12px; color: #999; margin-bottom: 16px; }
.entry-title { font-size: 34px; line-height: 1.2; font-weight: 800; color: #23282d; margin: 0 0 10px; }
.entry-meta { font-size: 13px; color: #999; margin-bottom: 24px; }
.entry-meta .author a { font-weight: 600; }
.entry-content { max-width: 760px; }
.entry-content p { font-size: 17px; line-height: 1.75; color: #3d3d3d; margin: 0 0 1.5em; }
.entry-content h2 { font-size: 20px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; color: var(--accent); margin: 2em 0 0.8em; }
.entry-content .wp-block-quote { margin: 2em 0; padding: 20px 28px; background: #f7f3e8; border-radius: 4px; }
.entry-content .wp-block-quote p { font-family: Georgia, "Times New Roman", serif; font-size: 21px; line-height: 1.5; color: #5a4a2f; margin: 0; }
.entry-content .wp-block-list { margin: 0 0 1.5em; padding-left: 0; list-style: none; }
.entry-content .wp-block-list li { font-size: 15px; line-height: 1.6; color: #23282d; padding-left: 22px; margin-bottom: 8px; position: relative; font-weight: 600; }
.entry-content .wp-block-list li::before { content: "■"; color: var(--accent); position: absolute; left: 0; font-size: 11px; top: 3px; }
.wp-caption { margin: 0 0 1.5em; background: #f5f5f5; padding: 8px; }
.wp-caption img { max-width: 100%; height: auto; display: block; }
.wp-caption-text { font-size: 12px; color: #777; margin: 6px 2px 0; }
.sponsored-block { border: 1px dashed #ccc; padding: 12px 16px; margin: 1.5em 0; font-size: 13px; color: #777; }
.entry-footer { font-size: 13px; color: #999; border-top: 1px solid #eee; padding-top: 12px; }
.entry-footer a { margin-right: 8px; }
.newsletter-box { margin: 28px 0; padding: 20px; background: #23282d; color: #eee; border-radius: 4px; }
.newsletter-box h4 { margin: 0 0 6px; font-size: 18px; }
.related-posts { margin-top: 28px; }
.related-posts h3, .comments-title { font-size: 18px; font-weight: 800; color: #23282d; border-bottom: 3px solid var(--accent); display: inline-block; padding-bottom: 4px; }
.related-posts ul { padding-left: 18px; }
.related-posts li { margin-bottom: 8px; font-size: 15px; }
.comments-area { margin-top: 32px; }
.commentlist { list-style: none; padding: 0; }
.commentlist .comment { margin-bottom: 18px; padding: 14px; border: 1px solid #eee; border-radius: 4px; }
.comment-meta { font-size: 12px; color: #999; margin-bottom: 6px; }
.comment-meta .fn { font-style: normal; font-weight: 700; color: #23282d; margin-right: 6px; }
.comment-content p { font-size: 14px; line-height: 1.55; margin: 0; color: #555; }
.reply { font-size: 12px; margin-top: 6px; }
#respond textarea { width: 100%; height: 90px; }
#respond label { display: block; font-size: 13px; margin: 8px 0 4px; }
.widget-area { flex: 0 0 320px; font-size: 14px; }
.widget { margin-bottom: 30px; }
.widget-title { font-size: 13px; text-transform: uppercase; letter-spacing: 0.1em; color: #23282d; border-bottom: 1px solid #ddd; padding-bottom: 6px; }
.widget ul { list-style: none; padding: 0; }
.widget li { padding: 6px 0; border-bottom: 1px solid #f0f0f0; }
.widget_ad { background: #fafafa; border: 1px solid #e5e5e5; padding: 18px; text-align: center; color: #666; min-height: 200px; }
.widget_ad .label { font-size: 10px; text-transform: uppercase; color: #aaa; display: block; margin-bottom: 10px; }
#colophon { background: #23282d; color: #999; padding: 24px; font-size: 13px; }
#colophon a { color: #ccc; margin-right: 14px; }
.footer-widgets { display: flex; gap: 40px; margin-bottom: 16px; }
.footer-widgets p { max-width: 520px; line-height: 1.6; }
`;

const EXTRA_MENU = ['Home', 'Latest', 'Opinion', 'Podcasts', 'Events', 'About', 'Contact'];

function block(site: SiteModel, b: BodyBlock, index: number): string {
  switch (b.kind) {
    case 'p':
      return `<p>${paragraphHtml(b)}</p>`;
    case 'h2':
      return `<h2 class="wp-block-heading">${esc(b.text)}</h2>`;
    case 'quote':
      return `<blockquote class="wp-block-quote"><p>${esc(b.text)}</p></blockquote>`;
    case 'list':
      return `<ul class="wp-block-list">\n${b.items.map((i) => `<li>${esc(i)}</li>`).join('\n')}\n</ul>`;
    case 'figure':
      return `<div class="wp-caption aligncenter" style="width: ${b.figure.width}px; max-width: 100%">${imgTag(b.figure, 'size-large')}<p class="wp-caption-text">${esc(b.figure.caption)} (${esc(b.figure.credit)})</p></div>`;
    case 'ad':
      return `<div class="sponsored-block"><strong>Sponsored</strong> · ${esc(site.ads[(index + 2) % site.ads.length])} <a href="/advertise/">Advertisement</a></div>`;
  }
}

function render(site: SiteModel, a: ArticleModel): string {
  const menu = [...EXTRA_MENU.slice(0, 2), ...site.sections, ...EXTRA_MENU.slice(2)];
  const postId = 1000 + a.index * 7;
  const body = join(
    '<div id="page" class="site">',
    `<div class="topbar"><span>${shortDate(a.published)} · ${esc(site.tagline)}</span><span><a href="/login/">Log in</a><a href="/register/">Register</a><a href="/feed.xml">RSS</a></span></div>`,
    `<header id="masthead" class="site-header"><div class="site-branding"><p class="site-title"><a href="/" rel="home">${esc(site.name)}</a></p><p class="site-description">${esc(site.tagline)}</p></div>
<form class="search-form" action="/search/"><input type="search" name="s" placeholder="Search …"><button>Search</button></form></header>`,
    `<nav id="site-navigation" class="main-navigation"><div class="menu-primary-container"><ul id="primary-menu" class="menu">
${menu.map((m, i) => `<li id="menu-item-${10 + i}" class="menu-item"><a href="${m === 'Home' ? '/' : sectionPath(m)}">${esc(m)}</a></li>`).join('\n')}
</ul></div></nav>`,
    `<div class="secondary-menu">${site.topics.map((t) => `<a href="${topicPath(t)}">#${esc(t)}</a>`).join('')}</div>`,
    '<div id="content" class="site-content">',
    '<div id="primary" class="content-area"><main id="main" class="site-main">',
    `<div class="breadcrumbs"><a href="/">Home</a> » <a href="${sectionPath(a.section)}">${esc(a.section)}</a> » <span class="current">${esc(a.headline)}</span></div>`,
    `<div class="post post-${postId} type-post status-publish hentry" id="post-${postId}">`,
    `<h1 class="entry-title">${esc(a.headline)}</h1>`,
    `<div class="entry-meta">Posted by <span class="author vcard"><a class="url fn n" href="/author/${a.author.slug}/">${esc(a.author.name)}</a></span> on <span class="posted-on">${shortDate(a.published)}</span> in <a href="${sectionPath(a.section)}">${esc(a.section)}</a> · <a href="#comments">${commentCountLabel(a.comments.length)}</a></div>`,
    `<div class="entry-content">\n${a.blocks.map((b) => block(site, b, a.index)).join('\n')}\n</div>`,
    `<div class="entry-footer">Tags: ${a.tags.map((t) => `<a href="${topicPath(t)}" rel="tag">${esc(t)}</a>`).join(', ')}</div>`,
    '</div>',
    `<div class="newsletter-box"><h4>Never miss a story</h4><p>Join thousands of readers who get our best reporting every weekday morning. No spam, unsubscribe any time.</p><form action="/subscribe/"><input type="email" placeholder="you@example.com"> <button>Subscribe</button></form></div>`,
    `<div class="related-posts"><h3>Related articles</h3><ul>
${a.related.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ul></div>`,
    `<div id="comments" class="comments-area"><h3 class="comments-title">${a.comments.length} thoughts on “${esc(a.headline)}”</h3><ol class="commentlist">
${a.comments
  .map(
    (c, i) => `<li class="comment ${i % 2 ? 'even' : 'odd'}" id="comment-${postId * 10 + i}"><article class="comment-body"><footer class="comment-meta"><cite class="fn">${esc(c.author)}</cite> <a href="#comment-${postId * 10 + i}">${shortDate(c.at)}</a></footer>
<div class="comment-content"><p>${esc(c.text)}</p></div><div class="reply"><a href="#respond">Reply</a></div></article></li>`,
  )
  .join('\n')}
</ol>
<div id="respond" class="comment-respond"><h3>Leave a Reply</h3><p>Your email address will not be published. Required fields are marked *</p><form action="/comment/" method="post"><label for="comment">Comment *</label><textarea id="comment" name="comment"></textarea><label for="author">Name *</label><input id="author" name="author"><label for="email">Email *</label><input id="email" name="email"><p><button type="submit">Post Comment</button></p></form></div>
</div>`,
    '</main></div>',
    `<div id="secondary" class="widget-area">
<section class="widget widget_search"><h2 class="widget-title">Search</h2><form action="/search/"><input type="search" name="s"></form></section>
<section class="widget widget_trending"><h2 class="widget-title">Trending</h2><ul>
${site.trending.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ul></section>
<section class="widget widget_ad"><span class="label">Advertisement</span><p>${esc(site.ads[(a.index + 1) % site.ads.length])}</p></section>
<section class="widget widget_categories"><h2 class="widget-title">Categories</h2><ul>
${site.sections.map((s, i) => `<li><a href="${sectionPath(s)}">${esc(s)}</a> (${12 + ((i * 7) % 40)})</li>`).join('\n')}
</ul></section>
<section class="widget widget_ad"><span class="label">Advertisement</span><p>${esc(site.ads[(a.index + 3) % site.ads.length])}</p></section>
</div>`,
    '</div>',
    `<footer id="colophon" class="site-footer"><div class="footer-widgets"><p>${esc(site.about)}</p><p>Got a tip? Write to us at tips@${site.host}.example. We read every message.</p></div>
<div class="site-info">${EXTRA_MENU.map((m) => `<a href="/${m.toLowerCase()}/">${m}</a>`).join('')}<a href="/privacy/">Privacy Policy</a><a href="/terms/">Terms</a> · © ${site.year} ${esc(site.name)} · Proudly powered by a content management system</div></footer>`,
    '</div>',
  );
  return page(head(site, { title: `${a.headline} | ${site.name}`, level: 'none', css: CSS }), `class="post-template-default single single-post postid-${postId}"`, body);
}

export const blog: TemplateSpec = {
  id: 'blog',
  metadata: 'none',
  leadFigure: false,
  showsDek: false,
  bodySelector: 'div.post div.entry-content',
  render,
};
