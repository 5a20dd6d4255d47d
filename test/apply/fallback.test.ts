import { describe, expect, it } from 'vitest';
import { extractFallback } from '../../lib/apply/fallback';
import { parseHtml } from '../../lib/html/parse';

const sentence = (i: number) =>
  `Paragraph ${i} of the story explains, in some detail, what happened in the town, why it matters, and what comes next for the people who live there.`;

const nav = `<nav><ul>${['Home', 'World', 'Politics', 'Sport', 'Culture', 'Science'].map((s) => `<li><a href="/${s}">${s}</a></li>`).join('')}</ul></nav>`;

const articlePage = `<!DOCTYPE html><html><head><title>Town story | Daily</title></head><body>
<header class="site-header"><a href="/">Daily</a>${nav}</header>
<div id="wrapper">
  <div id="content" class="main-content">
    <article class="post">
      <h1>Town story</h1>
      <p class="byline">By Jane Doe</p>
      ${[1, 2, 3, 4, 5, 6].map((i) => `<p>${sentence(i)}</p>`).join('\n')}
      <div class="share-tools"><a href="/s/fb">Facebook</a> <a href="/s/tw">Twitter</a> <a href="/s/mail">Email</a></div>
    </article>
    <div id="comments" class="comments"><h3>Comments</h3>
      <div class="comment"><p>First! This is a comment that says very little, but says it at length, with commas, commas, commas.</p></div>
    </div>
  </div>
  <div id="sidebar" class="sidebar"><h3>Most read</h3><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/r${i}">Another popular story number ${i}</a></li>`).join('')}</ul></div>
</div>
<footer id="footer"><p>Copyright Daily, all rights reserved. <a href="/terms">Terms</a></p></footer>
</body></html>`;

const teaser = (i: number) =>
  `<div class="item"><h2><a href="/story-${i}">Headline number ${i} about something</a></h2><p>A short teaser for story ${i}, one line.</p></div>`;
const listingPage = `<!DOCTYPE html><html><head><title>Daily - Home</title></head><body>${nav}
<div id="main" class="content">${Array.from({ length: 12 }, (_, i) => teaser(i)).join('\n')}</div>
<footer><a href="/about">About</a></footer></body></html>`;

const linkPage = `<!DOCTYPE html><html><head><title>Archive</title></head><body>${nav}
<div class="content"><p>Archive of posts.</p><ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="/p${i}">Post ${i}</a></li>`).join('')}</ul></div></body></html>`;

describe('extractFallback', () => {
  it('finds the article body of a simple article page and leaves boilerplate out', () => {
    const r = extractFallback(parseHtml(articlePage), { baseUrl: 'https://daily.example/town' });
    expect(r.notArticle).toBe(false);
    const lines = r.text.split('\n');
    for (let i = 1; i <= 6; i++) expect(lines).toContain(sentence(i));
    expect(r.text).toContain('Town story');
    expect(r.text).not.toMatch(/Most read|Copyright|First!|Facebook|Politics/);
    expect(r.html).toContain('<h1>Town story</h1>');
    expect(r.html).toContain(`<p>${sentence(1)}</p>`);
    expect(r.wordCount).toBeGreaterThan(150);
  });

  it('flags a listing of linked headlines with teasers as not an article: the votes keep almost none of it', () => {
    const r = extractFallback(parseHtml(listingPage));
    expect(r.notArticle).toBe(true);
    expect(r.reason).toBe('almost no text');
  });

  it('flags a page of links as not an article', () => {
    const r = extractFallback(parseHtml(linkPage));
    expect(r.notArticle).toBe(true);
  });

  it('flags an empty page and never throws on odd input', () => {
    expect(extractFallback(parseHtml('')).notArticle).toBe(true);
    expect(extractFallback(parseHtml('<p>just a fragment of text without a body element, but long enough to count.</p>')).text).toMatch(/fragment/);
  });

  it('relaxes its filters when they leave too little (content inside a "sidebar"-named layout)', () => {
    const page = `<html><body><div class="layout-with-sidebar"><div class="col">${[1, 2, 3, 4].map((i) => `<p>${sentence(i)}</p>`).join('')}</div></div></body></html>`;
    const r = extractFallback(parseHtml(page));
    expect(r.text.split('\n')).toEqual([1, 2, 3, 4].map(sentence));
  });
});
