import htmlEncodingSniffer from 'html-encoding-sniffer';
import { createSinglebyteEncoder } from '@exodus/bytes/single-byte.js';
import { describe, expect, it } from 'vitest';
import { decodeBytes, htmlToStore, sniffEncoding } from '../../lib/text/encoding';

describe('sniffEncoding, decodeBytes', () => {
  it('reads a page that names no encoding as UTF-8 when its bytes are UTF-8, else as windows-1252', () => {
    expect(decodeBytes(Buffer.from('<p>Café – 東京</p>'), 'text/html')).toBe('<p>Café – 東京</p>');
    const latin = createSinglebyteEncoder('windows-1252')('<p>Café – naïve</p>');
    expect(sniffEncoding(latin, 'text/html')).toBe('windows-1252');
    expect(decodeBytes(latin, 'text/html')).toBe('<p>Café – naïve</p>');
    // what the Content-Type names wins over a <meta>; a label it does not know is passed over
    expect(sniffEncoding(Buffer.from('<meta charset="shift_jis">'), 'text/html; charset="windows-1251"')).toBe('windows-1251');
    expect(sniffEncoding(Buffer.from('<meta charset="shift_jis">'), 'text/html; charset=nonsense')).toBe('Shift_JIS');
  });

  it('reads XML (a feed, an XHTML page) by its declaration, never by a <meta>', () => {
    const doc = Buffer.from('<?xml version="1.0" encoding="windows-1251"?><html><meta charset="shift_jis"/></html>');
    expect(sniffEncoding(doc, 'text/html')).toBe('Shift_JIS');
    expect(sniffEncoding(doc, 'application/xhtml+xml')).toBe('windows-1251');
    expect(sniffEncoding(Buffer.from('<rss><meta charset="shift_jis"/></rss>'), 'text/html', { xml: true })).toBe('UTF-8');
  });
});

describe('htmlToStore', () => {
  it('leads the UTF-8 bytes with a BOM where a reader sniffing them would not read UTF-8', () => {
    const cases: [string, boolean][] = [
      ['<meta charset="utf-8"><p>東京</p>', false],
      ['<p>plain ASCII, no declaration</p>', false],
      ['<meta charset="shift_jis"><p>plain ASCII under a foreign declaration</p>', true],
      ['<meta charset="shift_jis"><p>東京</p>', true],
      ['<p>東京, no declaration</p>', true],
      // a declaration past the prescan's 1024 bytes: a browser's parser meets it too
      [`<head><title>${'x'.repeat(2000)}</title><meta charset="windows-1251"></head><p>Москва</p>`, true],
      ['\ufeff<meta charset="shift_jis"><p>東京</p>', false], // a BOM of its own: no second one
    ];
    for (const [html, bom] of cases) {
      const bytes = htmlToStore(html);
      // a BOM (three bytes) before the text's UTF-8, or the UTF-8 alone
      expect(bytes.length - Buffer.byteLength(html), html.slice(0, 60)).toBe(bom ? 3 : 0);
      // a reader sniffing the bytes, with no Content-Type, reads UTF-8 (ASCII reads alike in its default)
      if (bom || /[^\x00-\x7f]/.test(html)) expect(htmlEncodingSniffer(bytes, { maxPrescanBytes: Infinity }), html.slice(0, 60)).toBe('UTF-8');
      expect(new TextDecoder().decode(bytes)).toBe(html.replace(/^\ufeff/, ''));
    }
  });
});
