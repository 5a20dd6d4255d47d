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

  it('cleans nothing a chosen block inside would match', () => {
    const pages = [1, 2, 3].map(page);
    pages[0].chosen[1] = true;
    expect(cleanDescendants(pages.map((p) => p.doc), pages.map((p) => p.chosen), [parseSelector(`body > ${byline}`)!])).toEqual([]);
  });

  it('cleans a box of links inside a taken element though its headlines differ from page to page, not a caption', () => {
    const story = 'div#main > div.story';
    const pages = [1, 2, 3].map((i) => {
      const blocks = [
        makeBlock({ text: `The council voted ${i} times on the harbour plan before it passed.`, path: `${story} > p:1` }, 0),
        makeBlock({ text: `Mayor ${i} says the vote was close`, path: `${story} > div#related:2 > ul:1 > li:1`, link: true }, 1),
        makeBlock({ text: `Harbour plan ${i} explained`, path: `${story} > div#related:2 > ul:1 > li:2`, link: true }, 2),
        makeBlock({ text: `The harbour at dawn, photographed on day ${i}.`, path: `${story} > div.caption:3` }, 3),
      ];
      return { doc: makeDoc({ pageId: `p${i}`, blocks }), chosen: [true, false, false, false] };
    });
    const clean = (labels?: boolean[][]) => cleanDescendants(pages.map((p) => p.doc), pages.map((p) => p.chosen), [parseSelector(`body > ${story}`)!], labels);
    // the page-level extractor kept the paragraph and the caption, not the links
    expect(clean(pages.map(() => [true, false, false, true]))).toEqual([`body > ${story} > div#related > ul > li`]);
    // a list of links it kept (a roundup post's), or no label to judge by: the links stay
    expect(clean(pages.map(() => [true, true, true, true]))).toEqual([]);
    expect(clean()).toEqual([]);
    // a label that missed the story (it kept only the caption) does not judge
    expect(clean(pages.map(() => [false, false, false, true]))).toEqual([]);
  });
});
