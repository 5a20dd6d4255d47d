import { describe, expect, it } from 'vitest';
import { renderContent, type ContentLine } from '../../lib/html/content';
import { extractWithRules } from '../../lib/html/extract-with-rules';
import { notArticleReason, renderedEvidence, type NotArticleEvidence } from '../../lib/html/not-article';
import { elements, parseHtml } from '../../lib/html/parse';
import { extractCombined } from '../../lib/fallback/extract';
import { countWords, readerWords } from '../../lib/text/words';

const sentence = (i: number) => `Sentence ${i} of the story tells the reader what happened at the town hall on the evening of the council's long vote.`;
const paragraph = (i: number) => `${sentence(i)} ${sentence(i + 100)}`;
const nav = `<nav>${['Home', 'News', 'Politics', 'Business', 'Sports', 'Arts', 'Opinion', 'Weather'].map((s) => `<a href="/${s}">${s}</a>`).join(' ')}</nav>`;
const footer = `<footer><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/f${i}">Footer link number ${i}</a></li>`).join('')}</ul></footer>`;
const page = (main: string) => `<html><head><title>Page</title></head><body>${nav}<main>${main}</main>${footer}</body></html>`;

/** The verdict on what the rules select on the page. */
function verdict(html: string, selectors: string[]): string {
  const doc = parseHtml(html);
  return notArticleReason(renderedEvidence(doc, extractWithRules(doc, { selectors, clean: [] })));
}

describe('the lines renderContent gives', () => {
  it('say which are headings and what of each is link text', () => {
    const doc = parseHtml('<div><h2><a href="/a">Linked headline</a></h2><p>Text with <a href="/b">a link</a> and <a href="#n">a note</a>.</p><h3>Plain <em>heading</em></h3></div>');
    const lines: ContentLine[] = [];
    const out = renderContent([[...elements(doc)].find((e) => e.name === 'div')!], { lines });
    expect(lines.map((l) => l.text)).toEqual(out.text.split('\n'));
    expect(lines).toEqual([
      { text: 'Linked headline', heading: 2, linkText: 'Linked headline' },
      { text: 'Text with a link and a note.', heading: 0, linkText: 'a link a note' },
      { text: 'Plain heading', heading: 3, linkText: '' },
    ]);
  });
});

describe('the not-an-article test on what the rules select', () => {
  it('finds a login form in the body\'s place almost no text', () => {
    const login = page('<h1>Sign in</h1><div class="story-body"><p><label>Email</label> <input type="email"></p><p><label>Password</label> <input type="password"></p><p><a href="/forgot">Forgot your password?</a></p></div>');
    expect(verdict(login, ['div.story-body > p'])).toBe('almost no text');
  });

  it('finds little text on a page mostly of links no article, and the same text on a page of prose one', () => {
    const short = `<div class="story-body"><p>${sentence(1)}</p><p>${sentence(2)}</p></div>`;
    expect(verdict(page(short), ['div.story-body > p'])).toBe('little text, mostly links');
    const prose = `${short}<div class="comments">${[3, 4, 5].map((i) => `<p>${paragraph(i)}</p>`).join('')}</div>`;
    expect(verdict(page(prose), ['div.story-body > p'])).toBe('');
  });

  it('finds a tag listing in the body\'s place, its headlines taken or left between its teasers, linked headlines with teasers', () => {
    const teasers = Array.from({ length: 8 }, (_, i) => `<h2><a href="/s${i}">Council approves plan number ${i} for the river</a></h2><p>${sentence(i)}</p>`).join('');
    const tag = page(`<h1>Stories tagged: Housing</h1><div class="story-body">${teasers}</div>`);
    expect(verdict(tag, ['div.story-body > p', 'div.story-body > h2'])).toBe('linked headlines with teasers');
    // a blog's archive: the rules take each post's excerpt, the headlines stand between them
    const posts = Array.from({ length: 8 }, (_, i) => `<article><h2 class="entry-title"><a href="/p${i}">Post number ${i} about the river</a></h2><div class="entry-content"><p>${sentence(i)}</p></div></article>`).join('');
    expect(verdict(page(posts), ['div.entry-content > p'])).toBe('linked headlines with teasers');
  });

  it('leaves an article alone: with linked subheads among long paragraphs, with a box of linked headlines between its parts, of short paragraphs', () => {
    const sections = [1, 2, 3, 4].map((i) => `<h2><a href="#s${i}">Section ${i}</a></h2><p>${paragraph(i)}</p>`).join('');
    expect(verdict(page(`<div class="story-body">${sections}</div>`), ['div.story-body > p', 'div.story-body > h2'])).toBe('');
    // a related box between two of the story's paragraphs counts as one headline
    const related = `<aside>${[1, 2, 3, 4].map((i) => `<h3><a href="/r${i}">Related story ${i}</a></h3>`).join('')}</aside>`;
    const story = `<div class="story-body"><p>${sentence(1)} ${sentence(2)}</p>${related}<p>${sentence(3)}</p><p>${sentence(4)}</p></div>`;
    expect(verdict(page(story), ['div.story-body > p'])).toBe('');
    const brief = `<div class="story-body">${[1, 2, 3, 4, 5].map((i) => `<p>${sentence(i)}</p>`).join('')}</div>`;
    expect(verdict(page(brief), ['div.story-body > p'])).toBe('');
  });

  it('asks an ordinary article for nothing but its words and its first long paragraphs', () => {
    let asked = 0;
    const article: NotArticleEvidence = {
      words: 800,
      text: 'not read',
      pageLinkDensity: () => {
        throw new Error('the page is walked for a short text only');
      },
      longParagraphs: (enough) => {
        asked++;
        return enough;
      },
      linkedHeadlines: () => {
        throw new Error('headlines are counted only without enough long paragraphs');
      },
    };
    expect(notArticleReason(article)).toBe('');
    expect(asked).toBe(1);
  });
});

// Several paragraphs of a news brief in Japanese and in Chinese: countWords makes each run of letters
// between punctuation marks one word (14 and 15 of them), a reader finds well over a hundred.
const JAPANESE = [
  '市立中央図書館は十五日、約一年二か月にわたる改修工事を終えて再開館した。館内には子ども向けの読書室や、三Dプリンターを備えた工作室が新たに設けられた。',
  '平日の開館時間は午後八時まで延長され、仕事帰りの利用者も立ち寄りやすくなった。市の担当者は「多くの市民に新しい図書館を楽しんでほしい」と話している。',
  '改修にかかった費用は約六億二千万円で、その大半は二〇二三年に住民投票で承認された債券でまかなわれた。再開初日には開館前から約三百人が列を作った。',
  '他の分館で借りた本も、正面入口の横に新設された返却ボックスで返すことができる。',
];
const CHINESE = [
  '北京市政府二十日宣布，将在未来五年内新建和改造一百个社区公园。根据计划，到二〇三〇年，全市人均公园绿地面积将增加百分之二十。',
  '市园林绿化局负责人在新闻发布会上表示，新建公园将优先安排在老旧小区和人口密集的地区。他说，市民步行十五分钟以内就能到达一座公园。',
  '这项计划的总投资约为八十亿元，其中大部分资金来自市级财政。部分公园还将增设儿童游乐设施和健身步道。',
  '不少市民对此表示欢迎。家住朝阳区的王女士说，希望新公园能早日建成。',
];
const story = (title: string, body: string) => page(`<h1>${title}</h1><div class="story-body">${body}</div>`);
const paragraphs = (ps: readonly string[]) => ps.map((p) => `<p>${p}</p>`).join('');

/** The verdicts of both methods: the rules' (taking the story's paragraphs) and the fallback's. */
function verdicts(html: string): { rules: string; fallback: string } {
  return { rules: verdict(html, ['div.story-body > p']), fallback: extractCombined(parseHtml(html)).reason };
}

describe('the not-an-article test in a script written without spaces', () => {
  it('counts words as a reader does: two letters a word where countWords makes a sentence one, a spaced text as countWords does', () => {
    expect(countWords(JAPANESE.join('\n'))).toBe(14);
    expect(readerWords(JAPANESE.join('\n'))).toBe(131);
    expect(countWords(CHINESE.join('\n'))).toBe(15);
    expect(readerWords(CHINESE.join('\n'))).toBe(101);
    const german = 'Die Stadtbibliothek öffnet am Samstag nach vierzehn Monaten Umbau wieder ihre Türen.';
    expect(readerWords(german)).toBe(countWords(german));
  });

  it('leaves a Japanese and a Chinese article of several paragraphs alone, for the rules and the fallback', () => {
    // the old count: "almost no text" (14 and 15 words), both methods
    expect(verdicts(story('市立図書館が再開館', paragraphs(JAPANESE)))).toEqual({ rules: '', fallback: '' });
    expect(verdicts(story('北京将新建百个社区公园', paragraphs(CHINESE)))).toEqual({ rules: '', fallback: '' });
  });

  it('leaves a long Japanese article of short paragraphs under linked subheads alone', () => {
    // 50 words as countWords counts them, 4 linked headlines: under 60 words each, the old count's listing
    const sections = [1, 2, 3, 4].map((i) => `<h2><a href="#s${i}">第${i}部</a></h2>${paragraphs(i < 4 ? JAPANESE : JAPANESE.slice(0, 1))}`).join('');
    const html = story('市立図書館が再開館', sections);
    expect(countWords(extractWithRules(parseHtml(html), { selectors: ['div.story-body > p', 'div.story-body > h2'], clean: [] }).text)).toBeLessThan(4 * 60);
    expect(verdict(html, ['div.story-body > p', 'div.story-body > h2'])).toBe('');
  });

  it('still finds a Japanese login page and a photo caption almost no text, and a Japanese tag listing linked headlines with teasers', () => {
    const login = story('ログイン', '<p><label>メールアドレス</label> <input type="email"></p><p><label>パスワード</label> <input type="password"></p><p><a href="/forgot">パスワードをお忘れですか？</a></p>');
    expect(verdicts(login)).toEqual({ rules: 'almost no text', fallback: 'almost no text' });
    const caption = story('満開の桜', '<p>桜が満開を迎えた上野公園（十五日、東京都台東区）</p>');
    expect(verdicts(caption)).toEqual({ rules: 'almost no text', fallback: 'almost no text' });
    const teasers = JAPANESE.concat(JAPANESE).map((p, i) => `<h2><a href="/s${i}">市内の話題その${i + 1}：図書館と公園の新しい計画</a></h2><p>${p.slice(0, p.indexOf('。') + 1)}</p>`).join('');
    expect(verdict(story('タグ：図書館', teasers), ['div.story-body > p', 'div.story-body > h2'])).toBe('linked headlines with teasers');
  });
});
