import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/html/parse';
import { matchTitle, pageTitle, titleMatch } from '../../lib/fallback/title';
import { titleParts } from '../../lib/text/titles';

describe('title', () => {
  it('reads the title through the metadata extractor (JSON-LD headline, og:title, <title> agreeing with <h1>)', () => {
    const doc = parseHtml('<html><head><title>Budget passes | Daily</title></head><body><h1>Budget passes</h1></body></html>');
    expect(pageTitle(doc)).toBe('Budget passes');
    const ld = parseHtml(
      '<html><head><title>x</title><script type="application/ld+json">{"@type":"NewsArticle","headline":"From JSON-LD"}</script></head><body></body></html>',
    );
    expect(pageTitle(ld)).toBe('From JSON-LD');
  });

  it('splits a title at its separators', () => {
    expect(titleParts('Blog Name: The Post Title « Site')).toEqual(['Blog Name: The Post Title « Site', 'Blog Name', 'The Post Title « Site', 'Blog Name: The Post Title']);
  });

  it('matches headings that show the title, whole or in part', () => {
    expect(titleMatch('Council approves the budget', 'Council Approves The Budget')).toBe(1);
    expect(titleMatch('Council approves the budget', 'Council')).toBe(0);
    const blocks = [
      { text: 'Daily News', heading: 1 },
      { text: 'Council approves the budget', heading: 0 },
      { text: 'Council approves the budget', heading: 2 },
      { text: 'Related: council approves the budget for 2027 and more', heading: 3 },
    ];
    expect(matchTitle('Council approves the budget', blocks).best).toBe(2); // the heading before the plain block
    expect(matchTitle('Daily News | Council approves the budget', blocks).best).toBe(0); // parts tie: the higher heading
    expect(matchTitle('Daily News | Council approves the budget', blocks).shown).toEqual([0, 1, 2]); // the caller picks by position
    expect(matchTitle('Something else entirely', blocks).best).toBe(-1);
    expect(matchTitle('', blocks).best).toBe(-1);
  });
});
