import { describe, expect, it } from 'vitest';
import { parseRuleSelector } from '../../lib/learn/consolidate';
import { selectorTakes } from '../../lib/learn/shorten';
import { DEFAULT_LEARN_OPTIONS, learnRules, type LearnedRules } from '../../lib/learn/learn-rules';
import { normalizeText } from '../../lib/text/match';
import { RulesDocumentSchema } from '../../lib/types/rules-document';
import type { FeatureDocument } from '../../lib/types/feature-document';
import { makeBlock, makeDoc, newsPage, newsSite, TOPICS, type NewsPage, type Role } from './factory';

/** Per role: how many of its blocks the learned selectors match, out of how many. */
function coverage(rules: LearnedRules, pages: NewsPage[]): Record<string, [number, number]> {
  const selectors = rules.content.selectors.map((s) => {
    const parsed = parseRuleSelector(s);
    if (!parsed) throw new Error(`unparseable selector ${s}`);
    return parsed;
  });
  const out: Record<string, [number, number]> = {};
  for (const { doc, roles } of pages) {
    doc.blocks.forEach((b, i) => {
      const role: Role = roles[i];
      const entry = (out[role] ??= [0, 0]);
      entry[1]++;
      if (selectors.some((s) => selectorTakes(s, b.path))) entry[0]++;
    });
  }
  return out;
}

function expectArticleOnly(cov: Record<string, [number, number]>) {
  for (const role of ['body', 'quote', 'subhead'] as const) expect(cov[role][0], role).toBe(cov[role][1]);
  for (const role of ['nav', 'sidebar', 'comments', 'footer', 'share', 'byline', 'title'] as const) expect(cov[role][0], role).toBe(0);
}

describe('learnRules on a news site', () => {
  it('selects the body paragraphs, subheads and blockquote, not nav, sidebar or comments', () => {
    const pages = newsSite(6);
    const rules = learnRules(pages.map((p) => p.doc));
    // from the named container each takes, as a person writes them: nothing else on the pages is such an element (shorten.ts)
    const body = 'div.article-body';
    expect(rules.content.selectors).toEqual([
      `${body} > p`,
      'blockquote.pull-quote > p',
      `${body} > h2`,
      // the body's other prose children, for the pages that have them (generalize.ts)
      ...['ul > li', 'ol > li', 'blockquote', 'blockquote > p', 'h3', 'h4', 'pre'].map((c) => `${body} > ${c}`),
    ]);
    expectArticleOnly(coverage(rules, pages));
    expect(rules.selfCheck).toMatchObject({ pages: 6, recall: 1, precision: 1 });
    // one line for each of the body's seven other prose children above, nothing else
    expect(rules.selfCheck.adjusted).toHaveLength(7);
    expect(rules.selfCheck.adjusted.every((a) => a.startsWith('generalized: '))).toBe(true);
    const top = rules.clusters[0];
    expect(top).toMatchObject({ chosen: true, reason: 'top-scoring cluster', pages: 6 });
    expect(top.selector).toMatch(/div\.article-body\.entry-\d+ > p$/);
    const quote = rules.clusters.find((c) => c.selector.endsWith('blockquote.pull-quote > p'))!;
    expect(quote.chosen).toBe(true);
    expect(quote.reason).toMatch(/^inside the top cluster's bounding box/);
    // boilerplate repeated on every page scores exactly 0
    for (const end of ['nav.menu > ul > li', 'div.share-bar', 'footer.site-footer > p']) {
      expect(rules.clusters.find((c) => c.selector.endsWith(end))!.score, end).toBe(0);
    }
  });

  it("lists the site's repeated texts as its boilerplate, those on the most pages first, never one page's text", () => {
    const pages = newsSite(6);
    const rules = learnRules(pages.map((p) => p.doc));
    const boilerplate = rules.content.boilerplate ?? [];
    const onPages = (text: string) => pages.filter((p) => p.doc.blocks.some((b) => normalizeText(b.text) === text)).length;
    expect(boilerplate.length).toBeGreaterThan(0);
    for (const text of boilerplate) expect(onPages(text), text).toBeGreaterThanOrEqual(2);
    const counts = boilerplate.map(onPages);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // the nav and footer of every page are in; no body paragraph (each page's own) is
    const roleTexts = (role: Role) => new Set(pages.flatMap((p) => p.doc.blocks.filter((_, i) => p.roles[i] === role).map((b) => normalizeText(b.text))));
    for (const text of roleTexts('nav')) expect(boilerplate).toContain(text);
    const body = roleTexts('body');
    expect(boilerplate.filter((t) => body.has(t))).toEqual([]);
    expect(RulesDocumentSchema.shape.content.parse(rules.content)).toEqual(rules.content);
  });

  it('learns the header apart: the byline between headline and body, not the share bar nor the headline', () => {
    const pages = newsSite(6);
    const rules = learnRules(pages.map((p) => p.doc));
    expect(rules.content.header).toEqual(['article.post > div.byline']);
    const header = rules.content.header!.map((s) => parseRuleSelector(s)!);
    for (const { doc, roles } of pages) {
      doc.blocks.forEach((b, i) => expect(header.some((h) => selectorTakes(h, b.path)), `${roles[i]}: ${b.text}`).toBe(roles[i] === 'byline'));
    }
    // a byline every page shares ("By The Staff") is the site's, not the post's: no header
    for (const { doc, roles } of pages) doc.blocks[roles.indexOf('byline')].text = 'By The Staff';
    expect(learnRules(pages.map((p) => p.doc)).content.header).toBeUndefined();
  });

  it('learns the dek apart from the header: the line under the headline that restates the page\u2019s description', () => {
    const pages = newsSite(6, { dek: true });
    const rules = learnRules(pages.map((p) => p.doc));
    expect(rules.content.dek).toEqual(['article.post > p.standfirst']);
    expect(rules.content.header).toEqual(['article.post > div.byline']);
    expectArticleOnly(coverage(rules, pages));
    // a line that does not say what the description says is the header's, not the dek
    const withoutDescriptions = newsSite(6, { dek: true });
    withoutDescriptions.forEach((p, i) => (p.doc.page.description = `Our reporter's notes from week ${i} of the season in full detail`));
    const plain = learnRules(withoutDescriptions.map((p) => p.doc));
    expect(plain.content.dek).toBeUndefined();
    expect(plain.content.header).toContain('article.post > p.standfirst');
  });

  it('works the same on pages rendered without their stylesheets', () => {
    const pages = newsSite(6, { stylesheets: false });
    const rules = learnRules(pages.map((p) => p.doc));
    expectArticleOnly(coverage(rules, pages));
    expect(rules.selfCheck.precision).toBe(1);
    expect(rules.selfCheck.recall).toBe(1);
  });

  it('generalizes to pages it did not learn from', () => {
    const rules = learnRules(newsSite(5).map((p) => p.doc));
    const unseen = [10, 11, 12].map((i) => newsPage(i, { paragraphs: 9, comments: 7 }));
    expectArticleOnly(coverage(rules, unseen));
  });

  it('keeps a blockquote that is on too few pages to be a cluster (noise inside the box)', () => {
    const pages = newsSite(5);
    // only pages 0 and 1 keep their blockquote
    for (const p of pages.slice(2)) {
      const i = p.roles.indexOf('quote');
      p.doc.blocks.splice(i, 1);
      p.roles.splice(i, 1);
    }
    const rules = learnRules(pages.map((p) => p.doc));
    expect(rules.clusters.find((c) => c.id === -1)).toMatchObject({ chosen: true });
    expectArticleOnly(coverage(rules, pages));
  });

  it('is deterministic and independent of the input order; learnedFrom is newest first', () => {
    const docs = newsSite(6).map((p) => p.doc);
    const a = learnRules(docs);
    const b = learnRules([docs[3], docs[0], docs[5], docs[1], docs[4], docs[2]]);
    expect(b).toEqual(a);
    expect(a.learnedFrom).toEqual(['page-05', 'page-04', 'page-03', 'page-02', 'page-01', 'page-00']);
  });

  it('learns the same rules from the same pages rendered in another order, cluster ids included', () => {
    // a dek on four pages of six: its cluster comes first or last as those pages are newest or oldest
    const docs = [0, 1, 2, 3, 4, 5].map((i) => newsPage(i, { dek: i >= 2 }).doc);
    const times = docs.map((d) => d.renderedAt);
    const reordered = docs.map((d, i) => ({ ...d, renderedAt: times[times.length - 1 - i] }));
    // what follows the order by nature: learnedFrom is newest first, a cluster's sample is from the newest page
    const unordered = (r: LearnedRules) => ({ ...r, learnedFrom: [...r.learnedFrom].sort(), clusters: r.clusters.map(({ sample: _, ...c }) => c) });
    expect(unordered(learnRules(reordered))).toEqual(unordered(learnRules(docs)));
  });

  it('gives a valid rules document with its parameters', () => {
    const rules = learnRules(newsSite(5).map((p) => p.doc), { eps: 0.6 });
    const doc = RulesDocumentSchema.parse({ version: 1, site: 'news.example', rulesVersion: 1, learnedAt: '2025-01-01T00:00:00Z', ...rules });
    expect(doc.params).toMatchObject({ eps: 0.6, minPts: DEFAULT_LEARN_OPTIONS.minPts, pages: 5 });
    expect(doc.content.clean).toEqual([]);
  });

  it('returns empty rules for no pages, or pages without text', () => {
    expect(learnRules([]).content.selectors).toEqual([]);
    const empty = makeDoc({ pageId: 'x', blocks: [makeBlock({ text: '', path: 'div > p' })] });
    const rules = learnRules([empty]);
    expect(rules.content.selectors).toEqual([]);
    expect(rules.selfCheck).toEqual({ pages: 0, recall: 0, precision: 0, adjusted: [] });
  });

  it('learns a story shown once per page from fewer pages than minPts (three)', () => {
    const topics = [
      ['Harbour', 'storm', 'floods', 'the', 'old', 'harbour', 'wall'],
      ['Council', 'votes', 'to', 'close', 'the', 'central', 'library'],
      ['Rail', 'strike', 'halts', 'trains', 'across', 'the', 'north'],
    ];
    const docs = topics.map((t, i) => {
      const title = t.join(' ');
      const story = `${title}. ${Array.from({ length: 6 }, (_, k) => `Residents of district ${i}${k} said the ${t[1]} ${t[2]} ${t[6]} had never been seen before, officials reported ${k} times.`).join(' ')}`;
      return makeDoc({
        pageId: `p${i}`,
        title,
        blocks: [
          makeBlock({ text: 'Home News Sport Weather', path: 'nav.menu:1', link: true, bbox: { x: 0, y: 0, width: 1200, height: 40 } }),
          makeBlock({ text: title, path: 'main:2 > h1.headline:1', bbox: { x: 100, y: 60, width: 800, height: 40 } }),
          makeBlock({ text: story, path: 'main:2 > div.story:2', bbox: { x: 100, y: 120, width: 800, height: 400 } }),
          // a commenter quoting the title
          makeBlock({ text: `About ${title}: I agree, ${t[1]} ${t[2]} again.`, path: 'section.comments:3 > ul:1 > li:1 > p:1', bbox: { x: 100, y: 700, width: 800, height: 40 } }),
          makeBlock({ text: 'Copyright News Example', path: 'footer:4', bbox: { x: 0, y: 900, width: 1200, height: 40 } }),
        ],
      });
    });
    const rules = learnRules(docs);
    expect(rules.content.selectors.some((s) => s.endsWith('div.story'))).toBe(true);
    expect(rules.content.selectors.some((s) => s.includes('comments'))).toBe(false);
  });

  it('learns from a single page', () => {
    const page = newsPage(0);
    const rules = learnRules([page.doc], { minPts: 2 });
    const cov = coverage(rules, [page]);
    expect(cov.body[0]).toBe(cov.body[1]);
    expect(cov.nav[0] + cov.sidebar[0] + cov.comments[0]).toBe(0);
  });

  // Its speed is measured by `npm run bench`, not asserted here.
  it('learns 50 pages of ~300 blocks, long comment threads included: the article alone', () => {
    const pages = newsSite(50, { paragraphs: 120, comments: 150 });
    expect(pages.reduce((n, p) => n + p.doc.blocks.length, 0)).toBeGreaterThanOrEqual(50 * 280);
    const rules = learnRules(pages.map((p) => p.doc));
    expectArticleOnly(coverage(rules, pages));
  });
});

describe('learnRules on pages without spaces between words', () => {
  const topics = [
    ['东京铁塔夜景灯光秀开幕', '东京铁塔', '灯光', '夜景'],
    ['北京地铁新线路正式开通运营', '地铁', '线路', '乘客'],
    ['上海马拉松比赛吸引三万名选手', '马拉松', '选手', '比赛'],
    ['广州图书馆推出机器人借书服务', '图书馆', '机器人', '读者'],
    ['深圳科技展览展示无人驾驶汽车', '展览', '汽车', '科技'],
  ];
  const docs: FeatureDocument[] = topics.map(([title, a, b, c], i) =>
    makeDoc({
      pageId: `zh-${i}`,
      title,
      description: `${a}${b}${c}的最新消息`,
      renderedAt: `2025-02-0${i + 1}T00:00:00Z`,
      blocks: [
        ...['首页', '新闻', '体育', '科技'].map((t, k) =>
          makeBlock({ text: t, path: `nav:1 > ul:1 > li:${k + 1}`, link: true, bbox: { x: 100 + 120 * k, y: 10, width: 100, height: 20 } }),
        ),
        ...[0, 1, 2, 3, 4].map((k) =>
          makeBlock({
            text: `${[a, b, c][k % 3]}今天${[b, c, a][k % 3]}很多人关注${c}第${k}段`,
            path: `main:2 > div.content:1 > p:${k + 1}`,
            bbox: { x: 100, y: 100 + 60 * k, width: 800, height: 50 },
          }),
        ),
        makeBlock({ text: '版权所有 新闻网', path: 'footer:3 > p:1', bbox: { x: 100, y: 900, width: 800, height: 20 } }),
      ],
    }),
  );

  it('scores CJK text through character bigrams', () => {
    const rules = learnRules(docs);
    expect(rules.content.selectors[0]).toBe('div.content > p');
    expect(rules.clusters[0].score).toBeGreaterThan(0.5);
  });
});

describe('learnRules with a "latest stories" box', () => {
  it('still scores the articles when every page links the titles of all pages learned from', () => {
    // Without leaving link lists out of the idf, every title word is on every page: idf 0, no score.
    const pages = newsSite(3, { latest: 3 });
    for (const { doc } of pages) delete doc.page.description; // the title is all the page says of itself
    const rules = learnRules(pages.map((p) => p.doc));
    expectArticleOnly(coverage(rules, pages));
  });
});

describe('learnRules: a template of few pages scores against the site', () => {
  // Three story pages and two magazine pages; each magazine page teases the other's story with its
  // title and description (plain text, not a link), so over the two alone every word of each
  // title is on both pages.
  const nav = ['Home', 'World', 'Science', 'Sport'].map((text) => ({ text, path: 'div#page > ul.nav > li' }));
  const words = (topic: number, k: number) => TOPICS[topic].vocab.slice(k % 6, (k % 6) + 6).join(' ');
  const paragraphs = (topic: number, path: string) =>
    [0, 1, 2, 3, 4].map((k) => ({ text: `${TOPICS[topic].title}. The ${words(topic, k)} story goes on, paragraph ${k + 1}, with ${words(topic, k + 3)}.`, path }));
  const page = (id: string, topic: number, blocks: { text: string; path: string }[]) =>
    makeDoc({ pageId: id, title: TOPICS[topic].title, description: TOPICS[topic].description, blocks: [...nav, ...blocks].map((b, i) => makeBlock(b, i)) });
  const story = (id: string, topic: number) => page(id, topic, paragraphs(topic, 'div#page > div.story > p'));
  const magazine = (id: string, topic: number, teased: number) =>
    page(id, topic, [
      ...paragraphs(topic, 'div#page > div.magazine > div.mag-body > p'),
      { text: 'Take the survey and compare your score with the rest of the country.', path: 'div#page > div.magazine > div.mag-body > div.wide > p' },
      { text: `${TOPICS[teased].title}: ${TOPICS[teased].description}`, path: 'div#page > div.magazine > aside.more > p' },
    ]);
  const docs = [story('s1', 0), story('s2', 1), story('s3', 2), magazine('m1', 3, 4), magazine('m2', 4, 3)];

  it("takes the magazine template's story, not its box", () => {
    const rules = learnRules(docs);
    const template = rules.templates?.find((t) => t.learnedFrom.includes('m1'));
    expect(template, 'a magazine template').toBeDefined();
    const selectors = template!.content.selectors.map((s) => parseRuleSelector(s)!);
    const takes = (path: string) => selectors.some((s) => selectorTakes(s, docs[3].blocks.find((b) => b.selector.endsWith(path))!.path));
    expect(takes('div.mag-body > p')).toBe(true);
    expect(takes('div.wide > p')).toBe(false);
    expect(takes('aside.more > p')).toBe(false);
  });
});
