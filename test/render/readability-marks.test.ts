/**
 * The in-page Readability's marks (lib/render/readability-in-page.ts), run here on jsdom with the
 * real @mozilla/readability: every live element that directly holds text Readability kept is marked,
 * also where Readability wrapped or replaced that element with one of its own.
 */
import { Readability } from '@mozilla/readability';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { markReadability } from '../../lib/render/readability-in-page';
import { READABILITY_MARK } from '../../lib/types/feature-document';

const para = (n: number) =>
  `Paragraph ${n} of the story: lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua, ut enim ad minim veniam, quis nostrud exercitation.`;

function marked(html: string): { doc: Document; result: ReturnType<typeof markReadability> } {
  const dom = new JSDOM(html);
  const doc = dom.window.document;
  const result = markReadability(doc, Readability, READABILITY_MARK, 'data-spider-i');
  return { doc, result };
}

describe('markReadability', () => {
  it('marks a <div> holding only text, which Readability turns into a <p> of its own', () => {
    const { doc, result } = marked(`<html><head><title>A story</title></head><body>
      <nav><a href="/">Home</a> <a href="/news">News</a></nav>
      <article><h1>A story</h1>
        <div id="d1">${para(1)}</div><style>div{font-weight:bold}</style>
        <div id="d2">${para(2)}</div>
        <p id="p3">${para(3)}</p>
      </article>
      <footer>All rights reserved</footer></body></html>`);
    expect(result.ok).toBe(true);
    for (const id of ['d1', 'd2', 'p3']) expect(doc.getElementById(id)!.hasAttribute(READABILITY_MARK), id).toBe(true);
    expect(doc.querySelector('footer')!.hasAttribute(READABILITY_MARK)).toBe(false);
    expect(doc.querySelector('nav')!.hasAttribute(READABILITY_MARK)).toBe(false);
    // the clone's numbering never reaches the live document
    expect(doc.querySelector('[data-spider-i]')).toBeNull();
  });

  it('marks the <font> elements holding the story text', () => {
    const { doc } = marked(`<html><head><title>Fonts</title></head><body><article><h1>Fonts</h1>
      <p><font id="f1" face="Arial">${para(1)}</font></p><p><font id="f2" face="Times">${para(2)}</font></p><p><font id="f3">${para(3)}</font></p>
      </article></body></html>`);
    for (const id of ['f1', 'f2', 'f3']) expect(doc.getElementById(id)!.hasAttribute(READABILITY_MARK), id).toBe(true);
  });
});
