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
    const docs = [1, 2, 3, 4].map((i) => page(i, 'a'));
    // the byline's kind: it says what two of the four descriptions say, a third has none
    docs[0].page.description = `By Reporter 1 on November 1, 2012`;
    docs[1].page.description = `By Reporter 2 on November 2, 2012`;
    docs[2].page.description = 'The harbour council delayed its vote once more';
    const chosen = docs.map(() => [false, false, false, true]);
    const got = chooseHeaderBlocks(docs, chosen);
    expect(got.dekKinds).toEqual(['main.story>div.a-byline']);
    expect(got.kinds).toEqual([]);
    expect(got.dek).toEqual(docs.map(() => [false, true, false, false]));
    expect(got.header).toEqual(docs.map(() => [false, false, false, false]));
    // on one page of the three described: the header's
    docs[1].page.description = 'Something else entirely happened in the harbour';
    const one = chooseHeaderBlocks(docs, chosen);
    expect(one.dekKinds).toEqual([]);
    expect(one.kinds).toEqual(['main.story>div.a-byline']);
  });

  it('takes nothing on pages where no block shows the title', () => {
    const docs = [1, 2, 3].map((i) => page(i, 'a'));
    for (const d of docs) d.page.title = 'Something else entirely';
    expect(chooseHeaderBlocks(docs, docs.map(() => [false, false, false, true])).kinds).toEqual([]);
  });
});
