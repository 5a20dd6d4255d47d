/**
 * Dates as pages and feeds write them, parsed to their components and compared as dates.
 *
 * Machine values (feeds, JSON-LD, meta, `<time datetime>`) are ISO 8601 or RFC 822; visible dates
 * are anything ("March 14, 2026 at 9:30 AM", "14 Mar 2026", "03/14/2026", "14. März 2026") and are
 * found with chrono-node's strict parsers in several languages. Relative dates ("3 days ago") are
 * not dates here: they depend on when the page was seen.
 */
import type { Chrono, ParsedResult } from 'chrono-node';
import * as de from 'chrono-node/de';
import * as en from 'chrono-node/en';
import * as es from 'chrono-node/es';
import * as fr from 'chrono-node/fr';
import * as it from 'chrono-node/it';
import * as ja from 'chrono-node/ja';
import * as nl from 'chrono-node/nl';
import * as pt from 'chrono-node/pt';
import * as ru from 'chrono-node/ru';
import * as sv from 'chrono-node/sv';

/** A date as written: the calendar date and clock time in the writer's zone, and the zone when given. */
export interface DateValue {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour?: number;
  readonly minute?: number;
  readonly second?: number;
  /** Minutes east of UTC, when the text says (Z, +02:00, GMT, EST). */
  readonly offsetMinutes?: number;
}

/** Locales tried, in this order, where a site's rules name none (siteLocales). `en` reads 03/04 as March 4, `en-GB` as 3 April. */
export const DATE_LOCALES = ['en', 'en-GB', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'ru', 'ja'] as const;
export type DateLocale = (typeof DATE_LOCALES)[number];

let parsers: Map<DateLocale, Chrono> | undefined;
function parserFor(locale: DateLocale): Chrono {
  parsers ??= new Map<DateLocale, Chrono>([
    ['en', en.strict],
    ['en-GB', new en.Chrono(en.configuration.createConfiguration(true, true))],
    ['de', de.strict],
    ['fr', fr.strict],
    ['es', es.strict],
    ['it', it.strict],
    ['pt', pt.strict],
    ['nl', nl.strict],
    ['sv', sv.strict],
    ['ru', ru.strict],
    ['ja', ja.strict],
  ]);
  return parsers.get(locale)!;
}

export function isDateLocale(s: string | undefined): s is DateLocale {
  return s !== undefined && (DATE_LOCALES as readonly string[]).includes(s);
}

/**
 * The locales a site's dates are read in: the one its field rules learned, alone (a site writes its
 * dates one way, and another locale's reading of text its own does not read is a guess); every
 * locale, in order, when it learned none (its dates came from attributes, or it has no rules).
 */
export function siteLocales(learned?: string): readonly DateLocale[] {
  return isDateLocale(learned) ? [learned] : DATE_LOCALES;
}

const ISO = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]+(\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function valid(v: DateValue): DateValue | undefined {
  const { year, month, day } = v;
  if (year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCDate() !== day) return undefined;
  if (v.hour !== undefined && (v.hour > 23 || (v.minute ?? 0) > 59 || (v.second ?? 0) > 60)) return undefined;
  return v;
}

function offsetOf(z: string | undefined): number | undefined {
  if (!z) return undefined;
  if (/^(?:z|utc|gmt)$/i.test(z)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(z);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/** An ISO 8601 date or date-time (`2026-03-14`, `2026-03-14T09:30:00Z`, `20260314T0930+0100`). */
export function parseIsoDate(s: string): DateValue | undefined {
  const m = ISO.exec(s.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, z] = m;
  return valid({
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    ...(h !== undefined ? { hour: Number(h), minute: Number(mi), second: Number(sec ?? 0) } : {}),
    ...(offsetOf(z) !== undefined ? { offsetMinutes: offsetOf(z) } : {}),
  });
}

/** A year the text writes out (4 digits, or a numeric date with a 2-digit year): relative dates have none. */
const HAS_YEAR = /(?:^|\D)(?:19|20)\d{2}(?:\D|$)|\d{1,2}[./-]\d{1,2}[./-]\d{2}(?:\D|$)|\d{4}年/;

function fromChrono(r: ParsedResult): DateValue | undefined {
  const c = r.start;
  if (!c.isCertain('year') || !c.isCertain('month') || !c.isCertain('day')) return undefined;
  if (!HAS_YEAR.test(r.text)) return undefined;
  const timed = c.isCertain('hour');
  const offset = c.isCertain('timezoneOffset') ? c.get('timezoneOffset') : null;
  return valid({
    year: c.get('year')!,
    month: c.get('month')!,
    day: c.get('day')!,
    ...(timed ? { hour: c.get('hour')!, minute: c.get('minute') ?? 0, second: c.get('second') ?? 0 } : {}),
    ...(offset !== null && offset !== undefined ? { offsetMinutes: offset } : {}),
  });
}

/** Cheap test before running the parsers: a date needs a digit. */
const DIGIT = /\d/;
/** A fixed reference, so the same text always parses the same way. */
const REFERENCE = new Date(Date.UTC(2020, 0, 1));

export interface FoundDate {
  readonly value: DateValue;
  readonly locale: DateLocale;
  /** Where the date starts in the text, and its length. */
  readonly index: number;
  readonly length: number;
}

/**
 * The first date written in a text (ISO first, then each locale's strict parser in order): "Posted on
 * March 3, 2012 at 10:45 am | 5 comments" → 2012-03-03 10:45. Undefined when the text has none.
 */
export function findDate(text: string, locales: readonly DateLocale[] = DATE_LOCALES): FoundDate | undefined {
  const t = text.trim();
  if (!t || t.length > 400 || !DIGIT.test(t)) return undefined;
  const iso = parseIsoDate(t);
  if (iso) return { value: iso, locale: locales[0] ?? 'en', index: 0, length: t.length };
  for (const locale of locales) {
    let results: ParsedResult[];
    try {
      results = parserFor(locale).parse(t, REFERENCE);
    } catch {
      continue;
    }
    for (const r of results) {
      const value = fromChrono(r);
      if (value) return { value, locale, index: r.index, length: r.text.length };
    }
  }
  return undefined;
}

/** Every locale's reading of the first date in a text (for learning which locale a site writes in). */
export function findDateAllLocales(text: string): FoundDate[] {
  const out: FoundDate[] = [];
  for (const locale of DATE_LOCALES) {
    const f = findDate(text, [locale]);
    if (f) out.push(f);
  }
  return out;
}

/** A machine-readable date (feed, JSON-LD, meta, `datetime` attribute): ISO 8601, RFC 822, or what chrono reads. */
export function parseMachineDate(s: string | undefined): DateValue | undefined {
  if (!s) return undefined;
  const t = s.trim();
  if (!t || t.length > 100) return undefined;
  return parseIsoDate(t) ?? findDate(t, ['en'])?.value;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The calendar date as written: `2026-03-14`. */
export function localDate(v: DateValue): string {
  return `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)}`;
}

/** The instant in ms, when the value has a time and a zone (or a zone is assumed). */
export function instantOf(v: DateValue, assumedOffsetMinutes?: number): number | undefined {
  const offset = v.offsetMinutes ?? assumedOffsetMinutes;
  if (v.hour === undefined || offset === undefined) return undefined;
  return Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute ?? 0, v.second ?? 0) - offset * 60_000;
}

/** The UTC calendar date, when the value has a time and a zone. */
export function utcDate(v: DateValue): string | undefined {
  const t = instantOf(v);
  return t === undefined ? undefined : new Date(t).toISOString().slice(0, 10);
}

/**
 * Dates match as dates: the same calendar day, as written or in UTC (a page may show the day in its
 * own zone while its feed gives UTC, and the other way round).
 */
export function sameDate(a: DateValue | undefined, b: DateValue | undefined): boolean {
  if (!a || !b) return false;
  const da = [localDate(a), utcDate(a)].filter(Boolean);
  const db = [localDate(b), utcDate(b)].filter(Boolean);
  return da.some((d) => db.includes(d));
}

/**
 * Whether a day without a time (`day`: a URL's) is the day of an instant (`v`, with a time and a
 * zone) somewhere: in a zone from UTC−12 to UTC+14. A post filed under /2012/10/30/ in New York may
 * give its time as `2012-10-31T02:00Z`.
 */
export function dayOfInstantSomewhere(v: DateValue, day: DateValue): boolean {
  const t = instantOf(v);
  if (t === undefined || day.hour !== undefined) return false;
  const d = localDate(day);
  return new Date(t - 12 * 3_600_000).toISOString().slice(0, 10) <= d && d <= new Date(t + 14 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * ISO 8601 for a date: the UTC instant (`2026-03-14T09:30:00.000Z`) when its time and zone are known
 * (or the site's zone was learned), else the calendar date alone (`2026-03-14`).
 */
export function toIso(v: DateValue, assumedOffsetMinutes?: number): string {
  const t = instantOf(v, assumedOffsetMinutes);
  return t === undefined ? localDate(v) : new Date(t).toISOString();
}

/**
 * The one normaliser of machine-written dates (JSON-LD, meta tags, `<time datetime>`, feeds) to an
 * article's `published`: parsed by parseMachineDate, written by toIso (the UTC instant when the value
 * has a time and a zone, else the calendar date), undefined when it is not a date.
 */
export function toIsoDate(value: string | undefined, assumedOffsetMinutes?: number): string | undefined {
  const v = parseMachineDate(value);
  return v && toIso(v, assumedOffsetMinutes);
}

/** Minutes between a zone-less written time and the instant it names (the site's UTC offset), or undefined. */
export function offsetBetween(written: DateValue, truth: DateValue): number | undefined {
  if (written.hour === undefined || written.offsetMinutes !== undefined) return undefined;
  const truthAt = instantOf(truth);
  if (truthAt === undefined) return undefined;
  const asUtc = Date.UTC(written.year, written.month - 1, written.day, written.hour, written.minute ?? 0, written.second ?? 0);
  // Pages show minutes, not seconds: compare at the minute.
  const minutes = Math.round((asUtc - Math.floor(truthAt / 60_000) * 60_000) / 60_000);
  return Math.abs(minutes) <= 14 * 60 && minutes % 15 === 0 ? minutes : undefined;
}

/**
 * A day written in a URL's path as numbers, year first: `/2026/03/14/`, `/2026-03-14-slug`,
 * `/20260314/`. In the first form the day ends the segment: `/2019/07/10-things-to-do` is a post of
 * July 2019 whose name starts with a number, not one of the 10th.
 */
const URL_DAY = /(?:^|\/)(199\d|20\d\d)(?:([/-])(\d{1,2})\2(\d{1,2})(?=$|\2|\/|\.)|(\d\d)(\d\d)(?=$|[/._-]))/;

/**
 * The day a post's permalink names (`https://news.example/2026/03/14/story.html`: 2026-03-14), as
 * `YYYY-MM-DD`; undefined when the path names none, or not a real day. A blog or news site files a
 * post under the day it was published: for a page whose feed entry and metadata give no date, the
 * day its own URL gives is one (a day without a time: the element that shows it may add one). Field
 * learning takes it for the truth (lib/fields/sources.ts), the page's metadata for its date.
 */
export function urlDay(url: string | undefined): string | undefined {
  const path = url ? URL.parse(url)?.pathname : undefined;
  const m = path ? URL_DAY.exec(path) : null;
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[3] ?? m[5]), Number(m[4] ?? m[6])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return d.toISOString().slice(0, 10);
}
