/**
 * Template "legacy": a 2000s-era site laid out with tables. Verdana, fixed 960px width, left navigation
 * column, body in `<td class="article-text">` as <p>s. No metadata. Only used when a site asks for 4 templates.
 */
import type { ArticleModel, BodyBlock, SiteModel, TemplateSpec } from '../model';
import { esc, head, imgTag, join, numericDate, page, paragraphHtml, sectionPath, topicPath } from './shared';

const CSS = `
body { margin: 0; background: #d9dee4; font-family: Verdana, Geneva, Tahoma, sans-serif; font-size: 12px; color: #000; }
a { color: #003399; }
a:visited { color: #551a8b; }
table.frame { width: 960px; margin: 0 auto; background: #fff; border-collapse: collapse; }
td { vertical-align: top; }
td.banner { background: #003366; color: #fff; padding: 12px 16px; }
td.banner .sitename { font: bold 26px Tahoma, Verdana, sans-serif; color: #fff; text-decoration: none; }
td.banner .motto { font-size: 11px; color: #b8c7da; }
td.menubar { background: #e8edf3; border-bottom: 1px solid #a8b4c4; padding: 4px 10px; font-size: 11px; }
td.menubar a { margin-right: 8px; }
td.leftnav { width: 160px; background: #f3f5f8; border-right: 1px solid #c5ced9; padding: 10px; font-size: 11px; line-height: 1.9; }
td.leftnav .navhead { font-weight: bold; color: #003366; border-bottom: 1px solid #c5ced9; margin: 10px 0 4px; }
td.maincol { padding: 14px 20px; }
td.rightcol { width: 180px; padding: 10px; border-left: 1px solid #c5ced9; font-size: 11px; }
.path { font-size: 10px; color: #666; margin-bottom: 8px; }
.arttitle { font: bold 24px Arial, Helvetica, sans-serif; color: #003366; margin: 4px 0 6px; }
.artinfo { font-size: 11px; color: #666; margin-bottom: 14px; }
.artinfo b { color: #000; }
td.article-text p { font-size: 14px; line-height: 1.6; margin: 0 0 12px; text-align: justify; }
td.article-text h2 { font: bold 16px Arial, Helvetica, sans-serif; color: #990000; margin: 18px 0 8px; border-bottom: 1px dotted #999; }
td.article-text blockquote { margin: 14px 30px; padding: 8px 12px; background: #ffffe0; border: 1px solid #e0dca0; font: 13px/1.5 "Courier New", Courier, monospace; color: #333; }
td.article-text ul { margin: 0 0 12px 10px; }
td.article-text li { font-size: 12px; line-height: 1.5; color: #222; list-style-type: square; }
.photo { border: 1px solid #999; padding: 4px; background: #f5f5f5; margin: 0 0 12px; }
.photo img { width: 100%; height: auto; }
.photo .cap { font-size: 10px; color: #555; }
.adtable { width: 100%; border: 1px solid #ccc; background: #fafafa; margin: 12px 0; font-size: 10px; color: #777; text-align: center; }
.boxhead { background: #003366; color: #fff; font-weight: bold; padding: 3px 6px; margin-top: 10px; }
.box { border: 1px solid #c5ced9; padding: 6px; margin-bottom: 10px; }
.box li { margin-bottom: 4px; }
.comments td { border-top: 1px solid #ddd; padding: 6px 0; font-size: 12px; }
.comments .who { font-weight: bold; color: #003366; }
.comments .ctext { color: #333; }
td.footer { background: #e8edf3; border-top: 1px solid #a8b4c4; padding: 10px 16px; font-size: 10px; color: #555; text-align: center; }
`;

function block(site: SiteModel, b: BodyBlock): string {
  switch (b.kind) {
    case 'p':
      return `<p>${paragraphHtml(b)}</p>`;
    case 'h2':
      return `<h2>${esc(b.text)}</h2>`;
    case 'quote':
      return `<blockquote>${esc(b.text)}</blockquote>`;
    case 'list':
      return `<ul>\n${b.items.map((i) => `<li>${esc(i)}</li>`).join('\n')}\n</ul>`;
    case 'figure':
      return `<table class="photo" width="100%"><tr><td>${imgTag(b.figure)}<br><span class="cap">${esc(b.figure.caption)} [${esc(b.figure.credit)}]</span></td></tr></table>`;
    case 'ad':
      return `<table class="adtable"><tr><td>- Advertisement -<br>${esc(site.ads[1 % site.ads.length])}</td></tr></table>`;
  }
}

function render(site: SiteModel, a: ArticleModel): string {
  const body = join(
    '<table class="frame" cellpadding="0" cellspacing="0">',
    `<tr><td class="banner" colspan="3"><a class="sitename" href="/">${esc(site.name)}</a><br><span class="motto">${esc(site.tagline)}</span></td></tr>`,
    `<tr><td class="menubar" colspan="3"><a href="/">Home</a> | ${site.sections.map((s) => `<a href="${sectionPath(s)}">${esc(s)}</a>`).join(' | ')} | <a href="/contact/">Contact</a></td></tr>`,
    '<tr>',
    `<td class="leftnav"><div class="navhead">Sections</div>${site.sections.map((s) => `<a href="${sectionPath(s)}">${esc(s)}</a>`).join('<br>')}
<div class="navhead">Topics</div>${site.topics.map((t) => `<a href="${topicPath(t)}">${esc(t)}</a>`).join('<br>')}
<div class="navhead">Services</div><a href="/archive/">Archive</a><br><a href="/subscribe/">Subscribe</a><br><a href="/classifieds/">Classifieds</a><br><a href="/feed.xml">RSS</a></td>`,
    '<td class="maincol">',
    `<div class="path">You are here: <a href="/">Home</a> &gt; <a href="${sectionPath(a.section)}">${esc(a.section)}</a> &gt; Article</div>`,
    '<table width="100%" cellpadding="0" cellspacing="0"><tr><td>',
    `<h1 class="arttitle">${esc(a.headline)}</h1>`,
    `<div class="artinfo">Written by <b>${esc(a.author.name)}</b> | ${numericDate(a.published)} | <a href="#comments">Comments (${a.comments.length})</a> | <a href="#print">Print</a> | <a href="#email">E-mail</a></div>`,
    '</td></tr>',
    `<tr><td class="article-text">\n${a.blocks.map((b) => block(site, b)).join('\n')}\n</td></tr>`,
    '</table>',
    `<div class="boxhead">Related articles</div><div class="box"><ul>
${a.related.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ul></div>`,
    `<a name="comments"></a><div class="boxhead">Reader comments</div><table class="comments" width="100%">
${a.comments.map((c) => `<tr><td><span class="who">${esc(c.author)}</span> wrote on ${numericDate(c.at)}:<br><span class="ctext">${esc(c.text)}</span></td></tr>`).join('\n')}
</table>`,
    '</td>',
    `<td class="rightcol"><div class="boxhead">Trending</div><div class="box"><ul>
${site.trending.map((l) => `<li><a href="${l.path}">${esc(l.title)}</a></li>`).join('\n')}
</ul></div>
<table class="adtable"><tr><td>Advertisement<br><br>${esc(site.ads[(a.index + 1) % site.ads.length])}<br><br></td></tr></table>
<table class="adtable"><tr><td>Advertisement<br><br>${esc(site.ads[(a.index + 2) % site.ads.length])}<br><br></td></tr></table></td>`,
    '</tr>',
    `<tr><td class="footer" colspan="3">${esc(site.about)}<br><a href="/about/">About</a> | <a href="/privacy/">Privacy</a> | <a href="/terms/">Terms</a> | Copyright © ${site.year} ${esc(site.name)}</td></tr>`,
    '</table>',
  );
  return page(head(site, { title: `${a.headline} | ${site.name}`, level: 'none', css: CSS }), '', body);
}

export const legacy: TemplateSpec = {
  id: 'legacy',
  metadata: 'none',
  leadFigure: false,
  showsDek: false,
  bodySelector: 'td.article-text',
  render,
};
