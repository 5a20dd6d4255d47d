import { describe, expect, it } from 'vitest';
import { DomHandler, Element, Text, type AnyNode } from 'domhandler';
import { Parser, Tokenizer } from 'htmlparser2';
import { DECODE_CHUNK_BYTES, elementOrder, elementRange, headAndBody, parseHtml, parseServedHtml, SKIPPING_TOKENIZER, SkippingTokenizer, textContent } from '../../lib/html/parse';

/** A parsed tree as plain data: elements with their attributes, text, and nothing else of domhandler's. */
function tree(node: AnyNode): unknown {
  if (node instanceof Text) return node.data;
  if (node instanceof Element) return [node.name, node.attribs, node.children.map(tree)];
  if ('children' in node) return (node.children as AnyNode[]).map(tree);
  // a comment or a directive (the doctype), with its text
  return [node.type, 'data' in node ? node.data : undefined];
}

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

  it('starts the body at an <object> in <head>, as a browser does: its fallback is text of the page', () => {
    const doc = parseHtml('<html><head><title>T</title><object data="/v.swf"><p>The video, told.</p></object></head><body><p>Body</p></body></html>');
    const { head, body } = headAndBody(doc);
    expect(head!.children.map((c) => (c as Element).name)).toEqual(['title']);
    expect(body!.children.map((c) => (c as Element).name)).toEqual(['object', 'p']);
    expect(textContent(body!)).toBe('The video, told.Body');
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

  it('parses UTF-8 bytes into the tree it builds from their text, whatever straddles the pieces they are decoded in', () => {
    // every construct below is moved across the first piece's edge one byte at a time: multi-byte
    // characters (2, 3 and 4 bytes), entities, a comment, a tag and its attribute, script text
    const tricky = '<p title="caf\u00e9 \u20ac">na\u00efve &amp; &nbsp;\u20ac\ud83d\ude00<!-- a comment --><script>if (a<b) x()</script><b class="x">bold</b></p>';
    const head = '<!DOCTYPE html><html><head><title>T</title></head><body><div>';
    const trickyBytes = Buffer.byteLength(tricky);
    for (let at = 0; at <= trickyBytes; at++) {
      // the piece's edge falls `at` bytes into the tricky part
      const html = `${head}${'x'.repeat(DECODE_CHUNK_BYTES - head.length - at)}${tricky}</div></body></html>`;
      expect(tree(parseHtml(Buffer.from(html, 'utf8')))).toEqual(tree(parseHtml(html)));
    }
    // a byte order mark is left out, of bytes and of text alike, as a browser leaves it out
    const bom = Buffer.from('\ufeff<p>x</p>', 'utf8');
    expect(tree(parseHtml(bom))).toEqual(tree(parseHtml('<p>x</p>')));
    expect(tree(parseHtml(bom.toString('utf8')))).toEqual(tree(parseHtml('<p>x</p>')));
    // a page cut short inside a tag, after its first piece: the same end as its text's
    for (const cut of ['</p ', '</div class="a', '<div title="a>b', '<!-- a > b']) {
      const page = `<html><body><p>${'y'.repeat(DECODE_CHUNK_BYTES + 100)}</p>${cut}`;
      const doc = parseHtml(Buffer.from(page, 'utf8'));
      expect(tree(doc)).toEqual(tree(parseHtml(page)));
      expect(textContent(doc).length).toBeLessThan(DECODE_CHUNK_BYTES + 120);
    }
    // bytes that are not UTF-8 are replaced as Buffer#toString replaces them
    const bad = Buffer.concat([Buffer.from('<p>a'), Buffer.from([0xc3, 0x28, 0xff, 0xe2, 0x82]), Buffer.from('b</p>')]);
    expect(tree(parseHtml(bad))).toEqual(tree(parseHtml(bad.toString('utf8'))));
  });

  it('reads text and attribute values in runs, into the tree htmlparser2\'s own tokenizer builds, wherever the pieces end', () => {
    // an htmlparser2 whose tokenizer is built otherwise would get its own back: seen here first
    expect(SKIPPING_TOKENIZER).toBe(true);
    const options = { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: false };
    const parse = (html: string, tokenizer: typeof Tokenizer, piece: number) => {
      const handler = new DomHandler();
      const parser = new Parser(handler, { ...options, Tokenizer: tokenizer });
      for (let i = 0; i < html.length; i += piece) parser.write(html.slice(i, i + piece));
      parser.end();
      return tree(handler.root);
    };
    const pages = [
      // character references in text, complete, without their semicolon, unknown, cut at the end
      '<p>One &lt; two &amp three &nbsp;four &notit; &#38;&#x26; &amp</p>Tail &',
      // in attribute values: double-quoted (read in runs), single-quoted and bare (as htmlparser2 reads them)
      '<p class="a b" title="x &amp; y &quot;z&quot; &notit=1 &#38;" data-e="">t</p><a href=\'/q?a=1&b=2&amp;c\' data-x=a&ampb>l</a>',
      // text htmlparser2 reads otherwise: RCDATA (references decoded), script and style (not), comments, CDATA, foreign content
      '<title>A &amp; B</title><textarea>&lt;x&gt;</textarea><script>if (a<b && c) x("&amp;")</script><style>a>b{content:"&amp;"}</style>',
      '<!-- a &amp; <b> --><svg><style>&amp;</style><![CDATA[ & < ]]></svg><math><mi>&pi;</mi></math>',
      // a quote or a < where a run ends, unclosed values and tags
      '<p title="a<b>c">x</p><p title="&">&<</p><div title="never closed>text &amp; more',
    ];
    for (const page of pages) {
      const html = `<!DOCTYPE html><html><head></head><body>${page}</body></html>`;
      for (const piece of [1, 2, 3, 5, 7, html.length]) expect(parse(html, SkippingTokenizer, piece)).toEqual(parse(html, Tokenizer, piece));
    }
  });

  it('keeps each page\'s elements in document order with the end of each one\'s subtree, as the tree is once parsed', () => {
    const names = (list: readonly Element[]) => list.map((el) => el.name + (el.attribs.id ? `#${el.attribs.id}` : ''));
    const walk = (root: import('domhandler').ParentNode): Element[] =>
      root.children.flatMap((c) => (c instanceof Element ? [c, ...walk(c)] : []));
    const pages = [
      // a snapshot: the parser's order
      parseHtml('<!DOCTYPE html><html><head><title>T</title><meta name="a"></head><body><div id="d"><p id="p1">a<br>b</p><ul><li>x</li></ul></div><img id="i"><p id="p2">c</p></body></html>'),
      // implied ends, a stray end tag, a void element written as a pair
      parseHtml('<html><body><p id="p1">a<p id="p2">b<div id="d">c</span></div><br></br><table><tr><td>1</td></tr></table></body></html>'),
      // a raw page whose head content moves into the body, and one whose rows go into a tbody: the order is the tree's as it ends
      parseHtml('<html><head><title>T</title><div id="moved">x</div></head><body><p id="p">y</p></body></html><p id="after">z</p>'),
      parseServedHtml('<html><body><table id="t"><tr id="r1"><td>1</td></tr><tr id="r2"><td>2</td></tr></table></body></html>'),
      // a fragment given its html and body
      parseHtml('<p id="a">one</p><p id="b">two</p>'),
    ];
    for (const doc of pages) {
      const order = elementOrder(doc);
      expect(names(order.elements)).toEqual(names(walk(doc)));
      order.elements.forEach((el, i) => expect(order.ends[i], names([el])[0]).toBe(i + 1 + walk(el).length));
      // each element's subtree is its range of the order
      for (const el of order.elements) {
        const { order: o, from, to } = elementRange(el);
        expect(o.elements.slice(from, to)).toEqual(walk(el));
      }
    }
    expect(names(elementOrder(pages[2]).elements)).toEqual(['html', 'head', 'title', 'body', 'div#moved', 'p#p', 'p#after']);
    expect(names(elementOrder(pages[3]).elements)).toEqual(['html', 'body', 'table#t', 'tbody', 'tr#r1', 'td', 'tr#r2', 'td']);
    // a tree built apart from any document: its own order
    const apart = new Element('div', {}, [new Element('p', { id: 'x' }, [new Text('t')])]);
    expect(names(elementRange(apart).order.elements)).toEqual(['p#x']);
  });
});
