import { describe, expect, it } from 'vitest';
import { formatStep, parseRuleSelector, parseSelector } from '../../lib/learn/consolidate';
import { compileSelector } from '../../lib/html/selector';
import { Element } from 'domhandler';
import type { FeatureDocument } from '../../lib/types/feature-document';
import { selectorTakes, shortestSelectors, shortestSelectorTexts } from '../../lib/learn/shorten';
import { extractWithRules } from '../../lib/html/extract-with-rules';
import { parseHtml } from '../../lib/html/parse';
import { learnRules } from '../../lib/learn/learn-rules';
import { makeBlock, makeDoc, newsSite, path } from './factory';
import type { PathStep } from '../../lib/types/feature-document';

const STORY = 'div#page > main.content > article.post > div.entry > p';
const steps = (selector: string) => parseSelector(selector)!;
const shortest = (selector: string, docs: Parameters<typeof shortestSelectors>[1]) => shortestSelectors([steps(selector)], docs)[0];

/** A page of the blocks at these paths (one block each). */
const page = (pageId: string, ...paths: string[]) => makeDoc({ pageId, blocks: paths.map((p, i) => makeBlock({ text: `block ${i} of ${pageId}`, path: p }, i)) });

describe('shortestSelectors', () => {
  it('writes a selector from the named container of what it takes, as a person would', () => {
    const docs = [page('a', STORY, 'div#page > nav.menu > ul > li', 'div#page > aside.related > p'), page('b', STORY, 'div#page > footer > p')];
    expect(shortest(`body > ${STORY}`, docs)).toBe('div.entry > p');
  });

  it('keeps a longer tail where a shorter one takes another element on a page it was learned from', () => {
    // a sidebar with its own div.entry paragraphs: `div.entry > p` would take them; the article's does not
    const docs = [page('a', STORY), page('b', STORY, 'div#page > aside.sidebar > div.entry > p')];
    expect(shortest(`body > ${STORY}`, docs)).toBe('article.post > div.entry > p');
    // and with another article's div.entry inside a box of the content: a longer tail still
    const inside = [...docs, page('c', STORY, 'div#page > main.content > aside.box > article.post > div.entry > p')];
    expect(shortest(`body > ${STORY}`, inside)).toBe('main.content > article.post > div.entry > p');
  });

  it('keeps the whole selector when no step above the element is named; from its first named step, it matches at any depth', () => {
    expect(shortest('body > div > main > p.lead', [page('a', 'div > main > p.lead')])).toBe('body > div > main > p.lead');
    const other = [page('a', 'div#page > div.entry > p', 'div#other > div.entry > p')];
    expect(shortest('body > div#page > div.entry > p', other)).toBe('div#page > div.entry > p');
  });

  it('counts a block as taken when the selector matches an ancestor of its element, as apply does', () => {
    // `div.main > div.entry` takes the list inside the footer's div.entry on page b, which the rules left out
    const docs = [page('a', 'div#page > div.main > div.entry > p'), page('b', 'div#page > div.main > div.entry > p', 'div#foot > div.main > div.entry > ul > li')];
    expect(shortest('body > div#page > div.main > div.entry', docs)).toBe('div#page > div.main > div.entry');
    expect(shortest('body > div#page > div.main > div.entry', docs.slice(0, 1))).toBe('div.main > div.entry');
  });

  it('writes a step with an id by its id alone, unless its classes or position keep out a block left out', () => {
    // a layout modifier class and a sibling position on the story's container: the id names it on every page
    const docs = [page('a', 'div#page > div#story.wide:2 > p', 'div#page > aside#promo > p'), page('b', 'div#page > div#story.wide:2 > p')];
    expect(shortest('body > div#page > div#story.wide > p', docs)).toBe('div#story > p');
    expect(shortest('body > div#page > div#story:nth-child(2) > p', docs)).toBe('div#story > p');
    // a page whose div#story without the class holds what the rules left out: the class tells them apart
    const apart = [page('a', 'div#page > div#story.wide > p'), page('b', 'div#page > div#story > p')];
    expect(shortestSelectors([steps('body > div#page > div#story.wide > p')], apart)[0]).toBe('div#story.wide > p');
    // and one at another position: the position does
    const elsewhere = [page('a', 'div#page > div#story:2 > p'), page('b', 'div#page > div#story:2 > p', 'div#page > div#story:5 > p')];
    expect(shortestSelectors([steps('body > div#page > div#story:nth-child(2) > p')], elsewhere)[0]).toBe('div#story:nth-child(2) > p');
    // at apply, a page without the modifier class keeps its article
    const html = '<html><body><div id="page"><div id="story"><p>The story, told on a page without the wide layout.</p></div></div></body></html>';
    const selector = shortest('body > div#page > div#story.wide > p', docs);
    expect(extractWithRules(parseHtml(html), { selectors: [selector], clean: [] }).text).toBe('The story, told on a page without the wide layout.');
    expect(extractWithRules(parseHtml(html), { selectors: ['div#story.wide > p'], clean: [] }).wordCount).toBe(0);
  });

  it('writes each selector once, in order; the same content at two depths is one text', () => {
    // the article at two depths (a page with a wrapper more) is one selector once written from its container
    const docs = [page('a', STORY), page('b', `div.wrapper > ${STORY}`)];
    expect(shortestSelectors([steps(`body > ${STORY}`), steps(`body > div.wrapper > ${STORY}`), steps('body > div#page > main.content > article.post > div.entry > ul > li')], docs)).toEqual([
      'div.entry > p',
      'div.entry > ul > li',
    ]);
  });
});

describe('shortestSelectors in learnRules', () => {
  it('reads the pages with every class they were rendered with, as CSS matches them', () => {
    // a sidebar box on four of six pages, named `div.article-body` on one: not a name of the site
    // (names.ts leaves it out of learning), and a class css-select still sees on that page
    const pages = newsSite(6).map((p) => p.doc);
    const box = (d: FeatureDocument, k: number) => ({
      ...d,
      blocks: [
        ...d.blocks,
        makeBlock({ text: "Sign up for the week's best stories, sent every Friday.", path: `div#page.wrap:2 > aside.sidebar:2 > div${k === 0 ? '.article-body' : ''}:3 > p:1`, bbox: { x: 1200, y: 900, width: 300, height: 40 }, css: { 'font-size': '13px' } }, d.blocks.length),
      ],
    });
    const docs = pages.map((d, k) => (k < 4 ? box(d, k) : d));
    const rules = learnRules(docs);
    expect(rules.content.selectors[0]).toBe('article.post > div.article-body > p');
    const sidebar = docs[0].blocks[docs[0].blocks.length - 1].path;
    expect(rules.content.selectors.some((s) => selectorTakes(parseRuleSelector(s)!, sidebar))).toBe(false);
    // without the box's class, the container alone names the story
    expect(learnRules(pages).content.selectors[0]).toBe('div.article-body > p');
  });

  it('a clean selector written from its container, as the body\'s, still cleans under a wrapper more', () => {
    const html = (wrapper: boolean) => `<html><body>${wrapper ? '<div class="ad-slot">' : ''}<div id="page"><article class="post"><div class="entry">
      <p>The council voted on Tuesday to widen the road.</p><p class="postmeta">Filed under Roads</p></div></article></div>${wrapper ? '</div>' : ''}</body></html>`;
    const docs = [page('a', 'div#page > article.post > div.entry > p', 'div#page > article.post > div.entry > p.postmeta')];
    const [body] = shortestSelectors([steps('body > div#page > article.post > div.entry > p')], docs);
    // learn writes the clean selectors from their text (shortestSelectorTexts); one it cannot read stays as it is
    const [clean, odd] = shortestSelectorTexts(['body > div#page > article.post > div.entry > p.postmeta', 'div.entry p'], docs);
    expect([body, clean, odd]).toEqual(['div.entry > p', 'div.entry > p.postmeta', 'div.entry p']);
    for (const wrapper of [false, true]) {
      expect(extractWithRules(parseHtml(html(wrapper)), { selectors: [body], clean: [clean] }).text, `wrapper: ${wrapper}`).toBe('The council voted on Tuesday to widen the road.');
    }
  });

  it('keeps the rules whole on pages holding a block whose recorded path was cut: any tail may take it', () => {
    // a block nested past the path cap: its ancestors above the recorded steps are unknown
    const cut = { ...makeBlock({ text: 'deep comment', path: 'ul.thread > li > p' }, 1), selector: 'body ul.thread > li > p' };
    const docs = [makeDoc({ pageId: 'a', blocks: [makeBlock({ text: 'the story', path: STORY }, 0), cut] })];
    expect(shortestSelectors([steps(`body > ${STORY}`)], docs)).toEqual([`body > ${STORY}`]);
    // the single-step record of a block whose one step was too long to keep
    const oneStep = { ...cut, path: path('p'), selector: 'body p' };
    expect(shortestSelectors([steps(`body > ${STORY}`)], [makeDoc({ pageId: 'b', blocks: [docs[0].blocks[0], oneStep] })])).toEqual([`body > ${STORY}`]);
  });

  it('tells apart two paths that differ only in how their class names split', () => {
    // `div.box > p` takes a div of classes "box" and "x", not one of the single class "box.x"
    const step = (classes: string[]): PathStep => ({ tag: 'div', classes, index: 1 });
    const p: PathStep = { tag: 'p', classes: [], index: 1 };
    const blocks = [
      makeBlock({ text: 'the story', path: 'main#m > div.box > p' }, 0),
      makeBlock({ text: 'a promo', path: [{ tag: 'section', classes: [], index: 2 }, step(['box.x']), p] }, 1),
      makeBlock({ text: 'another promo', path: [{ tag: 'section', classes: [], index: 2 }, step(['box', 'x']), p] }, 2),
    ];
    expect(shortestSelectors([steps('body > main#m > div.box > p')], [makeDoc({ pageId: 'a', blocks })])).toEqual(['main#m > div.box > p']);
  });
});

describe('parseRuleSelector and selectorTakes', () => {
  it('reads a selector from body and a tail that matches at any depth', () => {
    expect(parseRuleSelector('body > div#page > p')).toEqual({ rooted: true, steps: steps('body > div#page > p') });
    expect(parseRuleSelector('div.entry > p:nth-child(2)')).toEqual({ rooted: false, steps: [{ tag: 'div', classes: ['entry'] }, { tag: 'p', classes: [], nthChild: 2 }] });
    for (const bad of ['div.entry p', 'div > body > p', 'p, div', '']) expect(parseRuleSelector(bad), bad).toBeNull();
    const tail = parseRuleSelector('div.entry > p')!;
    expect(selectorTakes(tail, path('div#page > div.entry > p'))).toBe(true);
    expect(selectorTakes(tail, path('div.entry > p > span'))).toBe(true);
    expect(selectorTakes(tail, path('div.entry > div > p'))).toBe(false);
    const rooted = parseRuleSelector('body > div.entry > p')!;
    expect(selectorTakes(rooted, path('div.entry > p'))).toBe(true);
    expect(selectorTakes(rooted, path('div#page > div.entry > p'))).toBe(false);
  });
});

describe('a shortened selector at apply', () => {
  it('takes the article on a page whose layout adds a wrapper above its container, which the selector from body misses', () => {
    const docs = [page('a', STORY, 'div#page > aside.related > p'), page('b', STORY)];
    const short = shortest(`body > ${STORY}`, docs);
    const html = `<html><body><div id="page"><div class="promo-wrapper"><main class="content"><article class="post"><div class="entry">
      <p>The council voted on Tuesday to widen the road.</p><p>Work starts in May.</p></div></article></main></div>
      <aside class="related"><p>Other stories</p></aside></div></body></html>`;
    const take = (selector: string) => extractWithRules(parseHtml(html), { selectors: [selector], clean: [] }).text;
    expect(take(`body > ${STORY}`)).toBe('');
    expect(take(short)).toBe('The council voted on Tuesday to widen the road.\nWork starts in May.');
  });
});

describe('selectorTakes against css-select', () => {
  it('takes a block exactly when css-select matches its element or an ancestor, for tails of every path of a random page', () => {
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const names = ['a', 'b', 'c'];
    const grow = (depth: number): string => {
      const tag = ['div', 'section', 'p'][rand(3)];
      const cls = names.filter(() => rand(3) === 0);
      const id = rand(6) === 0 ? ` id="i${rand(3)}"` : '';
      const inner = depth > 0 ? Array.from({ length: 1 + rand(3) }, () => grow(depth - 1)).join('') : `leaf ${rand(1e6)}`;
      return `<${tag}${id}${cls.length ? ` class="${cls.join(' ')}"` : ''}>${inner}</${tag}>`;
    };
    const doc = parseHtml(`<html><body>${Array.from({ length: 4 }, () => grow(4)).join('')}</body></html>`);
    // every element holding text directly is a block; its path from below <body>, with positions
    const leaves: Element[] = [];
    const walk = (el: Element) => {
      if (el.children.some((c) => c.type === 'text')) leaves.push(el);
      for (const c of el.children) if (c instanceof Element) walk(c);
    };
    const body = (doc.children.find((c) => c instanceof Element && c.name === 'html') as Element).children.find((c) => c instanceof Element && c.name === 'body') as Element;
    for (const c of body.children) if (c instanceof Element) walk(c);
    const pathOf = (el: Element): PathStep[] => {
      const out: PathStep[] = [];
      for (let n: Element | null = el; n && n !== body; n = n.parent as Element | null) {
        const siblings = (n.parent as Element).children.filter((c) => c instanceof Element);
        out.unshift({ tag: n.name, ...(n.attribs.id ? { id: n.attribs.id } : {}), classes: (n.attribs.class ?? '').split(' ').filter(Boolean), index: siblings.indexOf(n) + 1 });
      }
      return out;
    };
    const paths = leaves.map(pathOf);
    let compared = 0;
    for (const p of paths.slice(0, 30)) {
      for (let start = 0; start < p.length; start++) {
        const tail = p.slice(start).map((s, i) => ({ tag: s.tag, ...(s.id ? { id: s.id } : {}), classes: s.classes, ...(i % 2 ? { nthChild: s.index } : {}) }));
        const text = tail.map(formatStep).join(' > ');
        const match = compileSelector(text)!;
        leaves.forEach((leaf, k) => {
          let css = false;
          for (let n: Element | null = leaf; n && n !== body; n = n.parent as Element | null) css ||= match(n);
          expect(selectorTakes(parseRuleSelector(text)!, paths[k]), `${text} on ${k}`).toBe(css);
          compared++;
        });
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
