import { describe, expect, it } from 'vitest';
import { chooseHeaderBlocks } from '../../lib/learn/header';
import { makeBlock, makeDoc } from './factory';

/** A page of one of two templates: headline, a byline of its own, a constant share line, then the body (chosen). */
function page(i: number, template: 'a' | 'b') {
  const root = template === 'a' ? 'main.story' : 'div#content > div.post';
  const title = `Harbour council vote number ${i} delayed again`;
  const blocks = [
    makeBlock({ text: title, path: `${root} > h1.${template}-headline` }, 0),
    makeBlock({ text: `By Reporter ${i} on November ${i}, 2012`, path: `${root} > div.${template}-byline` }, 1),
    makeBlock({ text: 'Share this story', path: `${root} > div.${template}-share` }, 2),
    makeBlock({ text: `The council met on day ${i} and the vote on the harbour was delayed.`, path: `${root} > div.${template}-body > p` }, 3),
  ];
  return makeDoc({ pageId: `${template}${i}`, title: `${title} | The Daily`, blocks });
}

describe('chooseHeaderBlocks', () => {
  it('finds each template\u2019s byline between headline and body, not the share line every page shows', () => {
    const docs = [1, 2, 3].map((i) => page(i, 'a')).concat([4, 5, 6, 7].map((i) => page(i, 'b')));
    const chosen = docs.map(() => [false, false, false, true]);
    const got = chooseHeaderBlocks(docs, chosen);
    expect(got.pagesWithHeadline).toBe(7);
    expect(got.kinds.sort()).toEqual(['div#content>div.post>div.b-byline', 'main.story>div.a-byline']);
    expect(got.header).toEqual(docs.map(() => [false, true, false, false]));
  });

  it('calls a header kind the dek when it restates the page\u2019s description on at least half of its pages that have one', () => {
    const standfirst = (i: number) => `Council members postponed harbour vote ${i} again over dredging costs and ferry timetables`;
    const docs = [1, 2, 3, 4].map((i) => {
      const doc = page(i, 'a');
      doc.blocks.splice(1, 0, makeBlock({ text: standfirst(i), path: 'main.story > p.a-standfirst' }, 0.5));
      return doc;
    });
    // three of the four pages have a description; it restates the standfirst on two of them
    docs[0].page.description = standfirst(1);
    docs[1].page.description = `${standfirst(2).slice(0, 60)}\u2026`;
    docs[2].page.description = 'A weekly column on sailing, tides and the best harbour walks in the county';
    const chosen = docs.map(() => [false, false, false, false, true]);
    const got = chooseHeaderBlocks(docs, chosen);
    expect(got.dekKinds).toEqual(['main.story>p.a-standfirst']);
    expect(got.kinds).toEqual(['main.story>div.a-byline']);
    expect(got.dek).toEqual(docs.map(() => [false, true, false, false, false]));
    expect(got.header).toEqual(docs.map(() => [false, false, true, false, false]));
    // restated on one page of the three described: the header's
    docs[1].page.description = 'Something else entirely happened at the harbour this week, say the ferry operators';
    expect(chooseHeaderBlocks(docs, chosen).dekKinds).toEqual([]);
    // a description every page shares is the site's tagline, and one that restates the title is the headline's: neither counts
    docs[1].page.description = standfirst(2);
    docs[2].page.description = docs[3].page.description = 'The Daily: harbour news, council votes, ferry timetables and tides, every morning';
    expect(chooseHeaderBlocks(docs, chosen).dekKinds).toEqual(['main.story>p.a-standfirst']);
    // (a caption that echoes the headline would otherwise restate a description that is the title)
    for (const doc of docs) {
      doc.page.description = doc.page.title;
      doc.blocks[1].text = `${doc.blocks[0].text}: council members argue on the quay`;
    }
    expect(chooseHeaderBlocks(docs, chosen).dekKinds).toEqual([]);
    expect(chooseHeaderBlocks(docs, chosen).kinds).toContain('main.story>p.a-standfirst');
  });

  it('takes nothing on pages where no block shows the title', () => {
    const docs = [1, 2, 3].map((i) => page(i, 'a'));
    for (const d of docs) d.page.title = 'Something else entirely';
    expect(chooseHeaderBlocks(docs, docs.map(() => [false, false, false, true])).kinds).toEqual([]);
  });
});
