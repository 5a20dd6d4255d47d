/**
 * The one date normaliser (lib/text/dates.ts toIsoDate) and the format of an article's `published`:
 * the same whichever path made it (the site's field rules or the page's own metadata).
 */
import { describe, expect, it } from 'vitest';
import { applyFieldRules } from '../../lib/fields/apply-fields';
import { extractMetadata } from '../../lib/html/metadata';
import { parseHtml } from '../../lib/html/parse';
import { dayOfInstantSomewhere, parseMachineDate, toIso, toIsoDate } from '../../lib/text/dates';
import type { FieldsSection } from '../../lib/types/rules-document';

describe('toIsoDate', () => {
  it('normalises the usual shapes', () => {
    expect(toIsoDate('2012-03-05')).toBe('2012-03-05');
    expect(toIsoDate('20120305')).toBe('2012-03-05');
    expect(toIsoDate('2012-03-05 14:30:00 +0100')).toBe('2012-03-05T13:30:00.000Z');
    expect(toIsoDate('Mon, 05 Mar 2012 14:30:00 GMT')).toBe('2012-03-05T14:30:00.000Z');
    expect(toIsoDate('Jan 16, 2008')).toBe('2008-01-16');
  });
  it('gives the calendar date for a time without a zone (unless the site\'s offset is known), seconds for fractions', () => {
    expect(toIsoDate('2016-02-01 01:28:49')).toBe('2016-02-01');
    expect(toIsoDate('2016-02-01T01:28:49', -300)).toBe('2016-02-01T06:28:49.000Z');
    expect(toIsoDate('2015-03-27T13:07:55.096Z')).toBe('2015-03-27T13:07:55.000Z');
  });
  it('reads a machine date into its parts (parseMachineDate) and writes the instant, or the calendar date without a zone (toIso)', () => {
    expect(parseMachineDate('2012-03-05T14:30:00+01:00')).toEqual({ year: 2012, month: 3, day: 5, hour: 14, minute: 30, second: 0, offsetMinutes: 60 });
    expect(parseMachineDate('Mon, 05 Mar 2012 14:30:00 GMT')).toMatchObject({ year: 2012, month: 3, day: 5, hour: 14, minute: 30, offsetMinutes: 0 });
    expect(parseMachineDate('2012-03-05')).toEqual({ year: 2012, month: 3, day: 5 });
    expect(toIso({ year: 2012, month: 3, day: 5, hour: 14, minute: 30, second: 0, offsetMinutes: 60 })).toBe('2012-03-05T13:30:00.000Z');
    expect(toIso({ year: 2012, month: 3, day: 5, hour: 14, minute: 30 })).toBe('2012-03-05');
    expect(toIso({ year: 2012, month: 3, day: 5, hour: 14, minute: 30 }, 120)).toBe('2012-03-05T12:30:00.000Z');
  });
  it('rejects nonsense and implausible dates', () => {
    expect(toIsoDate('yesterday')).toBeUndefined();
    expect(toIsoDate('2012-02-31')).toBeUndefined();
    expect(toIsoDate('1970-01-01')).toBeUndefined();
    expect(toIsoDate('')).toBeUndefined();
    expect(toIsoDate(undefined)).toBeUndefined();
  });
});

describe("an article's published", () => {
  const rules: FieldsSection = {
    published: { rules: [{ kind: 'class', value: 'when', selector: '.when', score: 1, support: 5 }], posts: 5 },
    training: { posts: 5, feedEntries: 0, fromFeed: 0, fromMetadata: 5 },
    minScore: 0.5,
  };

  it('has the same format from the field rules and from the page metadata', () => {
    const cases: [string, string][] = [
      ['2012-03-05T14:30:00+01:00', '2012-03-05T13:30:00.000Z'],
      ['2012-03-05T14:30:00Z', '2012-03-05T14:30:00.000Z'],
      ['2012-03-05T14:30:00.250Z', '2012-03-05T14:30:00.000Z'],
      ['2012-03-05 14:30:00', '2012-03-05'],
      ['2012-03-05', '2012-03-05'],
      ['Mon, 05 Mar 2012 14:30:00 GMT', '2012-03-05T14:30:00.000Z'],
    ];
    for (const [written, iso] of cases) {
      const doc = parseHtml(`<!doctype html><html><head><title>A post</title></head><body><article><h1>A post</h1><time class="when" datetime="${written}">${written}</time><p>Text.</p></article></body></html>`);
      const fromRules = applyFieldRules(doc, rules).published;
      const fromMetadata = extractMetadata(doc).published;
      expect({ written, fromRules, fromMetadata }).toEqual({ written, fromRules: iso, fromMetadata: iso });
    }
  });
});

describe('dayOfInstantSomewhere', () => {
  it('is true when a day without a time is the instant\'s day in a zone from UTC-12 to UTC+14', () => {
    const day = parseMachineDate('2012-10-30')!;
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-31T02:00:00Z')!, day)).toBe(true);
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-29T11:00:00Z')!, day)).toBe(true);
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-31T13:00:00Z')!, day)).toBe(false);
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-29T09:00:00Z')!, day)).toBe(false);
    // a time without a zone is no instant; a day with a time is not a day alone
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-30T12:00:00')!, day)).toBe(false);
    expect(dayOfInstantSomewhere(parseMachineDate('2012-10-30T12:00:00Z')!, parseMachineDate('2012-10-30T12:00:00Z')!)).toBe(false);
  });
});
