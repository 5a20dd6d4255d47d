import { createSinglebyteEncoder } from '@exodus/bytes/single-byte.js';
import { describe, expect, it } from 'vitest';
import { decodeBytes, sniffEncoding } from '../../lib/text/encoding';

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
