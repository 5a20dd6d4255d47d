import { describe, expect, it } from 'vitest';
import { renderContent, type ContentLine } from '../../lib/html/content';
import { extractWithRules } from '../../lib/html/extract-with-rules';
import { notArticleReason, renderedEvidence, type NotArticleEvidence } from '../../lib/html/not-article';
import { elements, parseHtml } from '../../lib/html/parse';

const sentence = (i: number) => `Sentence ${i} of the story tells the reader what happened at the town hall on the evening of the council's long vote.`;
const paragraph = (i: number) => `${sentence(i)} ${sentence(i + 100)}`;
const nav = `<nav>${['Home', 'News', 'Politics', 'Business', 'Sports', 'Arts', 'Opinion', 'Weather'].map((s) => `<a href="/${s}">${s}</a>`).join(' ')}</nav>`;
const footer = `<footer><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/f${i}">Footer link number ${i}</a></li>`).join('')}</ul></footer>`;
const page = (main: string) => `<html><head><title>Page</title></head><body>${nav}<main>${main}</main>${footer}</body></html>`;

/** The verdict on what the rules select on the page. */
function verdict(html: string, selectors: string[]): string {
  const doc = parseHtml(html);
  return notArticleReason(renderedEvidence(doc, extractWithRules(doc, { selectors, clean: [] })));
}

describe('the lines renderContent gives', () => {
  it('say which are headings and what of each is link text', () => {
    const doc = parseHtml('<div><h2><a href="/a">Linked headline</a></h2><p>Text with <a href="/b">a link</a> and <a href="#n">a note</a>.</p><h3>Plain <em>heading</em></h3></div>');
    const lines: ContentLine[] = [];
    const out = renderContent([[...elements(doc)].find((e) => e.name === 'div')!], { lines });
    expect(lines.map((l) => l.text)).toEqual(out.text.split('\n'));
    expect(lines).toEqual([
      { text: 'Linked headline', heading: 2, linkText: 'Linked headline' },
      { text: 'Text with a link and a note.', heading: 0, linkText: 'a link a note' },
      { text: 'Plain heading', heading: 3, linkText: '' },
    ]);
  });
});

describe('the not-an-article test on what the rules select', () => {
  it('finds a login form in the body\'s place almost no text', () => {
    const login = page('<h1>Sign in</h1><div class="story-body"><p><label>Email</label> <input type="email"></p><p><label>Password</label> <input type="password"></p><p><a href="/forgot">Forgot your password?</a></p></div>');
    expect(verdict(login, ['div.story-body > p'])).toBe('almost no text');
  });

  it('finds little text on a page mostly of links no article, and the same text on a page of prose one', () => {
    const short = `<div class="story-body"><p>${sentence(1)}</p><p>${sentence(2)}</p></div>`;
    expect(verdict(page(short), ['div.story-body > p'])).toBe('little text, mostly links');
    const prose = `${short}<div class="comments">${[3, 4, 5].map((i) => `<p>${paragraph(i)}</p>`).join('')}</div>`;
    expect(verdict(page(prose), ['div.story-body > p'])).toBe('');
  });

  it('finds a tag listing in the body\'s place, its headlines taken or left between its teasers, linked headlines with teasers', () => {
    const teasers = Array.from({ length: 8 }, (_, i) => `<h2><a href="/s${i}">Council approves plan number ${i} for the river</a></h2><p>${sentence(i)}</p>`).join('');
    const tag = page(`<h1>Stories tagged: Housing</h1><div class="story-body">${teasers}</div>`);
    expect(verdict(tag, ['div.story-body > p', 'div.story-body > h2'])).toBe('linked headlines with teasers');
    // a blog's archive: the rules take each post's excerpt, the headlines stand between them
    const posts = Array.from({ length: 8 }, (_, i) => `<article><h2 class="entry-title"><a href="/p${i}">Post number ${i} about the river</a></h2><div class="entry-content"><p>${sentence(i)}</p></div></article>`).join('');
    expect(verdict(page(posts), ['div.entry-content > p'])).toBe('linked headlines with teasers');
  });

  it('leaves an article alone: with linked subheads among long paragraphs, with a box of linked headlines between its parts, of short paragraphs', () => {
    const sections = [1, 2, 3, 4].map((i) => `<h2><a href="#s${i}">Section ${i}</a></h2><p>${paragraph(i)}</p>`).join('');
    expect(verdict(page(`<div class="story-body">${sections}</div>`), ['div.story-body > p', 'div.story-body > h2'])).toBe('');
    // a related box between two of the story's paragraphs counts as one headline
    const related = `<aside>${[1, 2, 3, 4].map((i) => `<h3><a href="/r${i}">Related story ${i}</a></h3>`).join('')}</aside>`;
    const story = `<div class="story-body"><p>${sentence(1)} ${sentence(2)}</p>${related}<p>${sentence(3)}</p><p>${sentence(4)}</p></div>`;
    expect(verdict(page(story), ['div.story-body > p'])).toBe('');
    const brief = `<div class="story-body">${[1, 2, 3, 4, 5].map((i) => `<p>${sentence(i)}</p>`).join('')}</div>`;
    expect(verdict(page(brief), ['div.story-body > p'])).toBe('');
  });

  it('asks an ordinary article for nothing but its words and its first long paragraphs', () => {
    let asked = 0;
    const article: NotArticleEvidence = {
      words: 800,
      pageLinkDensity: () => {
        throw new Error('the page is walked for a short text only');
      },
      longParagraphs: (enough) => {
        asked++;
        return enough;
      },
      linkedHeadlines: () => {
        throw new Error('headlines are counted only without enough long paragraphs');
      },
    };
    expect(notArticleReason(article)).toBe('');
    expect(asked).toBe(1);
  });
});
