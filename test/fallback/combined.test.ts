import { Readability } from '@mozilla/readability';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { extractFallback } from '../../lib/apply/fallback';
import { parseHtml } from '../../lib/html/parse';
import { generateSite, pageHtml, pagesOf } from '../../lib/demo';
import { METHODS } from '../../lib/fallback';
import { analyse, selectBlocks } from '../../lib/fallback/combined';
import { defaultCompiledModel, defaultFallbackModel } from '../../lib/fallback/default-model';
import { aggregate, scorePage } from '../../lib/metric/metric';
import { markReadability } from '../../lib/render/readability-in-page';
import { normalizeText } from '../../lib/text/match';
import { READABILITY_MARK } from '../../lib/types/feature-document';

const ORIGIN = 'http://news.example';
const site = generateSite({ seed: 'fallback-test', pagesPerTemplate: 3, templates: 4 });
const articles = pagesOf(site, { kind: 'article' });

describe('the combination on generated pages', () => {
  it('extracts the article of every template (F1 ≥ 0.95 against the generator truth)', () => {
    const body = [];
    const withTitle = [];
    for (const p of articles) {
      const r = extractFallback(parseHtml(pageHtml(site, p.path, ORIGIN)), { baseUrl: ORIGIN + p.path });
      expect(r.notArticle).toBe(false);
      body.push(scorePage(r.text, p.bodyText));
      withTitle.push(scorePage(r.text, `${p.title}\n${p.bodyText}`));
      expect(r.text.split('\n').slice(0, 3)).toContain(p.title); // a kicker may come first
      expect(r.html).toContain(`<h1>${p.title.replace(/&/g, '&amp;')}</h1>`);
    }
    expect(articles.length).toBe(12);
    expect(aggregate(body).f1).toBeGreaterThanOrEqual(0.95);
    expect(aggregate(withTitle).f1).toBeGreaterThanOrEqual(0.95);
  });

  it('leaves comments, related links, navigation and the footer out', () => {
    for (const p of articles) {
      const r = extractFallback(parseHtml(pageHtml(site, p.path, ORIGIN)));
      expect(r.text).not.toMatch(/All rights reserved|Most read|Trending|Privacy Policy/);
    }
  });

  it('marks the home page as not an article', () => {
    const home = extractFallback(parseHtml(pageHtml(site, '/', ORIGIN)));
    expect(home.notArticle).toBe(true);
    expect(home.reason).toBe('almost no text');
  });

  it("marks a learned site's home page as not an article when its headlines are left out as the site's repeated text", () => {
    // as render leaves the page (Mozilla Readability's marks keep the teasers), and as apply calls the
    // fallback on a learned site: the texts the site repeats on its other pages (its articles' titles) left out
    const dom = new JSDOM(pageHtml(site, '/', ORIGIN));
    expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
    const boilerplate = new Set(articles.map((p) => normalizeText(p.title)));
    const home = extractFallback(parseHtml(dom.serialize()), { boilerplate });
    expect(home.text).not.toContain(articles[0].title);
    expect(home.notArticle).toBe(true);
    expect(home.reason).toBe('linked headlines with teasers');
  });

  it('is deterministic and never throws on odd input', () => {
    const html = pageHtml(site, articles[0].path, ORIGIN);
    expect(extractFallback(parseHtml(html))).toEqual(extractFallback(parseHtml(html)));
    for (const odd of ['', '<p>', '<html><body><hr><hr></body></html>', '<table><tr><td>x</td></tr></table>', 'plain text']) {
      expect(() => extractFallback(parseHtml(odd))).not.toThrow();
    }
  });

  it("leaves out readers' comments under a name that says so, even one Readability spares for its 'body'", () => {
    const prose = (who: string, i: number) =>
      `${who} wrote this reply number ${i}, a long comment with opinions about the candidates, the polls in Iowa, the money raised and the weather in the state this winter.`;
    const story = [1, 2, 3, 4, 5].map((i) => `<p>Paragraph ${i} of the story: the campaign moved to Iowa this week, where the candidates spent the holidays in diners and school gyms.</p>`).join('');
    const comments = [1, 2, 3, 4, 5, 6]
      .map((i) => `<div class="comments-body"><b>${i}.</b> ${prose('Reader', i)}<p>${prose('Reader', i + 10)}</p><span class="comments-post">Posted by: Reader ${i} on December 29, 2007</span></div>`)
      .join('');
    const page = (htmlClass: string) =>
      `<html class="${htmlClass}"><head><title>Fight in Iowa | Sound Politics</title></head><body><div id="main"><h1>Fight in Iowa</h1>${story}<span class="posted">Posted by Eric at December 29, 2007</span></div><div class="comments-head">Comments</div>${comments}</body></html>`;
    for (const htmlClass of ['', 'flag-unfollowComments-on']) {
      const doc = parseHtml(page(htmlClass));
      const a = analyse(doc, defaultFallbackModel().dragnet, 'Fight in Iowa');
      expect(a.comments.filter(Boolean).length).toBeGreaterThanOrEqual(12);
      const r = extractFallback(parseHtml(page(htmlClass)), { title: 'Fight in Iowa' });
      for (const i of [1, 2, 3, 4, 5]) expect(r.text, htmlClass).toContain(`Paragraph ${i} of the story`);
      expect(r.text, htmlClass).not.toContain('wrote this reply');
    }
  });

  it("leaves out the post's filing line, the one that links its tags or categories (rel=tag) and says little else, in any words", () => {
    // prose that links tags stays text: a keyword in a paragraph, a short sentence, a hashtag, a section heading
    const paragraph = (i: number) => `<p>Paragraph ${i} of the post: the hospital moved its patients before the <a href="/tag/storm/" rel="tag">storm</a>, and the nurses stayed through the night to keep the wards running.</p>`;
    const inline = [
      '<h2><a href="/tag/housing/" rel="tag">Housing</a></h2>',
      '<p><a href="/tag/apple/" rel="tag">Apple</a> and <a href="/tag/google/" rel="tag">Google</a> shares fell sharply on Monday.</p>',
      '<p>Back home <a href="/tags/rustlang" class="mention hashtag" rel="tag">#<span>rustlang</span></a></p>',
    ];
    const story = paragraph(1) + paragraph(2) + inline.join('') + paragraph(3) + paragraph(4);
    const filed = (words: string) =>
      `<p class="small">${words} <a href="/category/news/" rel="category tag">News</a>, <a href="/category/health/" rel="category tag">Health</a> | <a href="/2012/10/storm/#respond">No Comments »</a></p>` +
      `<p class="small">Tags: <a href="/tag/storm/" rel="tag">storm</a>, <a href="/tag/hospitals/" rel="tag">hospitals</a></p>`;
    const page = (words: string) =>
      `<html><head><title>After the storm | Health Blog</title></head><body><div id="wrap"><h2>After the storm</h2>${story}${filed(words)}</div></body></html>`;
    for (const words of ['Posted in', 'Publicado en']) {
      const a = analyse(parseHtml(page(words)), defaultFallbackModel().dragnet, 'After the storm');
      expect(a.blocks.filter((_, i) => a.filing[i]).map((b) => b.text)).toEqual([`${words} News, Health | No Comments »`, 'Tags: storm, hospitals']);
      const r = extractFallback(parseHtml(page(words)), { title: 'After the storm' });
      for (const i of [1, 2, 3, 4]) expect(r.text).toContain(`Paragraph ${i} of the post`);
      // (the short sentence of two links is no filing line, as `filing` says; the classifier's cleaning may still drop it)
      for (const kept of ['Housing', 'Back home #rustlang']) expect(r.text).toContain(kept);
      expect(r.text).not.toContain('Comments');
      expect(r.text).not.toContain('hospitals');
    }
  });

  it('scores blocks by the votes and keeps one run', () => {
    const doc = parseHtml(pageHtml(site, articles[0].path, ORIGIN));
    const a = analyse(doc, defaultFallbackModel().dragnet, articles[0].title);
    expect(a.titleBlock).toBeGreaterThanOrEqual(0);
    // the generated page's comments are under a comment-named element: they score 0
    expect(a.comments.some(Boolean)).toBe(true);
    a.score.forEach((q, i) => expect(q).toBeCloseTo(a.comments[i] || a.filing[i] ? 0 : 0.25 * Number(a.strict[i]) + 0.25 * Number(a.kept[i]) + 0.5 * a.probability[i], 9));
    const sel = selectBlocks(a);
    expect(sel.span.start).toBeLessThanOrEqual(a.titleBlock);
    expect(sel.span.end).toBeGreaterThan(a.titleBlock);
    for (const b of sel.blocks) expect(b.index).toBeGreaterThanOrEqual(sel.span.start);
  });

  it('cleans out of the run what the classifier rates far below the text around it, on its own scale', () => {
    const doc = parseHtml(pageHtml(site, articles[0].path, ORIGIN));
    const a = analyse(doc, defaultFallbackModel().dragnet, articles[0].title);
    const words = (blocks: readonly { words: number }[]) => blocks.reduce((n, b) => n + b.words, 0);
    const kept = selectBlocks(a);
    // A classifier that never saw this layout rates the whole story a tenth as high: the story stays.
    const low = selectBlocks({ ...a, probability: a.probability.map((p) => p / 10) });
    expect(words(low.blocks)).toBeGreaterThanOrEqual(0.95 * words(kept.blocks));
    // One block of the run it rates as sure boilerplate goes, on either scale.
    const inside = kept.blocks.find((b) => a.blocks.indexOf(b) > a.titleBlock && b.words >= 5)!; // the title is never cleaned
    const at = a.blocks.indexOf(inside);
    const zeroed = (scale: number) => selectBlocks({ ...a, probability: a.probability.map((p, i) => (i === at ? 0 : p / scale)) });
    expect(zeroed(1).blocks).not.toContain(inside);
    expect(zeroed(10).blocks).not.toContain(inside);
  });

  it('keeps an <hr> inside the story when the page-level votes keep text on both sides of it', () => {
    const para = (n: number, topic: string) => `<p>${`The ${topic} paragraph ${n} tells how the council weighed the river plan, what the engineers said and why the vote was delayed again. `.repeat(3)}</p>`;
    const html = `<html><head><title>River plan delayed</title></head><body>
      <nav><ul>${['Home', 'World', 'Sport', 'Culture', 'Opinion'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></nav>
      <article><h1>River plan delayed</h1>${[1, 2, 3, 4, 5, 6].map((n) => para(n, 'first')).join('')}<hr>${[1, 2].map((n) => para(n, 'closing')).join('')}</article>
      <footer><a href="/about">About us</a> <a href="/privacy">Privacy</a></footer></body></html>`;
    const r = extractFallback(parseHtml(html));
    expect(r.text).toContain('The first paragraph 6');
    expect(r.text).toContain('The closing paragraph 2');
    expect(r.text).not.toMatch(/Privacy|Opinion/);
  });

  it('reads on past an inset the story flows around between two <hr>s (an ad\u2019s frame), and leaves its label out', () => {
    // As render leaves the page: Mozilla Readability's marks keep the story on both sides, not the label.
    const para = (n: number, topic: string) => `<p>${`The ${topic} paragraph ${n} tells how the council weighed the river plan, what the engineers said and why the vote was delayed. `.repeat(2)}</p>`;
    const page = (afterAd: string) => {
      const dom = new JSDOM(`<html><head><title>River plan delayed</title></head><body>
        <nav><ul>${['Home', 'World', 'Sport', 'Culture', 'Opinion'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></nav>
        <div class="story"><h1>River plan delayed</h1>${[1, 2, 3, 4].map((n) => para(n, 'first')).join('')}
        <div class="ad-box"><hr><div class="ad-label">Advertisement</div><hr></div>${afterAd}</div>
        <footer><a href="/about">About us</a> <a href="/privacy">Privacy</a></footer></body></html>`);
      expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
      const doc = parseHtml(dom.serialize());
      return { ...extractFallback(doc), doc };
    };
    const story = page([1, 2, 3].map((n) => para(n, 'closing')).join(''));
    expect(story.text).toContain('The first paragraph 4');
    expect(story.text).toContain('The closing paragraph 3');
    expect(story.text).not.toContain('Advertisement');
    // After the rules, a label the votes keep and a list of links: no story resumes there, and the run stops at the rule.
    const related = page(`<p>Related to this story:</p><ul>${['Dam vote set for June', 'Engineers back river plan', 'Council split on budget'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul>`);
    expect(related.text).toContain('The first paragraph 4');
    expect(related.text).not.toMatch(/Related to this story|Dam vote/);
    // The run itself ends with the story: the kept label alone does not carry it past the rules.
    const a = analyse(related.doc, defaultCompiledModel().dragnet, 'River plan delayed');
    const last = a.blocks.findIndex((b) => b.text.startsWith('The first paragraph 4'));
    expect(a.blocks[last + 2].text).toBe('Related to this story:');
    expect(a.readability[last + 2]).toBeGreaterThan(0.5); // kept by both votes
    expect(selectBlocks(a).span.end).toBe(last);
  });

  it('keeps the cells of a data table in the story, which the classifier rates as it rates a menu', () => {
    const para = (n: number) => `<p>${`Paragraph ${n} tells how the release schedule slipped through the year and what the developers said about it. `.repeat(2)}</p>`;
    const rows = [['4.2.3', 'April 2014'], ['4.2.4', 'May 2014'], ['4.3', 'July 2014'], ['4.3.1', 'August 2014'], ['4.3.4', 'November 2014'], ['4.4', 'January 2015']];
    const table = `<table><tr><th>Release</th><th>Date</th></tr>${rows.map(([r, d]) => `<tr><td>${r}</td><td>${d}</td></tr>`).join('')}</table>`;
    const html = `<html><head><title>Release history</title></head><body>
      <nav><ul>${['Home', 'World', 'Sport', 'Culture', 'Opinion'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></nav>
      <article><h1>Release history</h1>${[1, 2, 3].map(para).join('')}${table}${[4, 5].map(para).join('')}</article>
      <footer><a href="/about">About us</a> <a href="/privacy">Privacy</a></footer></body></html>`;
    const dom = new JSDOM(html);
    expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
    for (const page of [html, dom.serialize()]) {
      const a = analyse(parseHtml(page), defaultCompiledModel().dragnet, 'Release history');
      const cells = a.blocks.filter((b) => /^(4\.\d|\w+ 201\d)/.test(b.text));
      expect(cells).toHaveLength(12);
      // the classifier's rating: far below the story's, as a menu's (the cleaning's test for boilerplate)
      expect(cells.filter((b) => a.probability[b.index] < 0.1).length).toBeGreaterThan(cells.length / 2);
      const r = extractFallback(parseHtml(page));
      expect(r.text).toContain('November 2014');
      expect(r.text).toContain('Paragraph 5');
      expect(r.html).toContain('<td>4.3.4</td>');
      expect(r.text).not.toMatch(/Opinion|Privacy/);
    }
  });

  it('keeps the short lines of the story (a recipe\u2019s ingredients) that the classifier rates as a menu\u2019s, written as its paragraphs are and between them', () => {
    const para = (n: number) => `<p>${`Step ${n}: warm the oil in a heavy pot, brown the chicken on both sides and set it aside while the onions soften slowly. `.repeat(2)}</p>`;
    const ingredients = ['2 tsp vegetable oil', '1 large onion', '4 cloves garlic', '1 tsp cumin', 'salt and pepper to taste', '3 cups chicken broth'];
    const page = (lines: string) => {
      const dom = new JSDOM(`<html><head><title>White bean chicken chili</title></head><body>
        <nav><ul>${['Home', 'Recipes', 'Videos', 'About'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></nav>
        <div class="post"><h1>White bean chicken chili</h1>${[1, 2].map(para).join('')}${lines}</div>
        <footer><a href="/about">About us</a> <a href="/privacy">Privacy</a></footer></body></html>`);
      expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
      const html = dom.serialize();
      return { a: analyse(parseHtml(html), defaultCompiledModel().dragnet, 'White bean chicken chili'), text: extractFallback(parseHtml(html)).text };
    };
    const lines = (attributes: string) => `<p${attributes}>Ingredients for 4 portions:</p>${ingredients.map((l) => `<p${attributes}>${l}</p>`).join('')}`;
    const story = page(`${lines('')}${[3, 4, 5].map(para).join('')}`);
    // the classifier's rating of most of them: sure boilerplate (under 0.1 and far below the story's); every vote keeps them
    const rated = story.a.blocks.filter((b) => ingredients.includes(b.text));
    expect(rated.filter((b) => story.a.probability[b.index] < 0.1).length).toBeGreaterThanOrEqual(3);
    for (const b of rated) expect(story.a.strict[b.index] && story.a.kept[b.index] && story.a.readability[b.index] === 1).toBe(true);
    for (const l of ingredients) expect(story.text).toContain(l);
    // the same lines in markup of their own (a box the template adds): the classifier's rating stands
    const boxed = page(`${lines(' class="promo"')}${[3, 4, 5].map(para).join('')}`);
    expect(boxed.text).toContain('Step 5');
    expect(boxed.text).not.toContain('1 large onion');
    // and so it does after the story's last paragraph: no paragraph of the story vouches for them from below
    const after = page(`${[3, 4, 5].map(para).join('')}${lines('')}`);
    expect(after.text).toContain('Step 5');
    expect(after.text).not.toContain('1 large onion');
  });

  it('keeps a short line the votes keep after a plain section break', () => {
    const para = (n: number, topic: string) => `<p>${`The ${topic} paragraph ${n} tells how the council weighed the river plan, what the engineers said and why the vote was delayed. `.repeat(2)}</p>`;
    const run = (middle: string) => {
      const dom = new JSDOM(`<html><head><title>River plan delayed</title></head><body>
        <div class="story"><h1>River plan delayed</h1>${[1, 2, 3, 4, 5].map((n) => para(n, 'first')).join('')}${middle}</div></body></html>`);
      expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
      const doc = parseHtml(dom.serialize());
      const a = analyse(doc, defaultCompiledModel().dragnet, 'River plan delayed');
      return { a, span: selectBlocks(a).span };
    };
    // a section break, then a short closing line both votes keep: the run goes on to it
    const closing = run('<hr><p>That is the end of it.</p>');
    expect(closing.a.blocks[closing.span.end].text).toBe('That is the end of it.');
  });

  it('still parts the texts on either side of a box of a paragraph\u2019s worth of words between two <hr>s, keeping the better one', () => {
    const para = (n: number, topic: string) => `<p>${`The ${topic} paragraph ${n} tells how the council weighed the river plan, what the engineers said and why the vote was delayed. `.repeat(2)}</p>`;
    const dom = new JSDOM(`<html><head><title>River plan delayed</title></head><body>
      <div class="story"><h1>River plan delayed</h1>${[1, 2, 3, 4, 5].map((n) => para(n, 'first')).join('')}
      <div class="promo"><hr><div class="promo-text"><a href="/subscribe">Subscribe today and save half on your first year of home delivery</a></div><hr></div>${[1, 2].map((n) => para(n, 'other')).join('')}</div>
      </body></html>`);
    expect(markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i').ok).toBe(true);
    const r = extractFallback(parseHtml(dom.serialize()));
    expect(r.text).toContain('The first paragraph 5');
    expect(r.text).not.toMatch(/Subscribe today|The other paragraph/);
  });

  it('leaves out the text the story\u2019s container shows before its first block and after its last (a loose dateline, a notice)', () => {
    const para = (n: number) => `<p>${`Paragraph ${n} tells how the council weighed the river plan, what the engineers said and why the vote was delayed again. `.repeat(3)}</p>`;
    const links = (label: string) => `<div class="${label}"><h3>${label}</h3><ul>${['Delicious', 'Digg', 'Facebook', 'Twitter', 'Email'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></div>`;
    const html = `<html><head><title>River plan delayed</title></head><body>
      <nav><ul>${['Home', 'World', 'Sport', 'Culture', 'Opinion'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></nav>
      <div class="story-body"><span class="story-date"><span>30 May 2013</span> <span>Last updated at 17:56 ET</span></span>${links('Share this page')}
      <div class="hero"><img src="/river.jpg" alt="The river"></div><h1>River plan delayed</h1>${[1, 2, 3, 4, 5].map(para).join('')}${links('Related stories')}<span class="notice">The council is not responsible for external sites</span></div>
      <footer><a href="/about">About us</a> <a href="/privacy">Privacy</a></footer></body></html>`;
    const r = extractFallback(parseHtml(html));
    expect(r.text.split('\n')[0]).toBe('River plan delayed');
    expect(r.text).toContain('Paragraph 5 tells');
    expect(r.text).not.toMatch(/Last updated|not responsible|Delicious|Privacy/);
    // a picture shows no text: the lead picture stays in the HTML
    expect(r.html).toContain('river.jpg');
    expect(r.html).not.toContain('Last updated');
  });

  it('runs every method on its own (on the page as the render leaves it: with Readability\'s marks)', () => {
    // Mozilla Readability marks the page as it does in the rendered page (lib/render/readability-in-page.ts), here in jsdom
    const dom = new JSDOM(pageHtml(site, articles[1].path, ORIGIN));
    const marks = markReadability(dom.window.document, Readability, READABILITY_MARK, 'data-spider-i');
    expect(marks.ok).toBe(true);
    expect(marks.marked).toBeGreaterThan(0);
    const marked = dom.serialize();
    const doc = () => parseHtml(marked);
    const truth = articles[1].bodyText;
    for (const [name, method] of Object.entries(METHODS)) {
      const out = method(doc(), { baseUrl: ORIGIN + articles[1].path });
      const s = scorePage(out.text, truth);
      expect(s.tp, name).toBeGreaterThan(0.3);
    }
  });
});
