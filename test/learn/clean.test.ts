import { describe, expect, it } from 'vitest';
import { cleanDescendants, learnClean } from '../../lib/learn/clean';
import { formatSelector, parseSelector } from '../../lib/learn/consolidate';
import { makeBlock, makeDoc } from './factory';

const entry = 'div#main > div.post > div.entry';

/** A post: three body paragraphs (chosen), a "Posted in" line as a bare-tag sibling with a class, a constant share heading. */
function post(i: number) {
  const blocks = [
    makeBlock({ text: `Paragraph one of post ${i} about the harbour.`, path: `${entry} > p:1` }, 0),
    makeBlock({ text: `Paragraph two of post ${i}, the council vote.`, path: `${entry} > p:2` }, 1),
    makeBlock({ text: `Posted in: Section ${i} | comments`, path: `${entry} > p.postmeta:3` }, 2),
    makeBlock({ text: 'Like this:', path: `${entry} > div.sharedaddy:4 > h3.sd-title:1` }, 3),
  ];
  return { doc: makeDoc({ pageId: `p${i}`, blocks }), chosen: [true, true, false, true] };
}

describe('learnClean', () => {
  it('drops a selector whose text is the same on every page and cleans a left-out element the body selector takes', () => {
    const pages = [1, 2, 3].map(post);
    const selectors = [`body > ${entry} > p`, `body > ${entry} > div.sharedaddy > h3.sd-title`].map((s) => parseSelector(s)!);
    const got = learnClean(pages.map((p) => p.doc), pages.map((p) => p.chosen), selectors);
    expect(got.steps.map(formatSelector)).toEqual([`body > ${entry} > p`]);
    expect(got.dropped).toEqual([`body > ${entry} > div.sharedaddy > h3.sd-title`]);
    expect(got.clean).toEqual([`body > ${entry} > p.postmeta`]);
  });

  it('keeps what differs from page to page, and cleans nothing seen on one page only', () => {
    const pages = [1, 2, 3].map(post);
    pages[1].doc.blocks[3].text = 'Like this post about the harbour:';
    // the postmeta class on the first page only
    for (const p of pages.slice(1)) p.doc.blocks[2].path[p.doc.blocks[2].path.length - 1].classes = [];
    const selectors = [`body > ${entry} > p`, `body > ${entry} > div.sharedaddy > h3.sd-title`].map((s) => parseSelector(s)!);
    const got = learnClean(pages.map((p) => p.doc), pages.map((p) => p.chosen), selectors);
    expect(got.steps).toHaveLength(2);
    expect(got.dropped).toEqual([]);
    expect(got.clean).toEqual([]);
  });
});

describe('cleanDescendants', () => {
  const byline = 'div#main > div.post > div.byline';
  /** A byline element (chosen) holding the author's name and, inside, the same links on every page; and a dateline inside that differs. */
  function page(i: number) {
    const blocks = [
      makeBlock({ text: `By Author ${i}`, path: byline }, 0),
      makeBlock({ text: 'View Profile', path: `${byline} > ul.author-links:2 > li:1`, link: true }, 1),
      makeBlock({ text: 'RSS', path: `${byline} > ul.author-links:2 > li:2`, link: true }, 2),
      makeBlock({ text: `November ${i}, 2012`, path: `${byline} > span.date:3` }, 3),
    ];
    return { doc: makeDoc({ pageId: `p${i}`, blocks }), chosen: [true, false, false, false] };
  }

  it('cleans the left-out blocks inside a taken element that say the same on every page, not a dateline', () => {
    const pages = [1, 2, 3].map(page);
    const got = cleanDescendants(pages.map((p) => p.doc), pages.map((p) => p.chosen), [parseSelector(`body > ${byline}`)!]);
    expect(got).toEqual([`body > ${byline} > ul.author-links > li`]);
  });

  it('cleans nothing a chosen block inside would match, or lies in', () => {
    const pages = [1, 2, 3].map(page);
    pages[0].chosen[1] = true;
    expect(cleanDescendants(pages.map((p) => p.doc), pages.map((p) => p.chosen), [parseSelector(`body > ${byline}`)!])).toEqual([]);
    const holding = [1, 2, 3].map(page);
    holding[0].doc.blocks.push(makeBlock({ text: 'Jane Doe writes on the harbour.', path: `${byline} > ul.author-links:2 > li:3 > p:1` }, 4));
    holding[0].chosen.push(true);
    expect(cleanDescendants(holding.map((p) => p.doc), holding.map((p) => p.chosen), [parseSelector(`body > ${byline}`)!])).toEqual([]);
  });

  describe('a box of links inside a taken element', () => {
    const story = 'div#main > div.story';
    /** A story (chosen paragraph), a related-stories box whose headlines differ per page, a caption. */
    function storyPage(i: number) {
      const blocks = [
        makeBlock({ text: `The council voted ${i} times on the harbour plan before it passed.`, path: `${story} > p:1` }, 0),
        makeBlock({ text: `Mayor ${i} says the vote was close`, path: `${story} > div#related:2 > ul:1 > li:1`, link: true }, 1),
        makeBlock({ text: `Harbour plan ${i} explained`, path: `${story} > div#related:2 > ul:1 > li:2`, link: true }, 2),
        makeBlock({ text: `The harbour at dawn, photographed on day ${i}.`, path: `${story} > div.caption:3` }, 3),
      ];
      return { doc: makeDoc({ pageId: `p${i}`, blocks }), chosen: [true, false, false, false] };
    }
    const clean = (pages: ReturnType<typeof storyPage>[], labels?: (boolean[] | undefined)[]) =>
      cleanDescendants(pages.map((p) => p.doc), pages.map((p) => p.chosen), [parseSelector(`body > ${story}`)!], labels);
    const related = `body > ${story} > div#related > ul > li`;

    it('is cleaned though its headlines differ from page to page, where the page-level labels left it out too; a caption is not links', () => {
      const pages = [1, 2, 3].map(storyPage);
      // the labels kept the paragraph only: the caption, left out too, is no box of links
      expect(clean(pages, pages.map(() => [true, false, false, false]))).toEqual([related]);
    });

    it('stays where the labels kept it (a roundup post\u2019s links), missed the story, or are absent', () => {
      const pages = [1, 2, 3].map(storyPage);
      expect(clean(pages, pages.map(() => [true, true, true, true]))).toEqual([]);
      // labels that kept only the caption did not find the article: they do not judge
      expect(clean(pages, pages.map(() => [false, false, false, true]))).toEqual([]);
      expect(clean(pages)).toEqual([]);
      // one judging page is not enough
      expect(clean(pages, [[true, false, false, false], undefined, undefined])).toEqual([]);
    });

    it('stays when it is not on every judging page: a post\u2019s own list of links, not the template\u2019s box', () => {
      const pages = [1, 2, 3].map(storyPage);
      pages[2].doc.blocks.splice(1, 2);
      pages[2].chosen.splice(1, 2);
      expect(clean(pages, pages.map((p) => p.chosen.map((c) => c)))).toEqual([]);
    });

    it('stays when one of its blocks is prose with a link, counted in characters (a sentence written without spaces is one word)', () => {
      const pages = [1, 2, 3].map(storyPage);
      const labels = pages.map(() => [true, false, false, false]);
      const b = pages[0].doc.blocks[2];
      Object.assign(b, { text: '今天市政府宣布了新的港口计划', words: 2, linkWords: 1, chars: 14, linkChars: 3 });
      expect(clean(pages, labels)).toEqual([]);
    });
  });
});
