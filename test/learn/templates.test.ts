import { describe, expect, it } from 'vitest';
import { parseRuleSelector } from '../../lib/learn/consolidate';
import { learnRules } from '../../lib/learn/learn-rules';
import { withSiteStableNames } from '../../lib/learn/names';
import { selectorTakes } from '../../lib/learn/shorten';
import { groupByLayout, jaccard, layoutKinds, layoutSelectors } from '../../lib/learn/templates';
import type { FeatureDocument } from '../../lib/types/feature-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import { blogPage, makeBlock, newsPage } from './factory';

const news = (n: number, from = 0) => Array.from({ length: n }, (_, k) => newsPage(from + k).doc);
const blog = (n: number, from = 0) => Array.from({ length: n }, (_, k) => blogPage(from + k));

describe('groupByLayout', () => {
  it('groups the pages of two templates apart, the larger group first', () => {
    const docs = [...blog(2, 10), ...news(3)];
    const kinds = layoutKinds(withSiteStableNames(docs));
    expect(jaccard(kinds[2], kinds[3])).toBeGreaterThan(0.6);
    expect(jaccard(kinds[0], kinds[2])).toBeLessThan(0.3);
    expect(groupByLayout(kinds)).toEqual([[2, 3, 4], [0, 1]]);
  });

  it('learns a page of a layout too rare for a template of its own with the template most like it', () => {
    const docs = [...news(3), ...blog(3, 10)];
    const odd = { ...newsPage(20).doc, pageId: 'odd' };
    odd.blocks = odd.blocks.slice(0, 12); // the news layout, a page without its comments and footer
    const kinds = layoutKinds(withSiteStableNames([...docs, odd]));
    expect(groupByLayout(kinds)).toEqual([[0, 1, 2, 6], [3, 4, 5]]);
    // a page alone in its layout beside one template: one template, every page
    expect(groupByLayout(layoutKinds(withSiteStableNames([...news(4), blogPage(10)])))).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('keeps one group for pages of one template, and for too few pages to learn two templates', () => {
    expect(groupByLayout(layoutKinds(withSiteStableNames(news(6))))).toEqual([[0, 1, 2, 3, 4, 5]]);
    expect(groupByLayout(layoutKinds(withSiteStableNames([...news(2), ...blog(1)])))).toEqual([[0, 1, 2]]);
  });

  it("gives each template the selectors on its pages and on no other template's", () => {
    const pages = [...news(3), ...blog(3, 10)];
    const kinds = layoutKinds(withSiteStableNames(pages));
    const groups = groupByLayout(kinds);
    const [newsLayout, blogLayout] = layoutSelectors(kinds, groups, pages);
    expect(newsLayout.length).toBe(10);
    expect(blogLayout.length).toBe(10);
    for (const s of newsLayout) expect(kinds.slice(3).some((k) => k.has(s)), s).toBe(false);
    for (const s of blogLayout) expect(kinds.slice(0, 3).some((k) => k.has(s)), s).toBe(false);
    expect(newsLayout).toContain('body > div#page.wrap > main.content > article.post > div.article-body > p');
    expect(blogLayout).toContain('body > div#blog.layout > section.stream > div.entry > div.entry-text > p');
  });

  it("leaves out a kind that, as a selector, matches an element of another template's pages", () => {
    // the news pages show a notice written straight into an unnamed div; the blog pages have such a
    // div too, around a paragraph: `body > div` names the notice's kind and matches the blog's div
    const withNotice = (d: FeatureDocument) => ({ ...d, blocks: [...d.blocks, makeBlock({ text: 'We use cookies to run this site.', path: 'div:5' })] });
    const withWrapper = (d: FeatureDocument) => ({ ...d, blocks: [...d.blocks, makeBlock({ text: 'A note from the author.', path: 'div:6 > p:1' })] });
    const pages = [...news(3).map(withNotice), ...blog(3, 10).map(withWrapper)];
    const kinds = layoutKinds(withSiteStableNames(pages));
    expect(kinds[0].has('body > div')).toBe(true);
    const groups = groupByLayout(kinds);
    expect(groups).toEqual([[0, 1, 2], [3, 4, 5]]);
    const [newsLayout, blogLayout] = layoutSelectors(kinds, groups, pages, { maxLayoutSelectors: 100 });
    expect(newsLayout).not.toContain('body > div');
    expect(newsLayout.length).toBeGreaterThan(5);
    // the blog's `body > div > p` matches nothing on the news pages: it stays
    expect(blogLayout).toContain('body > div > p');
  });

  it('leaves out a kind whose selector is longer than a rules document holds', () => {
    // a banner 30 elements deep, each with a long class list (utility-class CSS)
    const deep = Array.from({ length: 30 }, (_, k) => `div.${'u'.repeat(60)}-${k}:1`).join(' > ');
    const withBanner = (d: FeatureDocument) => ({ ...d, blocks: [...d.blocks, makeBlock({ text: 'Subscribe today for the full story.', path: deep })] });
    const pages = [...news(3).map(withBanner), ...blog(3, 10)];
    const kinds = layoutKinds(withSiteStableNames(pages));
    const long = [...kinds[0]].find((k) => k.length > 2048);
    expect(long).toBeDefined();
    const [newsLayout] = layoutSelectors(kinds, groupByLayout(kinds), pages, { maxLayoutSelectors: 1000 });
    expect(newsLayout).not.toContain(long);
    const rules = learnRules(pages);
    expect(rules.templates).toHaveLength(2);
    expect(() => RulesDocumentSchema.parse({ version: 1, site: 'news.example', rulesVersion: 1, learnedAt: new Date(0).toISOString(), ...rules })).not.toThrow();
  });
});

describe('learnRules on a site of two templates', () => {
  it("learns each template's rules from its own pages, beside the rules of every page", () => {
    const docs = [...news(3), ...blog(3, 10)];
    const rules = learnRules(docs);
    expect(rules.templates).toHaveLength(2);
    // groups of one size: the group of the newest page first
    const [b, a] = rules.templates!;
    expect(a.learnedFrom.sort()).toEqual(['page-00', 'page-01', 'page-02']);
    expect(b.learnedFrom.sort()).toEqual(['blog-10', 'blog-11', 'blog-12']);
    expect(a.content.selectors[0]).toBe('div.article-body > p');
    expect(b.content.selectors[0]).toBe('div.entry-text > p');
    // each template's selectors are its own: they take nothing on the other layout's pages
    const takesOn = (selectors: readonly string[], pages: readonly FeatureDocument[]) =>
      pages.some((d) => d.blocks.some((bl) => selectors.some((s) => selectorTakes(parseRuleSelector(s)!, bl.path))));
    expect(takesOn(a.content.selectors, blog(3, 10))).toBe(false);
    expect(takesOn(b.content.selectors, news(3))).toBe(false);
    expect(takesOn(a.content.selectors, news(3))).toBe(true);
    expect(a.selfCheck).toMatchObject({ pages: 3, recall: 1, precision: 1 });
    // the rules of every page, for a page of neither layout, take both templates' bodies
    expect(rules.content.selectors).toEqual(expect.arrayContaining([a.content.selectors[0], b.content.selectors[0]]));
    expect(rules.learnedFrom).toHaveLength(6);
    // the document validates with them
    expect(() => RulesDocumentSchema.parse({ version: 1, site: 'news.example', rulesVersion: 1, learnedAt: new Date(0).toISOString(), ...rules })).not.toThrow();
  });

  it('learns no templates for pages of one layout, nor when switched off', () => {
    expect(learnRules(news(6)).templates).toBeUndefined();
    expect(learnRules([...news(3), ...blog(3, 10)], { templateSimilarity: 0 }).templates).toBeUndefined();
  });
});
