/** The one title splitter (lib/text/titles.ts), as the metadata's title and the fallback read titles. */
import { describe, expect, it } from 'vitest';
import { cleanTitle } from '../../lib/html/metadata';
import { headlineOfTitle, titleCuts, titleParts, titlePieces, withoutDecoration } from '../../lib/text/titles';

describe('title splitter', () => {
  it('cuts at each separator between spaces, and at a colon before a space', () => {
    for (const sep of [' | ', ' - ', ' – ', ' — ', ' :: ', ' « ', ' » ', ' · ', ' / ', ' \\ ', ' • ', ' ~ ', ': ']) {
      expect(titlePieces(`Council approves the budget${sep}Daily News`), JSON.stringify(sep)).toEqual(['Council approves the budget', 'Daily News']);
    }
    expect(titlePieces('Well-known 3-2 win at 10:30')).toEqual(['Well-known 3-2 win at 10:30']);
  });

  it('gives every cut in two, and the parts of two words or more', () => {
    expect(titleCuts('A b | C d - E f')).toEqual([
      { before: 'A b', after: 'C d - E f' },
      { before: 'A b | C d', after: 'E f' },
    ]);
    expect(titleParts('Blog Name: The Post Title « Site')).toEqual(['Blog Name: The Post Title « Site', 'Blog Name', 'The Post Title « Site', 'Blog Name: The Post Title']);
  });

  it("the metadata's title is cut with the same separators as the fallback's (a WordPress « Blog suffix too)", () => {
    expect(cleanTitle('Who will win the election? « Healthcare Economist', [], 'Healthcare Economist')).toBe('Who will win the election?');
    expect(cleanTitle('Council approves the budget | Daily News', ['Council approves the budget'])).toBe('Council approves the budget');
  });

  it('cuts at a separator glued to the name after it, and drops a separator at either end', () => {
    expect(titlePieces('Just For Fun :zenhabits')).toEqual(['Just For Fun', 'zenhabits']);
    expect(titlePieces('Council approves the budget |Daily News')).toEqual(['Council approves the budget', 'Daily News']);
    // a pipe is a separator however spaced
    expect(titlePieces('Timberlake Appearing in Super Bowl Ad|ABC 7 News')).toEqual(['Timberlake Appearing in Super Bowl Ad', 'ABC 7 News']);
    expect(titlePieces('Chasetown claim the glory| Sport | This is London')).toEqual(['Chasetown claim the glory', 'Sport', 'This is London']);
    expect(titlePieces('Ratio of 3:1 wins')).toEqual(['Ratio of 3:1 wins']);
    // a score is no separator, nor is one before a long tail; guillemets after a space open a quotation
    expect(titlePieces('Bayern beat Dortmund 3 :1 in the cup final')).toEqual(['Bayern beat Dortmund 3 :1 in the cup final']);
    expect(titlePieces('Why «Le Monde» is changing its paywall')).toEqual(['Why «Le Monde» is changing its paywall']);
    expect(withoutDecoration('» Just For Fun')).toBe('Just For Fun');
    expect(withoutDecoration('Council approves the budget |')).toBe('Council approves the budget');
    expect(withoutDecoration('-10 degrees tonight')).toBe('-10 degrees tonight');
    expect(withoutDecoration('~ 50 people came')).toBe('~ 50 people came');
    // a pair of guillemets is a quotation, not decoration
    expect(withoutDecoration('« Je ne regrette rien », dit le ministre')).toBe('« Je ne regrette rien », dit le ministre');
    expect(withoutDecoration('Le ministre : « Je ne regrette rien »')).toBe('Le ministre : « Je ne regrette rien »');
    // the site's name cut off by the page's heading and its host, the decoration dropped
    expect(cleanTitle('» Just For Fun :zenhabits', ['zenhabits', 'Just For Fun'], undefined, 'zenhabits.net')).toBe('Just For Fun');
  });
});

describe('headlineOfTitle', () => {
  it("is the title's consecutive pieces, not all, and no fewer words than the names left out", () => {
    const title = 'Cricket: Windies seal historic win | Cricket | Guardian Unlimited Sport';
    expect(headlineOfTitle('Windies seal historic win', title)).toBe(true);
    expect(headlineOfTitle('WINDIES SEAL HISTORIC WIN', title)).toBe(true);
    expect(headlineOfTitle('Cricket: Windies seal historic win', title)).toBe(true);
    // the whole title, a name, a part across a piece's middle, words that are no piece
    expect(headlineOfTitle(title, title)).toBe(false);
    expect(headlineOfTitle('Cricket', title)).toBe(false);
    expect(headlineOfTitle('Guardian Unlimited Sport', title)).toBe(false);
    expect(headlineOfTitle('historic win', title)).toBe(false);
    expect(headlineOfTitle('Windies win', title)).toBe(false);
    expect(headlineOfTitle('', title)).toBe(false);
  });
});
