import { describe, expect, it } from 'vitest';
import { chooseContainerText } from '../../lib/learn/container-text';
import { makeBlock, makeDoc } from './factory';

const post = 'div.hfeed > div.post > div.post-body';

/** A Blogger post: intro text straight in div.post-body, the letter in a blockquote (chosen), a link-only line in div.post-footer. */
function page(i: number, intro = `In November of ${1900 + i} a soldier wrote home to his mother about the long war and the peace to come.`) {
  const blocks = [
    makeBlock({ text: intro, path: post }, 0),
    makeBlock({ text: `Dear mother, letter ${i} ...`.repeat(5), path: `${post} > blockquote:2` }, 1),
    makeBlock({ text: 'Older posts Newer posts Home Subscribe to comments on this blog now', path: 'div.hfeed > div.post > div.post-footer:3', link: true }, 2),
  ];
  return makeDoc({ pageId: `p${i}`, blocks });
}

describe('chooseContainerText', () => {
  it('takes the prose written straight into the chosen blocks\u2019 parent, on two pages or more', () => {
    const docs = [1, 2, 3].map((i) => page(i));
    const chosen = docs.map(() => [false, true, false]);
    const got = chooseContainerText(docs, chosen);
    expect(got.chosen).toEqual(docs.map(() => [true, true, false]));
    expect(got.added).toBe(3);
  });

  it('leaves a parent whose own text is short or mostly links, or is on one page only', () => {
    const docs = [page(1, 'Posted by Shaun'), page(2, 'Posted by Shaun'), page(3)];
    const chosen = docs.map(() => [false, true, false]);
    expect(chooseContainerText(docs, chosen).added).toBe(0);
    const linked = [1, 2].map((i) => page(i));
    for (const d of linked) d.blocks[0].linkWords = d.blocks[0].words;
    expect(chooseContainerText(linked, linked.map(() => [false, true, false])).added).toBe(0);
  });

  it('leaves a wrapper whose own text is a stray line next to much more chosen text inside it', () => {
    const stray = 'Eyewitnesses said the building collapsed like a pack of cards, as our reporter saw it.';
    const docs = [1, 2, 3].map((i) => page(i, stray));
    // the chosen blockquote holds 20 times the stray line's words: the wrapper is not a body of prose
    for (const d of docs) {
      d.blocks[1].text = `Dear mother, letter number ${d.pageId}, from the front. `.repeat(30);
      d.blocks[1].words = d.blocks[1].text.split(/\s+/).filter(Boolean).length;
    }
    const chosen = docs.map(() => [false, true, false]);
    expect(chooseContainerText(docs, chosen).added).toBe(0);
    expect(chooseContainerText(docs, chosen, { minWords: 10, maxLinkShare: 0.3, minPages: 2, minOwnShare: 0 }).added).toBe(3);
  });
});
