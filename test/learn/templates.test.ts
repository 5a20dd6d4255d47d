import { describe, expect, it } from 'vitest';
import { learnRules } from '../../lib/learn/learn-rules';
import { withSiteStableNames } from '../../lib/learn/names';
import { groupByLayout, jaccard, layoutKinds, layoutSelectors } from '../../lib/learn/templates';
import type { FeatureDocument, PathStep } from '../../lib/types/feature-document';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import { newsPage, selectorOf } from './factory';

/**
 * The news site's page i laid out by another template: the same blocks under other elements and
 * names (a blog's `section.stream > div.entry > div.entry-text` for the news `main.content >
 * article.post > div.article-body`), as a site's blog posts beside its news stories.
 */
const RENAMED: Record<string, string> = {
  page: 'blog', wrap: 'layout', content: 'stream', post: 'entry', 'article-body': 'entry-text', headline: 'entry-title',
  byline: 'entry-meta', 'share-bar': 'entry-share', 'site-header': 'masthead', menu: 'topnav', sidebar: 'rail',
  widget: 'box', 'site-footer': 'colophon', comments: 'responses', comment: 'response', 'pull-quote': 'aside-quote',
};
const RETAGGED: Record<string, string> = { main: 'section', article: 'div', header: 'div', footer: 'div', aside: 'div' };

function blogPage(i: number): FeatureDocument {
  const { doc } = newsPage(i);
  const step = (s: PathStep): PathStep => ({
    ...s,
    tag: RETAGGED[s.tag] ?? s.tag,
    ...(s.id ? { id: RENAMED[s.id] ?? s.id } : {}),
    classes: s.classes.map((c) => RENAMED[c] ?? c.replace(/^entry-(\d+)$/, 'post-$1')),
  });
  return {
    ...doc,
    pageId: `blog-${String(i).padStart(2, '0')}`,
    blocks: doc.blocks.map((b) => {
      const path = b.path.map(step);
      return { ...b, path, selector: selectorOf(path) };
    }),
  };
}

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
    const docs = withSiteStableNames([...news(3), ...blog(3, 10)]);
    const kinds = layoutKinds(docs);
    const groups = groupByLayout(kinds);
    const [newsLayout, blogLayout] = layoutSelectors(kinds, groups);
    expect(newsLayout.length).toBe(10);
    expect(blogLayout.length).toBe(10);
    for (const s of newsLayout) expect(kinds.slice(3).some((k) => k.has(s)), s).toBe(false);
    for (const s of blogLayout) expect(kinds.slice(0, 3).some((k) => k.has(s)), s).toBe(false);
    expect(newsLayout).toContain('body > div#page.wrap > main.content > article.post > div.article-body > p');
    expect(blogLayout).toContain('body > div#blog.layout > section.stream > div.entry > div.entry-text > p');
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
    expect(a.content.selectors[0]).toBe('body > div#page.wrap > main.content > article.post > div.article-body > p');
    expect(b.content.selectors[0]).toBe('body > div#blog.layout > section.stream > div.entry > div.entry-text > p');
    expect(a.content.selectors.every((s) => s.startsWith('body > div#page.wrap'))).toBe(true);
    expect(b.content.selectors.every((s) => s.startsWith('body > div#blog.layout'))).toBe(true);
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
