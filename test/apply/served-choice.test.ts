import { describe, expect, it } from 'vitest';
import { readabilityTitle } from '../../lib/apply/served-choice';
import { parseHtml } from '../../lib/html/parse';
import { MAX_TITLE_CHARS } from '../../lib/text/titles';

const page = (body: string) => parseHtml(`<!DOCTYPE html><html><head></head><body>${body}</body></html>`);

describe('readabilityTitle', () => {
  it("takes Readability's title where ours is missing, or where a heading shows Readability's and none shows ours", () => {
    const doc = page('<h1>Slammer for Rammer</h1><p>The story.</p>');
    expect(readabilityTitle(doc, undefined, 'Slammer for Rammer')).toBe('Slammer for Rammer');
    expect(readabilityTitle(doc, 'The London Free Press', 'Slammer for Rammer')).toBe('Slammer for Rammer');
    // ours shown, or both the same words: ours stays
    expect(readabilityTitle(doc, 'Slammer for Rammer', 'The London Free Press')).toBeUndefined();
    expect(readabilityTitle(doc, 'Slammer for rammer!', 'Slammer for Rammer')).toBeUndefined();
  });

  it('takes no title of Readability longer than a headline can be (a meta left open, read by Readability too)', () => {
    const swallowed = `Welcome to The Free Press 'freepress'; ${"this.sectionLevel2 = 'sports'; ".repeat(20)}`;
    expect(swallowed.length).toBeGreaterThan(MAX_TITLE_CHARS);
    const doc = page('<h1>Slammer for Rammer</h1><p>The story.</p>');
    expect(readabilityTitle(doc, undefined, swallowed)).toBeUndefined();
    expect(readabilityTitle(doc, 'Slammer for Rammer', swallowed)).toBeUndefined();
  });
});
