import { describe, expect, it } from 'vitest';
import { schemeHint } from '../../lib/cli/url-hint';

describe('schemeHint', () => {
  it('guesses http:// before a URL typed without its scheme, not before a file name or what is no URL', () => {
    expect(schemeHint('www.example.com/page.html')).toBe('; did you mean http://www.example.com/page.html?');
    expect(schemeHint('localhost:8080/story')).toBe('; did you mean http://localhost:8080/story?');
    expect(schemeHint('example.com')).toBe('; did you mean http://example.com?');
    // `spider extract story.html` of a file that is not there: a file name, not the host story.html
    for (const name of ['story.html', 'saved-page.htm', 'Page.HTML', 'export.json', 'doc.pdf']) expect({ name, hint: schemeHint(name) }).toEqual({ name, hint: '' });
    expect(schemeHint('not a url')).toBe('');
  });
});
