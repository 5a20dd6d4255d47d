import { describe, expect, it } from 'vitest';
import { extractWithRules } from '../../lib/html/extract-with-rules';
import { fetchPathVerdict } from '../../lib/html/fetch-verdict';
import { parseHtml } from '../../lib/html/parse';
import { chooseTemplate, contentRulesFor } from '../../lib/html/template-choice';
import type { RulesDocument, TemplateRule } from '../../lib/types/rules-document';

const story = 'The council voted late on Tuesday to keep the old library open for another year of readers.';
const blurb = 'Our newsletter brings the best of the week to your inbox every Friday morning, free of charge.';

/** A news story: the body in article.story; a promotion box of prose in div.promo beside it. */
const newsPage = (extra = '') =>
  parseHtml(`<html><body><div id="page"><article class="story"><h1>Library</h1><div class="body"><p>${story}</p><p>${story}</p></div></article>
  <div class="promo"><p>${blurb}</p></div>${extra}</div><footer><p>© Example</p></footer></body></html>`);
/** A blog post of the same site: the body in div.post-text; the news template's body class nowhere. */
const blogPage = () =>
  parseHtml(`<html><body><div id="blog"><div class="post"><h2 class="post-title">Library</h2><div class="post-text"><p>${story}</p></div>
  <ul class="tags"><li>library</li></ul></div></div><footer><p>© Example</p></footer></body></html>`);

const templates: TemplateRule[] = [
  {
    layout: ['body > div#page > article.story > h1', 'body > div#page > article.story > div.body > p', 'body > div#page > div.promo > p'],
    learnedFrom: ['n1', 'n2'],
    content: { selectors: ['body > div#page > article.story > div.body > p'], clean: [] },
    selfCheck: { pages: 2, recall: 1, precision: 1, adjusted: [] },
  },
  {
    layout: ['body > div#blog > div.post > h2.post-title', 'body > div#blog > div.post > div.post-text > p', 'body > div#blog > div.post > ul.tags > li'],
    learnedFrom: ['b1', 'b2'],
    content: { selectors: ['body > div#blog > div.post > div.post-text > p'], clean: [] },
    selfCheck: { pages: 2, recall: 1, precision: 1, adjusted: [] },
  },
];
/** The rules of every page: both bodies, and the promotion box (prose like a blog post's on the blog pages). */
const rules: Pick<RulesDocument, 'content' | 'templates'> = {
  content: { selectors: ['body > div#page > article.story > div.body > p', 'body > div#page > div.promo > p', 'body > div#blog > div.post > div.post-text > p'], clean: [] },
  templates,
};

describe('chooseTemplate', () => {
  it('chooses the template whose layout selectors the page matches', () => {
    expect(chooseTemplate(newsPage(), templates)).toBe(0);
    expect(chooseTemplate(blogPage(), templates)).toBe(1);
  });

  it('chooses none for a page matching under half of every layout: the rules of every page serve it', () => {
    const other = parseHtml(`<html><body><div id="page"><div class="gallery"><p>${story}</p></div></div></body></html>`);
    expect(chooseTemplate(other, templates)).toBeUndefined();
    expect(contentRulesFor(other, rules)).toEqual({ content: rules.content });
    // a third of the news layout (the story's h1 alone) is not enough either
    const headlineOnly = parseHtml('<html><body><div id="page"><article class="story"><h1>Library</h1></article></div></body></html>');
    expect(chooseTemplate(headlineOnly, templates)).toBeUndefined();
    expect(contentRulesFor(newsPage(), { content: rules.content })).toEqual({ content: rules.content });
  });

  it("serves each page with its template's rules, leaving out what the rules of every page take", () => {
    const page = newsPage();
    const chosen = contentRulesFor(page, rules);
    expect(chosen.template).toBe(0);
    expect(extractWithRules(page, chosen.content).text).not.toContain('newsletter');
    expect(extractWithRules(page, rules.content).text).toContain('newsletter');
    expect(extractWithRules(blogPage(), contentRulesFor(blogPage(), rules).content).text).toBe(story);
  });

  it('counts only the layout selectors that compile', () => {
    // one of three compiles and matches: the page is of that template (1 of 1), not short of half (1 of 3)
    const broken = [{ ...templates[0], layout: ['body > div#page > article.story > h1', 'p:unknown-pseudo', 'div:has(>'] }, templates[1]];
    expect(chooseTemplate(newsPage(), broken)).toBe(0);
  });

  it('chooses the first of two templates the page matches as well (the larger)', () => {
    const twice = [templates[1], { ...templates[1], learnedFrom: ['b3'] }];
    expect(chooseTemplate(blogPage(), twice)).toBe(0);
    expect(chooseTemplate(blogPage(), [templates[0], ...twice])).toBe(1);
  });

  it('matches a layout selector whose tag has an escaped character (Word markup)', () => {
    const word = parseHtml('<html><body><div class="w"><o:p>Note</o:p></div></body></html>');
    const template = { ...templates[0], layout: ['body > div.w > o\\:p'] };
    expect(chooseTemplate(word, [template, templates[1]])).toBe(0);
  });
});

describe('fetchPathVerdict with templates', () => {
  it('checks each page with the rules apply would choose for it', () => {
    // served HTML without the promotion box (scripts add it): the template's rules give the same article on both
    const served = parseHtml(`<html><body><div id="page"><article class="story"><h1>Library</h1><div class="body"><p>${story}</p><p>${story}</p></div></article></div><footer><p>© Example</p></footer></body></html>`);
    const pages = [{ pageId: 'n3', rendered: newsPage(), served }];
    expect(fetchPathVerdict(rules, pages, 0.99, new Date(0)).works).toBe(true);
    expect(fetchPathVerdict({ content: rules.content }, pages, 0.99, new Date(0)).works).toBe(false);
  });
});
