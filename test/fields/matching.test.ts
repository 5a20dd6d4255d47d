/** Text and date matching of article fields: normalisation, author prefixes, dates in several formats and languages. */
import { describe, expect, it } from 'vitest';
import {
  findDate,
  localDate,
  offsetBetween,
  parseIsoDate,
  parseMachineDate,
  sameDate,
  toIso,
  type DateValue,
} from '../../lib/text/dates';
import { elementText, ownText } from '../../lib/html/element-text';
import { announcesByline, extractByline, isTitleOf, normalizeText, sameByline, sameTitle, headlineVariants, cleanAuthorValue, restates, saysTitle } from '../../lib/text/match';
import { elements, parseHtml } from '../../lib/html/parse';

describe('titles', () => {
  it('match exactly after normalisation: case, white space, typographic quotes and dashes, a final period', () => {
    expect(sameTitle('Council Approves  Budget', 'council approves budget')).toBe(true);
    expect(sameTitle('Labour, you\u2019ve made your point \u2013 now make the case', "Labour, you've made your point - now make the case")).toBe(true);
    expect(sameTitle('\u201cWe will rebuild,\u201d mayor says.', '"We will rebuild," mayor says')).toBe(true);
    expect(sameTitle('Council approves budget', 'Council approves budget plan')).toBe(false);
    expect(sameTitle('', '')).toBe(false);
    expect(normalizeText('ﬁnal\u00a0answer')).toBe('final answer');
  });

  it('a title value may carry a short site name after or before a separator', () => {
    expect(headlineVariants("Romney's 'all' proved not enough - CNN.com")).toContain("romney's 'all' proved not enough");
    expect(headlineVariants('Who will win the election? « Healthcare Economist')).toContain('who will win the election?');
    expect(headlineVariants('Site Name | The headline of the post')).toContain('the headline of the post');
    // however many short section and site names the site strings together
    expect(headlineVariants('Lawmakers Defend Earmarks in Spending Bill - Presidential Politics | Political News - FOXNews.com')).toContain(
      'lawmakers defend earmarks in spending bill',
    );
    // what is cut is never more words than what is kept, separators not counted; five names at most
    expect(headlineVariants('Big win - Sports News | Local Sports - Daily Site')).not.toContain('big win');
    expect(headlineVariants('Paris | France | Europe | World | News')).not.toContain('paris | france');
    // the site's name before the headline and sections after it
    expect(headlineVariants('FOXNews.com - Chimpanzee Victim May Be Blind, Brain Damaged - Local News | US News')).toContain(
      'chimpanzee victim may be blind, brain damaged',
    );
    expect(headlineVariants('Daily Site - Big win - Sports')).not.toContain('big win');
    // cut on both sides, the kept part must have more words than the names: a short headline's section is no headline
    expect(headlineVariants('Win - Sports News - ESPN')).not.toContain('sports news');
    const long = Array.from({ length: 2000 }, (_, i) => `part ${i}`).join(' - ');
    // the whole title, and each way of cutting 1 to 5 names: 1 + 2 + 3 + 4 + 5 + 6
    expect(headlineVariants(long).length).toBeLessThanOrEqual(21);
    // Not a site name: a long part after a dash belongs to the headline.
    expect(headlineVariants('Labour made its point about the EU – now make the case for it')).toEqual(['labour made its point about the eu - now make the case for it']);
    expect(headlineVariants('US elections: Turnout appears high')).toEqual(['us elections: turnout appears high']);
    expect(isTitleOf("Romney's 'all' proved not enough", headlineVariants("Romney's 'all' proved not enough - CNN.com"))).toBe(true);
  });
});

describe('restates', () => {
  const description = 'Microsoft may line things up behind the scenes, but for users they will stay different.';
  it('holds when the fewer words of the two are (nearly) all in the other, either cut short', () => {
    expect(restates('Microsoft may line things up behind the scenes, but for users they\u2019ll stay different.', description)).toBe(true);
    expect(restates('Microsoft may line things up behind the scenes\u2026', description)).toBe(true);
    expect(restates(description + ' Here is why, and what it means for developers writing apps today.', description)).toBe(true);
  });
  it('fails for another text, and for too few words to tell', () => {
    expect(restates('By Peter Bright - Dec 5, 2013 2:00 pm UTC', description)).toBe(false);
    expect(restates('Microsoft', description)).toBe(false);
    expect(restates('Windows Phone', 'Windows Phone')).toBe(false);
    // stop words carry no meaning: they neither count nor match
    expect(restates('of the and to in a', 'a to of in the and for')).toBe(false);
  });
  it('tells a description that says little more than the title from a summary that says more', () => {
    const title = 'Apple unveils new iPhone with bigger screen';
    expect(saysTitle('Apple unveils new iPhone with bigger screen | Tech News', title)).toBe(true);
    expect(saysTitle('Apple on Tuesday unveiled a new iPhone with a bigger screen, a faster chip and a battery that lasts a day longer', title)).toBe(false);
  });
  it('reads unspaced scripts by character pairs, as TF-IDF does', () => {
    const summary = '\u6771\u4eac\u96fb\u529b\u306f\u6c5a\u67d3\u6c34\u30bf\u30f3\u30af\u4ed8\u8fd1\u306e\u653e\u5c04\u7dda\u91cf\u304c\u6700\u9ad8\u3092\u66f4\u65b0\u3057\u305f\u3068\u767a\u8868\u3057\u305f';
    expect(restates(summary, summary)).toBe(true);
    expect(restates('\u660e\u65e5\u306e\u5929\u6c17\u306f\u6674\u308c\u6642\u3005\u66c7\u308a\u3067\u3057\u3087\u3046', summary)).toBe(false);
  });
});

describe('bylines', () => {
  it('are announced by words that introduce the name, after any separator', () => {
    for (const t of ['By Jane Doe', '| By Jane Doe', 'Posted by Jane Doe on May 3', 'Author: Jane Doe', 'par Jean Dupont', 'Von Anna Schmidt']) expect(announcesByline(t)).toBe(true);
    for (const t of ['Jane Doe', 'WESTPORT, Wash.', 'Byron Kane', 'From Junko Ogura, CNN', 'de Souza']) expect(announcesByline(t)).toBe(false);
  });

  it('take the name out of "By", "Posted by", "Written by" and friends, cut at separators', () => {
    expect(extractByline('By Jane Doe')).toBe('Jane Doe');
    expect(extractByline('BY JANE DOE')).toBe('JANE DOE');
    expect(extractByline('Posted by Jane Doe on March 3, 2012 | 5 comments')).toBe('Jane Doe');
    expect(extractByline('Written by Jane Doe | 03/14/2026 | Comments (5) | Print')).toBe('Jane Doe');
    expect(extractByline('Author: Jane Doe')).toBe('Jane Doe');
    // a byline the page writes twice (a styled copy in capitals and a plain one): once, as written
    expect(extractByline('KWANG-TAE KIM Kwang-tae Kim')).toBe('Kwang-tae Kim');
    expect(extractByline('By Ann Lee, AP Writer Ann Lee, AP Writer')).toBe('Ann Lee, AP Writer');
    expect(extractByline('Ali Ali')).toBe('Ali Ali');
    expect(extractByline('by Jane Doe · 4 min read')).toBe('Jane Doe');
    expect(extractByline('Von Anna Schmidt')).toBe('Anna Schmidt');
    expect(extractByline('von Anna Schmidt')).toBe('Anna Schmidt');
    expect(extractByline('par Jean Dupont')).toBe('Jean Dupont');
    // a line break ends a byline
    expect(extractByline('By Greg Miller and Josh Meyer\nApril 17, 2009')).toBe('Greg Miller and Josh Meyer');
    expect(extractByline('By\nJane Doe\nStaff Writer')).toBe('Jane Doe');
    // a date ends it, whatever comes before: a name has no date in it
    expect(extractByline('By Alex Writer, March 3, 2024')).toBe('Alex Writer');
    expect(extractByline('By Alex Writer, 3 March 2024')).toBe('Alex Writer');
    expect(extractByline('By Alex Writer, 2024-03-03')).toBe('Alex Writer');
    expect(extractByline('Von Anna Schmidt, 3. März 2024')).toBe('Anna Schmidt');
    expect(extractByline('By Alex Writer, Staff Writer')).toBe('Alex Writer, Staff Writer');
    expect(extractByline('By Agent 007')).toBe('Agent 007');
    // a particle before one word is the surname's own
    expect(extractByline('de Souza')).toBe('de Souza');
    expect(extractByline('Von Miller')).toBe('Von Miller');
    expect(cleanAuthorValue('da Silva')).toBe('da Silva');
    // a word that is no particle goes before one word too (an agency)
    expect(extractByline('par AFP')).toBe('AFP');
    expect(extractByline('door ANP')).toBe('ANP');
    expect(extractByline('Jane Doe')).toBe('Jane Doe');
    expect(extractByline('| By Melissa Jenkins')).toBe('Melissa Jenkins');
    expect(extractByline('https://example.com/jane')).toBeUndefined();
    expect(extractByline('By')).toBeUndefined();
  });

  it('match by name, whatever the prefix, case, or the way several authors are joined', () => {
    expect(sameByline('By JANE DOE', 'Jane Doe')).toBe(true);
    expect(sameByline('Jane Doe and John Roe', 'Jane Doe, John Roe')).toBe(true);
    expect(sameByline('Jane Doe & John Roe', 'Jane Doe, John Roe')).toBe(true);
    expect(sameByline('Jane Doe', 'John Roe')).toBe(false);
    expect(sameByline('Jane', 'Jane Doe')).toBe(false);
  });

  it('machine author values that are URLs or e-mail addresses are not names', () => {
    expect(cleanAuthorValue('https://www.facebook.com/jane')).toBeUndefined();
    expect(cleanAuthorValue('jane@example.com')).toBeUndefined();
    expect(cleanAuthorValue('By Jane Doe')).toBe('Jane Doe');
  });
});

describe('element text', () => {
  it('skips scripts and form controls, treats <br> as space, never cuts a long text into a short one', () => {
    const doc = parseHtml(
      `<div id="a">Hello<br>world<script>var x = 1;</script><button>Go</button></div>` +
        `<div id="b">${' '.repeat(5000)}x${' '.repeat(5000)}${'word '.repeat(100)}</div>` +
        `<h1 id="c">Title <span>Nov 6, 2012</span></h1>`,
    );
    const byId = (id: string) => [...elements(doc)].find((el) => el.attribs.id === id)!;
    expect(elementText(byId('a'))).toBe('Hello world');
    expect(elementText(byId('b'), 160).length).toBeGreaterThan(160);
    expect(ownText(byId('c'))).toBe('Title');
  });
});

const d = (s: string): DateValue => parseMachineDate(s)!;

describe('dates', () => {
  it('read machine values: ISO 8601 with and without zone, RFC 822', () => {
    expect(parseIsoDate('2026-03-14')).toEqual({ year: 2026, month: 3, day: 14 });
    expect(parseIsoDate('2026-03-14T09:30:00Z')).toMatchObject({ year: 2026, month: 3, day: 14, hour: 9, minute: 30, offsetMinutes: 0 });
    expect(parseIsoDate('2012-11-06T20:38:37+05:30')).toMatchObject({ hour: 20, offsetMinutes: 330 });
    expect(parseIsoDate('2012-11-06 20:38:37-0500')).toMatchObject({ hour: 20, offsetMinutes: -300 });
    expect(parseIsoDate('2026-02-30')).toBeUndefined();
    expect(parseMachineDate('Sat, 14 Mar 2026 09:30:00 GMT')).toMatchObject({ year: 2026, month: 3, day: 14, hour: 9, minute: 30, offsetMinutes: 0 });
    expect(parseMachineDate('Tue, 06 Nov 2012 15:08:00 +0000')).toMatchObject({ year: 2012, month: 11, day: 6, hour: 15 });
  });

  it('find dates in visible text in common formats', () => {
    const cases: Array<[string, string]> = [
      ['March 14, 2026', '2026-03-14'],
      ['March 14, 2026 at 9:30 AM', '2026-03-14'],
      ['14 Mar 2026', '2026-03-14'],
      ['Mar. 14, 2026', '2026-03-14'],
      ['03/14/2026', '2026-03-14'],
      ['2026/03/14', '2026-03-14'],
      ['Wednesday, November 7th, 2012', '2012-11-07'],
      ['Posted by Jane on Wednesday, November 7th, 2012 at 10:45 am | 5 comments', '2012-11-07'],
      ['Updated 11:02 PM EST, Thu November 1, 2012', '2012-11-01'],
      ['Monday 29 October 2012 14.00 EDT', '2012-10-29'],
    ];
    for (const [text, date] of cases) expect(localDate(findDate(text)!.value), text).toBe(date);
  });

  it('find dates in other languages', () => {
    expect(localDate(findDate('14. März 2026, 09:30 Uhr')!.value)).toBe('2026-03-14');
    expect(localDate(findDate('le 14 mars 2026 à 9h30')!.value)).toBe('2026-03-14');
    expect(localDate(findDate('14 de marzo de 2026')!.value)).toBe('2026-03-14');
    expect(localDate(findDate('14 marzo 2026')!.value)).toBe('2026-03-14');
    expect(localDate(findDate('14 de março de 2026')!.value)).toBe('2026-03-14');
    expect(localDate(findDate('14 maart 2026')!.value)).toBe('2026-03-14');
  });

  it('read ambiguous numeric dates in the preferred locale', () => {
    expect(localDate(findDate('07/11/2012', ['en'])!.value)).toBe('2012-07-11');
    expect(localDate(findDate('07/11/2012', ['en-GB'])!.value)).toBe('2012-11-07');
    expect(localDate(findDate('07.11.2012', ['de'])!.value)).toBe('2012-11-07');
  });

  it('do not take relative dates, bare years or text without digits', () => {
    expect(findDate('3 days ago')).toBeUndefined();
    expect(findDate('yesterday at 5 pm')).toBeUndefined();
    expect(findDate('In 2012 the council met')).toBeUndefined();
    expect(findDate('no date here')).toBeUndefined();
  });

  it('compare as dates: the same day as written or in UTC', () => {
    expect(sameDate(d('2026-03-14T09:30:00Z'), findDate('March 14, 2026')!.value)).toBe(true);
    expect(sameDate(d('2026-03-14T23:30:00-05:00'), findDate('March 14, 2026')!.value)).toBe(true); // local day
    expect(sameDate(d('2026-03-14T23:30:00-05:00'), d('2026-03-15'))).toBe(true); // UTC day
    expect(sameDate(d('2026-03-14'), d('2026-03-16'))).toBe(false);
    expect(sameDate(undefined, d('2026-03-14'))).toBe(false);
  });

  it('write ISO 8601: the instant when time and zone are known, else the date', () => {
    expect(toIso(d('2012-11-06T20:38:37+05:30'))).toBe('2012-11-06T15:08:37.000Z');
    expect(toIso(findDate('March 14, 2026 at 9:30 AM')!.value)).toBe('2026-03-14');
    expect(toIso(findDate('March 14, 2026 at 9:30 AM')!.value, -300)).toBe('2026-03-14T14:30:00.000Z');
    expect(toIso(findDate('14 Mar 2026')!.value, 60)).toBe('2026-03-14');
  });

  it('the offset between a zone-less written time and the instant it names', () => {
    expect(offsetBetween(findDate('November 6, 2012 8:38 PM')!.value, d('2012-11-06T15:08:37Z'))).toBe(330);
    expect(offsetBetween(d('2012-11-06T20:38:00Z'), d('2012-11-06T15:08:37Z'))).toBeUndefined(); // has a zone already
  });
});
