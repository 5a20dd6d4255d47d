import { describe, expect, it } from 'vitest';
import { parseSelector } from '../../lib/learn/consolidate';
import { generalizeBodySelectors } from '../../lib/learn/generalize';
import { makeBlock, makeDoc } from './factory';

const body = 'div#main:1 > article.post:1 > div.entry:2';
const page = (i: number, extra: { text: string; path: string }[] = []) =>
  makeDoc({
    pageId: `p${i}`,
    blocks: [
      makeBlock({ text: `Paragraph one of post ${i} with words.`, path: `${body} > p:1` }, 0),
      makeBlock({ text: `Paragraph two of post ${i} with words.`, path: `${body} > p:2` }, 1),
      ...extra.map((e, k) => makeBlock(e, k + 2)),
    ],
  });
const chosenParagraphs = (docs: ReturnType<typeof page>[]) => docs.map((d) => d.blocks.map((b) => b.path.at(-1)!.tag === 'p'));
const paragraphs = parseSelector('body > div#main > article.post > div.entry > p')!;

describe('generalizeBodySelectors', () => {
  it("adds the body element's other prose children the training pages did not show", () => {
    const docs = [page(1), page(2), page(3)];
    const out = generalizeBodySelectors(docs, chosenParagraphs(docs), [paragraphs]);
    expect(out.added).toContain('body > div#main > article.post > div.entry > ul > li');
    expect(out.added).toContain('body > div#main > article.post > div.entry > h3');
    expect(out.steps).toHaveLength(1 + out.added.length);
  });

  it('adds none that takes what the learner left out on the training pages (a share list in the body)', () => {
    const share = [{ text: 'Facebook Twitter Email', path: `${body} > ul.share:3 > li:1` }];
    const docs = [page(1, share), page(2, share), page(3, share)];
    const out = generalizeBodySelectors(docs, chosenParagraphs(docs), [paragraphs]);
    expect(out.added).not.toContain('body > div#main > article.post > div.entry > ul > li');
    expect(out.added).toContain('body > div#main > article.post > div.entry > ol > li');
  });

  it("does not count the author's own list of links, left out on one page, against the body's lists", () => {
    const links = [
      { text: 'Working with widgets: what you need to know', path: `${body} > ul:3 > li:1` },
      { text: 'The ultimate guide to hashtags', path: `${body} > ul:3 > li:2` },
    ];
    const docs = [page(1, links), page(2), page(3)];
    const out = generalizeBodySelectors(docs, chosenParagraphs(docs), [paragraphs]);
    expect(out.added).toContain('body > div#main > article.post > div.entry > ul > li');
  });

  it('generalizes only from the selector of the body paragraphs, not from a stray one', () => {
    const docs = [page(1), page(2)];
    const stray = parseSelector('body > div#main > aside > p')!;
    const chosen = docs.map((d) => d.blocks.map((b) => b.path.at(-1)!.tag === 'p'));
    const out = generalizeBodySelectors(docs, chosen, [paragraphs, stray]);
    expect(out.added.length).toBeGreaterThan(0);
    expect(out.added.every((s) => s.startsWith('body > div#main > article.post > div.entry > '))).toBe(true);
    // what the body paragraphs alone give
    expect(out.added).toEqual(generalizeBodySelectors(docs, chosen, [paragraphs]).added);
  });
});
