/**
 * Pages in legacy encodings, for the tests of how spider reads a page's bytes: their bytes built with
 * the Encoding Standard's encoders (@exodus/bytes; Node's TextEncoder knows only UTF-8), each page's
 * encoding named in one place only: a <meta charset>, a <meta http-equiv>, the Content-Type, or a
 * UTF-8 byte order mark that overrides a wrong <meta> or a wrong Content-Type.
 */
import { createMultibyteEncoder } from '@exodus/bytes/multi-byte.js';
import { createSinglebyteEncoder } from '@exodus/bytes/single-byte.js';

export interface EncodedPage {
  /** Also the page's path on the test server. */
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly title: string;
  readonly paragraphs: readonly string[];
}

interface Language {
  readonly title: string;
  readonly paragraphs: readonly string[];
}

const JAPANESE: Language = {
  title: '東京の天気',
  paragraphs: ['今日の東京は晴れで、気温は二十度まで上がる見込みです。', '明日は雨が降るでしょう。傘を忘れずに。'],
};
const RUSSIAN: Language = {
  title: 'Погода в Москве',
  paragraphs: ['Сегодня в Москве солнечно, температура поднимется до двадцати градусов.', 'Завтра ожидается дождь, не забудьте зонт.'],
};
const CHINESE: Language = {
  title: '北京天气',
  paragraphs: ['今天北京天气晴朗，气温将升至二十度。', '明天有雨，别忘了带伞。'],
};
/** With characters GBK lacks (U+3400, U+20000: four bytes each in GB18030). */
const CHINESE_GB18030: Language = { ...CHINESE, paragraphs: [...CHINESE.paragraphs, '生僻字㐀和𠀀也能显示。'] };
const MIXED: Language = {
  title: '東京 Москва 北京',
  paragraphs: [JAPANESE.paragraphs[0], RUSSIAN.paragraphs[0], CHINESE.paragraphs[0]],
};

function html(language: Language, head = ''): string {
  const paragraphs = language.paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!DOCTYPE html>
<html><head>${head}<title>${language.title}</title></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>${language.title}</h1>
${paragraphs}
</article>
<footer>Footer</footer></body></html>`;
}

/** The encodings: the label a page names, how its text is encoded, its text. */
const ENCODINGS = [
  { name: 'shift_jis', label: 'Shift_JIS', encode: createMultibyteEncoder('shift_jis'), language: JAPANESE },
  { name: 'windows-1251', label: 'windows-1251', encode: createSinglebyteEncoder('windows-1251'), language: RUSSIAN },
  // gb2312, as pages name it, is GBK to a browser
  { name: 'gbk', label: 'gb2312', encode: createMultibyteEncoder('gbk'), language: CHINESE },
  { name: 'gb18030', label: 'GB18030', encode: createMultibyteEncoder('gb18030'), language: CHINESE_GB18030 },
];

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function page(name: string, contentType: string, bytes: Uint8Array, language: Language): EncodedPage {
  return { name, contentType, bytes: Buffer.from(bytes), title: language.title, paragraphs: language.paragraphs };
}

export const ENCODED_PAGES: readonly EncodedPage[] = [
  ...ENCODINGS.flatMap(({ name, label, encode, language }) => [
    // (a) only a <meta charset>
    page(`${name}-meta`, 'text/html', encode(html(language, `<meta charset="${label}">`)), language),
    // (b) only a <meta http-equiv>
    page(`${name}-http-equiv`, 'text/html', encode(html(language, `<meta http-equiv="Content-Type" content="text/html; charset=${label}">`)), language),
    // (c) only the Content-Type
    page(`${name}-header`, `text/html; charset=${label}`, encode(html(language)), language),
  ]),
  // (d) UTF-8 with a byte order mark, and a <meta> or a Content-Type that says otherwise
  page('utf8-bom-wrong-meta', 'text/html', Buffer.concat([UTF8_BOM, Buffer.from(html(MIXED, '<meta charset="shift_jis">'))]), MIXED),
  page('utf8-bom-wrong-header', 'text/html; charset=windows-1251', Buffer.concat([UTF8_BOM, Buffer.from(html(MIXED, '<meta charset="gbk">'))]), MIXED),
];

/** A Shift_JIS page that names no encoding anywhere: a browser guesses (Chromium: right), spider does not. */
export const UNDECLARED_SHIFT_JIS: EncodedPage = page('shift_jis-undeclared', 'text/html', createMultibyteEncoder('shift_jis')(html(JAPANESE)), JAPANESE);
