/**
 * Bytes to text as a browser reads them. The encoding is the WHATWG encoding sniffing algorithm's (html-encoding-sniffer): a byte order mark,
 * then the charset of the Content-Type, then for HTML a `<meta charset>` or `<meta http-equiv>` in
 * the first 1024 bytes (for XML its declaration), then a default; the bytes are decoded with the
 * Encoding Standard's decoders (@exodus/bytes), the BOM left out as a browser leaves it out.
 * One reading for the fetch path's pages (lib/politeness/page-fetch.ts), render's HTML as served
 * (lib/render/served.ts) and feeds (lib/net/feed-fetch.ts).
 */
import { isUtf8 } from 'node:buffer';
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
 * windows-1252 as well, and guesses other undeclared encodings with a detector (Shift_JIS, windows-1251);
 * spider keeps UTF-8 for such bytes, as it always read them, and guesses nothing else.
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
