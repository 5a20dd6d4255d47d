import { describe, expect, it } from 'vitest';
import { Element } from 'domhandler';
import { headAndBody, parseHtml, textContent } from '../../lib/html/parse';

describe('parseHtml', () => {
  it('parses a browser snapshot as is', () => {
    const doc = parseHtml('<!DOCTYPE html><html lang="en"><head><meta name="spider:url" content="https://e.com/"><title>T</title></head><body><P CLASS="x">A &amp; B</P></body></html>');
    const { head, body } = headAndBody(doc);
    expect(head?.children.length).toBe(2);
    const p = body!.children[0] as Element;
    expect(p.name).toBe('p');
    expect(p.attribs).toEqual({ class: 'x' });
    expect(textContent(p)).toBe('A & B');
  });

  it('moves content a raw page put in <head> into <body>, as a browser does', () => {
    const doc = parseHtml('<html><head><title>T</title><div id="a">Lost?</div><p>More</p></head><body><p>Body</p></body></html>');
    const { head, body } = headAndBody(doc);
    expect(head!.children.map((c) => (c as Element).name)).toEqual(['title']);
    expect(body!.children.map((c) => (c as Element).name)).toEqual(['div', 'p', 'p']);
    expect(body!.children[0].parent).toBe(body);
    expect(body!.children[1].prev).toBe(body!.children[0]);
  });

  it('creates a body for a page without one and moves trailing content into it', () => {
    const doc = parseHtml('<html><head><title>T</title></head><p>Only</p></html><p>After</p>');
    const { body } = headAndBody(doc);
    expect(body).toBeDefined();
    expect(textContent(body!)).toBe('OnlyAfter');
  });

  it('parses a 150 KB page completely (its speed is measured by npm run bench)', () => {
    const para = '<p class="x">Lorem ipsum <a href="/l">dolor</a> sit amet, <em>consectetur</em> adipiscing elit.</p>\n';
    const count = Math.ceil(150_000 / para.length);
    const html = `<!DOCTYPE html><html><head><title>T</title></head><body><div>${para.repeat(count)}</div></body></html>`;
    const { body } = headAndBody(parseHtml(html));
    const div = body!.children.find((c) => (c as Element).name === 'div') as Element;
    expect(div.children.filter((c) => (c as Element).name === 'p')).toHaveLength(count);
  });
});
