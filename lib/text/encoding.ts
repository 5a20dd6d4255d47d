/**
 * Bytes to text as a browser reads them, and HTML text to the UTF-8 bytes spider stores. The
 * encoding is the WHATWG encoding sniffing algorithm's (html-encoding-sniffer): a byte order mark,
 * then the charset of the Content-Type, then for HTML a `<meta charset>` or `<meta http-equiv>` in
 * the first 1024 bytes (for XML its declaration), then a default; the bytes are decoded with the
 * Encoding Standard's decoders (@exodus/bytes), the BOM left out as a browser leaves it out.
 * One reading for the fetch path's pages (lib/politeness/page-fetch.ts), render's HTML as served
 * (lib/render/served.ts) and feeds (lib/net/feed-fetch.ts).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { legacyHookDecode, normalizeEncoding } from '@exodus/bytes/encoding.js';
import htmlEncodingSniffer from 'html-encoding-sniffer';
import { MIMEType } from 'whatwg-mimetype';

export interface SniffOptions {
  /** XML's sniffing (no `<meta>` prescan; UTF-8 by default): for feeds. Default: as the Content-Type says (`application/xhtml+xml` is XML). */
  readonly xml?: boolean;
}

/**
 * The encoding a browser reads `bytes` in, by its WHATWG name (`UTF-8`, `Shift_JIS`, `windows-1251`...).
 * Where nothing names one, HTML is read as UTF-8 when its bytes are valid UTF-8, else as windows-1252
 * (the HTML standard's default for most locales, Chromium's too). Chromium reads undeclared UTF-8 as
 * windows-1252 as well (render tells it UTF-8 for such a document: lib/render/browser.ts), and guesses
 * other undeclared encodings with a detector (Shift_JIS, windows-1251); spider keeps UTF-8 for such
 * bytes, as it always read them, and guesses nothing else.
 */
export function sniffEncoding(bytes: Uint8Array, contentType?: string, options: SniffOptions = {}): string {
  const mime = contentType ? MIMEType.parse(contentType) : null;
  const transportLayerEncodingLabel = mime?.parameters.get('charset');
  const xml = options.xml ?? mime?.isXML() ?? false;
  return htmlEncodingSniffer(bytes, {
    xml,
    ...(transportLayerEncodingLabel ? { transportLayerEncodingLabel } : {}),
    ...(xml ? {} : { defaultEncoding: isUtf8(bytes) ? 'UTF-8' : 'windows-1252' }),
  });
}

/** The text of `bytes` (a page, a feed) served with `contentType`, read as a browser reads it (sniffEncoding). */
export function decodeBytes(bytes: Uint8Array, contentType?: string, options: SniffOptions = {}): string {
  const name = sniffEncoding(bytes, contentType, options);
  return legacyHookDecode(bytes, normalizeEncoding(name) ?? 'utf-8');
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * HTML text as spider stores it (`served.html`, `snapshot.html`): UTF-8, led by a byte order mark
 * unless a reader that sniffs the bytes (a browser opening the file, with no Content-Type to go by)
 * reads them as UTF-8 anyway: the text declares UTF-8, or it is ASCII and declares nothing (or
 * windows-1252), which reads the same in the default. A page's `<meta charset="shift_jis">` stays in its text as the page
 * sent it, and such a reader would believe it, and read a page declaring nothing in its default
 * (windows-1252); a BOM overrides both. The whole text is looked through, not its first 1024 bytes:
 * a browser's parser also heeds a `<meta charset>` it meets later while the encoding is its guess,
 * and in a snapshot spider's own `<meta>`s come first. spider's own readers read UTF-8 and leave the
 * BOM out (lib/html/parse.ts).
 */
export function htmlToStore(html: string): Buffer {
  const bytes = Buffer.from(html, 'utf8');
  const read = htmlEncodingSniffer(bytes, { maxPrescanBytes: Infinity });
  const asUtf8 = read === 'UTF-8' || (read === 'windows-1252' && isAscii(bytes));
  return asUtf8 ? bytes : Buffer.concat([UTF8_BOM, bytes]);
}
