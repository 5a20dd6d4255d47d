/** Filters and rule induction (Gkotsis et al., steps 2 and 3, Algorithm 1) on hand-built pages. */
import { describe, expect, it } from 'vitest';
import { compileSelector } from '../../lib/html/selector';
import { elements, parseHtml } from '../../lib/html/parse';
import { applyFieldRules, chooseFields } from '../../lib/fields/apply-fields';
import { extractMetadata } from '../../lib/html/metadata';
import { truthOf, type FieldTruth } from '../../lib/fields/extract';
import { candidateRules, generateFilters, learnFieldRules, scoreRules, type TrainingPost } from '../../lib/fields/learn';
import { FieldPage, pathOf, resolvePath, selectorOf, type RuleRef } from '../../lib/fields/page';
import { elementText } from '../../lib/html/element-text';

interface Post {
  title: string;
  author: string;
  date: string;
  /** Shown date text. */
  shown: string;
  /** An extra sidebar item before the article on some pages: shifts absolute paths. */
  shifted?: boolean;
  /** Markup variant of the header (another layout on some pages). */
  variant?: 'badge';
}

const htmlOf = (p: Post, i: number) =>
  `<!DOCTYPE html><html><head><title>${p.title} | Blog</title></head><body>
<div id="top"><a class="logo" href="/">The Blog</a></div>
${p.shifted ? '<div class="promo">Subscribe now</div>' : ''}
<div class="layout">
  <ul class="recent"><li><a href="/other">Another post entirely</a></li></ul>
  <div class="post" id="post-${i}">
    ${p.variant === 'badge' ? '<div class="badge"><h2>Series</h2></div>' : ''}
    <h2 class="entry-title"><a href="/p/${i}">${p.title}</a></h2>
    <div class="entry-meta">Posted by <span class="author vcard"><a class="url fn">${p.author}</a></span> on <span class="posted-on">${p.shown}</span></div>
    <div class="entry-content"><p>Body of the post number ${i}, with words.</p></div>
  </div>
  <div class="comments"><div class="comment"><span class="fn">A Commenter</span> <span class="posted-on">January 2, 2031</span></div></div>
</div></body></html>`;
const pageOf = (p: Post, i: number) => parseHtml(htmlOf(p, i));

const POSTS: Post[] = [
  { title: 'Our first post', author: 'Jane Doe', date: '2012-11-01T10:00:00Z', shown: 'November 1, 2012' },
  { title: 'A second post about cats', author: 'John Roe', date: '2012-11-02T10:00:00Z', shown: 'November 2, 2012', shifted: true },
  { title: 'Third post: the sequel', author: 'Jane Doe', date: '2012-11-03T10:00:00Z', shown: 'November 3, 2012' },
  { title: 'Fourth and final post', author: 'Ann Smith', date: '2012-11-04T10:00:00Z', shown: 'November 4, 2012', shifted: true },
];

function training(posts: Post[] = POSTS): TrainingPost[] {
  return posts.map((p, i) => ({
    pageId: `p${i}`,
    page: new FieldPage(pageOf(p, i)),
    truths: { title: truthOf('title', p.title)!, byline: truthOf('byline', p.author)!, published: truthOf('published', p.date)! } as Record<string, FieldTruth>,
  }));
}

describe('filters', () => {
  it('describe each matched element by its path, classes and ids, climbing while the parent holds only the value', () => {
    const [post] = training();
    const filters = generateFilters(post.page, post.truths.title!);
    expect(filters).toHaveLength(1);
    const [f] = filters;
    // <a> inside <h2 class="entry-title">: both hold only the title; the <div class="post"> does not.
    expect(f.paths).toEqual(['/html[1]/body[2]/div[2]/div[2]/h2[1]/a[1]', '/html[1]/body[2]/div[2]/div[2]/h2[1]']);
    expect(f.classes).toEqual([['entry-title']]);
    expect(f.ids).toEqual([]);
    expect(f.selectors).toContain('#post-0 a');
    expect(f.selectors).toContain('.post h2');
  });

  it('match the author after "Posted by" and the date as a date, and tally the date locales', () => {
    const [post] = training();
    const bylines = generateFilters(post.page, post.truths.byline!);
    const bylineClasses = bylines.flatMap((f) => f.classes.flat());
    expect(bylineClasses).toEqual(expect.arrayContaining(['url', 'fn', 'author', 'vcard']));
    const tally = new Map();
    const dates = generateFilters(post.page, post.truths.published!, tally);
    expect(dates.flatMap((f) => f.classes.flat())).toContain('posted-on');
    expect(tally.get('en')).toBeGreaterThan(0);
  });

  it('give no filter where the page does not hold the value', () => {
    const [post] = training();
    expect(generateFilters(post.page, truthOf('title', 'A title that is nowhere')!)).toEqual([]);
  });
});

describe('Algorithm 1', () => {
  it('scores each candidate rule by the share of training posts where it gives the post value', () => {
    const posts = training();
    const withTitle = posts.map((p) => ({ page: p.page, truth: p.truths.title! }));
    const filters = posts.flatMap((p) => generateFilters(p.page, p.truths.title!));
    const ranked = scoreRules('title', candidateRules(filters), withTitle);
    const byValue = new Map(ranked.map((r) => [`${r.kind}:${r.value}`, r]));
    // The class holds on every post; the absolute path only where no promo shifts the layout.
    expect(byValue.get('class:entry-title')).toMatchObject({ score: 1, support: 4 });
    expect(byValue.get('path:/html[1]/body[2]/div[2]/div[2]/h2[1]')).toMatchObject({ score: 0.5, support: 2 });
    expect(byValue.get('path:/html[1]/body[2]/div[3]/div[2]/h2[1]')).toMatchObject({ score: 0.5, support: 2 });
    // A post-specific id anchors only its own post.
    expect(byValue.get('selector:#post-0 a')).toMatchObject({ score: 0.25, support: 1 });
    expect(ranked[0].score).toBe(1);
  });

  it('a rule picking the first element with a class loses to one that picks the post value', () => {
    const posts = training();
    const withDate = posts.map((p) => ({ page: p.page, truth: p.truths.published! }));
    const ranked = scoreRules('published', [{ kind: 'class', value: 'posted-on' }, { kind: 'class', value: 'comment' }], withDate);
    expect(ranked.map((r) => [r.value, r.score])).toEqual([
      ['posted-on', 1],
      ['comment', 0],
    ]);
  });

  it('keeps the best rule per field with its score, runner-ups that pick other elements, none below the minimum', () => {
    const fields = learnFieldRules({ posts: training() })!;
    expect(fields.training.posts).toBe(4);
    expect(fields.title!.rules[0]).toMatchObject({ kind: 'class', value: 'entry-title', selector: '.entry-title', score: 1, support: 4 });
    expect(fields.byline!.rules[0]).toMatchObject({ score: 1, support: 4 });
    expect(fields.published!.rules[0]).toMatchObject({ kind: 'class', value: 'posted-on', score: 1 });
    expect(fields.published!.locale).toBe('en');
    for (const f of [fields.title!, fields.byline!, fields.published!]) {
      for (const r of f.rules) expect(r.score).toBeGreaterThanOrEqual(0.6);
      // no two kept rules pick the same elements on every training post
      expect(new Set(f.rules.map((r) => r.selector)).size).toBe(f.rules.length);
    }

    const strict = learnFieldRules({ posts: training() }, { minScore: 1.01 })!;
    expect(strict.title).toEqual({ rules: [], posts: 4 });
  });

  it("puts a rule that gives a post another value after one that gives it none, so the site's other layout keeps its own rule", () => {
    // three posts of one layout, two of another; a stamp on every page (a toolbar's, a comment's) shows
    // the post's date on the first layout and another date on the second
    const pageAt = (d: number, layout: 'a' | 'b') =>
      parseHtml(
        layout === 'a'
          ? `<html><body><span class="stamp">November ${d}, 2012</span><p><span class="posted">November ${d}, 2012</span></p><p>Body ${d}</p></body></html>`
          : `<html><body><span class="stamp">January 5, 2031</span><p>Body ${d}</p><div><span class="dateline">November ${d}, 2012</span></div></body></html>`,
      );
    const layouts = ['a', 'a', 'a', 'b', 'b'] as const;
    const posts: TrainingPost[] = layouts.map((l, i) => ({
      pageId: `p${i}`,
      page: new FieldPage(pageAt(i + 1, l)),
      truths: { published: truthOf('published', `2012-11-0${i + 1}`)! },
    }));
    const fields = learnFieldRules({ posts })!;
    // the stamp, first in the page, and the first layout's dateline each give three posts their date;
    // the stamp gives the other two another one, so it comes after both layouts' datelines
    expect(applyFieldRules(pageAt(20, 'a'), fields).published).toBe('2012-11-20');
    expect(applyFieldRules(pageAt(21, 'b'), fields).published).toBe('2012-11-21');
  });

  it('learns each layout\u2019s rule on a site of two layouts, half its posts each, where no one rule reaches the minimum score', () => {
    const pageAt = (i: number, layout: 'a' | 'b') =>
      parseHtml(
        layout === 'a'
          ? `<html><body><h1>Post ${i}</h1><p class="by">By <span class="author">Writer ${i}</span></p><p>Body ${i}</p></body></html>`
          : `<html><body><h1>Post ${i}</h1><p>Body ${i}</p><footer><span class="contributor">Writer ${i}</span></footer></body></html>`,
      );
    const layouts = ['a', 'b', 'a', 'b', 'a', 'b'] as const;
    const posts: TrainingPost[] = layouts.map((l, i) => ({ pageId: `p${i}`, page: new FieldPage(pageAt(i, l)), truths: { byline: truthOf('byline', `Writer ${i}`)! } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.byline!.rules.map((r) => r.score)).toEqual([0.5, 0.5]);
    expect(applyFieldRules(pageAt(20, 'a'), fields).byline).toBe('Writer 20');
    expect(applyFieldRules(pageAt(21, 'b'), fields).byline).toBe('Writer 21');
    // a rule right on one layout's posts and wrong on the other's (its element there holds another
    // name) comes after the other layout's rule, which gives nothing on the first layout
    const shadowed = (i: number, layout: 'a' | 'b') =>
      parseHtml(
        layout === 'a'
          ? `<html><body><h1>Post ${i}</h1><p><span class="author">Writer ${i}</span></p><p>Body ${i}</p></body></html>`
          : `<html><body><h1>Post ${i}</h1><p><span class="author">The Editors</span></p><p>Body ${i}</p><footer><span class="contributor">Writer ${i}</span></footer></body></html>`,
      );
    const mixed: TrainingPost[] = ['a', 'a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'].map((l, i) => ({
      pageId: `p${i}`,
      page: new FieldPage(shadowed(i, l as 'a' | 'b')),
      truths: { byline: truthOf('byline', `Writer ${i}`)! },
    }));
    const both = learnFieldRules({ posts: mixed })!;
    expect(applyFieldRules(shadowed(30, 'a'), both).byline).toBe('Writer 30');
    expect(applyFieldRules(shadowed(31, 'b'), both).byline).toBe('Writer 31');
    // a rule right on half the posts and wrong on the others is no rule
    const wrongHalf: TrainingPost[] = layouts.map((l, i) => ({ pageId: `p${i}`, page: new FieldPage(pageAt(i, 'a')), truths: { byline: truthOf('byline', l === 'a' ? `Writer ${i}` : 'Somebody Else')! } }));
    expect(learnFieldRules({ posts: wrongHalf })!.byline!.rules).toEqual([]);
  });

  it("learns the site's UTC offset from the layout that shows its times without a zone, where the other layout's elements carry one", () => {
    // the site's zone is UTC+2: layout a writes the instant with its zone, layout b the local time alone
    const pageAt = (d: number, layout: 'a' | 'b') =>
      parseHtml(
        layout === 'a'
          ? `<html><body><h1>Post ${d}</h1><p class="stamp">2012-11-${String(d).padStart(2, '0')}T12:30:00+02:00</p><p>Body ${d}</p></body></html>`
          : `<html><body><h1>Post ${d}</h1><p>Body ${d}</p><footer><span class="when">November ${d}, 2012 12:30 PM</span></footer></body></html>`,
      );
    const layouts = ['a', 'a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'] as const;
    const posts: TrainingPost[] = layouts.map((l, i) => ({
      pageId: `p${i}`,
      page: new FieldPage(pageAt(i + 1, l)),
      truths: { published: truthOf('published', `2012-11-${String(i + 1).padStart(2, '0')}T10:30:00Z`)! },
    }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.published!.utcOffsetMinutes).toBe(120);
    expect(applyFieldRules(pageAt(20, 'b'), fields).published).toBe('2012-11-20T10:30:00.000Z');
    expect(applyFieldRules(pageAt(21, 'a'), fields).published).toBe('2012-11-21T10:30:00.000Z');
  });

  it('learns a byline whose element goes on with the date on the line after it', () => {
    const page = (p: Post, i: number) =>
      parseHtml(`<html><body><h1>${p.title}</h1><div class="storybyline">By ${p.author}\n<br> ${p.shown}</div><p>Body ${i}</p></body></html>`);
    const posts: TrainingPost[] = POSTS.map((p, i) => ({ pageId: `p${i}`, page: new FieldPage(page(p, i)), truths: { byline: truthOf('byline', p.author)! } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.byline!.rules[0]).toMatchObject({ value: 'storybyline', score: 1 });
    expect(applyFieldRules(page({ ...POSTS[0], author: 'Zed Zee' }, 9), fields).byline).toBe('Zed Zee');
  });

  it('drops title values several posts share (a site-wide og:title) and learns nothing from them', () => {
    const posts = training().map((p) => ({ ...p, truths: { title: truthOf('title', 'The Blog')! } }));
    expect(learnFieldRules({ posts })!.title).toBeUndefined();
  });

  it('learns an own-text rule where the title shares its element with a date', () => {
    const docs = POSTS.map((p, i) =>
      parseHtml(`<html><body><div class="box"><h1 class="gtext26">${p.title} <span class="fsi">${p.shown}</span></h1><p>Body ${i}</p></div></body></html>`),
    );
    const posts: TrainingPost[] = docs.map((doc, i) => ({ pageId: `p${i}`, page: new FieldPage(doc), truths: { title: truthOf('title', POSTS[i].title)! } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.title!.rules[0]).toMatchObject({ kind: 'class', value: 'gtext26', text: 'own', score: 1 });
    expect(applyFieldRules(parseHtml('<html><body><h1 class="gtext26">Unseen <b>x</b> title <span>May 1, 2012</span></h1></body></html>'), fields).title).toBe(
      'Unseen title',
    );
  });
});

describe('rules on unseen pages', () => {
  it('fill title, byline and an ISO date from the learned rules', () => {
    const fields = learnFieldRules({ posts: training() })!;
    const unseen = pageOf({ title: 'An unseen post', author: 'Zed Zee', date: '', shown: 'December 24, 2012', shifted: true, variant: 'badge' }, 9);
    expect(applyFieldRules(unseen, fields)).toEqual({ title: 'An unseen post', byline: 'Zed Zee', published: '2012-12-24' });
  });

  it("learns the site's locale from its posts, each post one vote, however often a page repeats a date", () => {
    // the first post carries a toolbar that shows its date twenty times in German; every post shows it in English
    const toolbar = `<ul class="captures">${'<li>1. November 2012</li>'.repeat(20)}</ul>`;
    const docs = POSTS.map((p, i) => parseHtml(i === 0 ? htmlOf(p, i).replace('<body>', `<body>${toolbar}`) : htmlOf(p, i)));
    const posts: TrainingPost[] = docs.map((doc, i) => ({ pageId: `p${i}`, page: new FieldPage(doc), truths: { published: truthOf('published', POSTS[i].date)! } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.published!.locale).toBe('en');
    expect(fields.published!.rules[0]).toMatchObject({ value: 'posted-on', score: 1 });
  });

  it("score date rules in the site's learned locale alone, as apply reads them", () => {
    // three posts show English dates, one a German one: the site's locale is English, and its rule
    // reads three of the four posts' dates, not the German one through another locale
    const posts = POSTS.map((p, i) => (i === 3 ? { ...p, shown: '4. November 2012' } : p));
    const fields = learnFieldRules({ posts: training(posts) })!;
    expect(fields.published!.locale).toBe('en');
    expect(fields.published!.rules[0]).toMatchObject({ value: 'posted-on', score: 0.75 });
  });

  it("read dates in the site's learned locale alone", () => {
    const fields = learnFieldRules({ posts: training() })!;
    expect(fields.published!.locale).toBe('en');
    const page = (shown: string) => pageOf({ title: 'An unseen post', author: 'Zed Zee', date: '', shown, shifted: true, variant: 'badge' }, 9);
    // German text the site's locale does not read: no guess from another locale
    expect(applyFieldRules(page('7. November 2012'), fields).published).toBeUndefined();
    // a site that learned no locale reads any
    const anyLocale = { ...fields, published: { ...fields.published!, locale: undefined } };
    expect(applyFieldRules(page('7. November 2012'), anyLocale).published).toBe('2012-11-07');
  });

  it('each rule reads as a CSS selector that picks the same element', () => {
    const fields = learnFieldRules({ posts: training() })!;
    const doc = pageOf(POSTS[1], 1);
    const page = new FieldPage(doc);
    for (const f of [fields.title!, fields.byline!, fields.published!]) {
      for (const rule of f.rules) {
        const match = compileSelector(rule.selector)!;
        expect(match, rule.selector).toBeDefined();
        const first = [...elements(doc)].find((el) => match(el));
        expect(first, rule.selector).toBe(page.select(rule));
      }
    }
  });

  it('an id or class rule picks the same element whether the page walks to it or reads its index (after a few lookups)', () => {
    const doc = parseHtml(
      '<html><head><title>T</title></head><body><div><p id=" a ">one</p><p class="x  post">two</p><p id="a">three</p>' +
        '<span class="x"><b class="post x y">four</b></span><i class="y post">five</i><u id="">six</u></div></body></html>',
    );
    const rules: RuleRef[] = [
      ...['a', ' a ', 'b', ''].map((value) => ({ kind: 'id' as const, value })),
      ...['post', 'x', 'post x', 'x post', 'y post', 'post y x', 'y', 'z', 'post z', ' '].map((value) => ({ kind: 'class' as const, value })),
    ];
    // each rule asked first (the walk answers), then after every other rule (the index answers)
    const walked = rules.map((rule) => new FieldPage(doc).select(rule));
    const page = new FieldPage(doc);
    for (const rule of rules) page.select(rule);
    const indexed = rules.map((rule) => page.select(rule));
    expect(indexed).toEqual(walked);
    const text = (el: import('domhandler').Element | undefined) => (el ? elementText(el) : undefined);
    expect(walked.map(text)).toEqual(['one', undefined, undefined, undefined, 'two', 'two', 'two', 'two', 'four', 'four', 'four', undefined, undefined, undefined]);
  });

  it('paths resolve back to their element', () => {
    const doc = pageOf(POSTS[0], 0);
    for (const el of [...elements(doc)].slice(0, 40)) expect(resolvePath(doc, pathOf(el))).toBe(el);
    expect(resolvePath(doc, '/html[1]/body[2]/p[7]')).toBeUndefined();
    expect(selectorOf({ kind: 'class', value: 'url fn' })).toBe('.url.fn');
    expect(selectorOf({ kind: 'id', value: '1st' })).toBe('#\\31 st');
    // a path's tags are escaped too: Word's <o:p> in a pasted story
    expect(selectorOf({ kind: 'path', value: '/html[1]/body[2]/o:p[3]' })).toBe('html:root > body:nth-child(2) > o\\:p:nth-child(3)');
  });
});

describe('a day without a time (a URL\'s) as the truth', () => {
  it('matches the element that gives an instant on that day in some zone (a New York post of /2012/10/30/ shown as 02:00 UTC the next day)', () => {
    const days = ['2012-10-30', '2012-11-02', '2012-11-05', '2012-11-09', '2012-11-12'];
    const posts: TrainingPost[] = days.map((day, i) => {
      const next = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
      const doc = parseHtml(`<html><body><div class="post"><h1>Post ${i}</h1><p class="meta"><time class="stamp" datetime="${next}T02:00:00Z">${next}</time></p><p>Body ${i}.</p></div></body></html>`);
      return { pageId: `p${i}`, page: new FieldPage(doc), truths: { published: truthOf('published', day) as FieldTruth } };
    });
    const fields = learnFieldRules({ posts });
    expect(fields?.published?.rules[0]).toMatchObject({ score: 1, support: 5 });
    // the same instants against days two days off: no rule
    const off = days.map((day, i) => ({ ...posts[i], truths: { published: truthOf('published', new Date(Date.parse(day) - 2 * 86_400_000).toISOString().slice(0, 10)) as FieldTruth } }));
    expect(learnFieldRules({ posts: off })?.published?.rules).toEqual([]);
  });
});

describe('an announced byline', () => {
  const story = (i: number, byline: string) =>
    new FieldPage(parseHtml(`<html><body><div class="story"><h1>Story ${i}</h1><div class="byline_date">${byline}</div><p>Body of story ${i}.</p></div></body></html>`));
  const names = ['DANICA KIRKA Associated Press', 'JOANN LOVIGLIO Associated Press', 'Christina Ng', 'Russell Goldman'];

  it('is read only where the element introduces the name: a dateline in its place is no byline', () => {
    const posts: TrainingPost[] = names.map((name, i) => ({ pageId: `p${i}`, page: story(i, `By ${name}<br>LONDON July 24, 2012 (AP)`), truths: { byline: truthOf('byline', name) as FieldTruth } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.byline!.rules[0]).toMatchObject({ kind: 'class', value: 'byline_date', announced: true, score: 1 });
    expect(applyFieldRules(story(8, 'By Zed Zee<br>PARIS July 25, 2012 (AP)'), fields).byline).toBe('Zed Zee');
    expect(applyFieldRules(story(9, 'WESTPORT, Wash. July 24, 2012 (AP)'), fields).byline).toBeUndefined();
  });

  it('is not required of an element that showed the name alone on some training post', () => {
    const posts: TrainingPost[] = names.map((name, i) => ({ pageId: `p${i}`, page: story(i, i === 2 ? name : `By ${name}`), truths: { byline: truthOf('byline', name) as FieldTruth } }));
    const fields = learnFieldRules({ posts })!;
    expect(fields.byline!.rules[0].announced).toBeUndefined();
    expect(applyFieldRules(story(9, 'Zed Zee'), fields).byline).toBe('Zed Zee');
  });
});

describe('chooseFields', () => {
  it('takes the time the page declares on the day the rules read, and the rules\u2019 value otherwise', () => {
    expect(chooseFields({ published: '2012-10-30', byline: 'Jane Doe' }, { published: '2012-10-31T02:00:00.000Z', publishedDeclared: true, byline: 'Someone Else' })).toEqual({
      values: { published: '2012-10-31T02:00:00.000Z', byline: 'Jane Doe' },
      sources: { published: 'metadata', byline: 'rules' },
    });
    // another day, a time the rules read themselves, or a time the page does not declare as its publication's (a comment's <time>): the rules'
    expect(chooseFields({ published: '2012-10-27' }, { published: '2012-10-31T02:00:00.000Z', publishedDeclared: true }).sources).toEqual({ published: 'rules' });
    expect(chooseFields({ published: '2012-10-30T20:00:00.000Z' }, { published: '2012-10-30T21:00:00.000Z', publishedDeclared: true }).values.published).toBe('2012-10-30T20:00:00.000Z');
    expect(chooseFields({ published: '2012-10-30' }, { published: '2012-10-30T21:03:00.000Z' }).values.published).toBe('2012-10-30');
    expect(chooseFields({}, { published: '2012-10-30' })).toEqual({ values: { published: '2012-10-30' }, sources: { published: 'metadata' } });
  });

  it('reads as declared the JSON-LD datePublished, a published meta and a <time> marked as the post\u2019s, not a comment\u2019s <time> nor the URL\u2019s day', () => {
    const declared = (head: string, body = '', url = 'https://news.example/story') =>
      extractMetadata(parseHtml(`<html><head><link rel="canonical" href="${url}">${head}</head><body>${body}</body></html>`), { title: false });
    expect(declared('<meta property="article:published_time" content="2012-10-30T21:03:00Z">')).toMatchObject({ published: '2012-10-30T21:03:00.000Z', publishedDeclared: true });
    expect(declared('', '<time itemprop="datePublished" datetime="2012-10-30T21:03:00Z">Oct 30</time>').publishedDeclared).toBe(true);
    expect(declared('', '<div class="comment"><time datetime="2012-10-30T21:03:00Z">9:03 pm</time></div>')).toMatchObject({ published: '2012-10-30T21:03:00.000Z' });
    expect(declared('', '<div class="comment"><time datetime="2012-10-30T21:03:00Z">9:03 pm</time></div>').publishedDeclared).toBeUndefined();
    expect(declared('', '', 'https://news.example/2012/10/30/story').publishedDeclared).toBeUndefined();
  });
});
