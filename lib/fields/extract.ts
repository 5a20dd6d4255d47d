/**
 * A field's value from one element, and whether it is a post's value: the same test makes an element
 * a filter's match during learning and decides a rule's success in Algorithm 1, so a rule scores
 * exactly where its element would have been matched.
 */
import { Element } from 'domhandler';
import { elements } from '../html/parse';
import { dayOfInstantSomewhere, findDate, findDateAllLocales, instantOf, offsetBetween, parseMachineDate, sameDate, type DateLocale, type DateValue } from '../text/dates';
import { elementText, ownText } from '../html/element-text';
import { announcesByline, collapse, extractByline, isTitleOf, normalizeByline, normalizeText, sameByline, headlineVariants } from '../text/match';
import { MAX_TITLE_CHARS } from '../text/titles';

export const FIELD_NAMES = ['title', 'byline', 'published'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/** A post's value of a field, as a source gives it. */
export type FieldTruth =
  | { readonly field: 'title'; readonly text: string; readonly variants: readonly string[] }
  | { readonly field: 'byline'; readonly text: string }
  | { readonly field: 'published'; readonly text: string; readonly date: DateValue };

/** Longest element text (characters, white space collapsed) considered for each field. */
export const MAX_TEXT: Record<FieldName, number> = { title: MAX_TITLE_CHARS, byline: 200, published: 160 };

export interface ExtractOptions {
  /** Date locales in the order to try (published). */
  readonly locales?: readonly DateLocale[];
  /** `own`: only the element's own text nodes (see RuleRef.text). */
  readonly text?: 'own';
}

export type Extracted =
  | { readonly field: 'title' | 'byline'; readonly text: string }
  | { readonly field: 'published'; readonly text: string; readonly date: DateValue };

/** Attributes that carry a machine date on visible elements: `<time datetime>`, `<abbr title>` (hAtom), `content` (microdata). */
const DATE_ATTRIBUTES = ['datetime', 'content', 'title'] as const;

function attributeDate(el: Element): { text: string; date: DateValue } | undefined {
  for (const a of DATE_ATTRIBUTES) {
    const v = el.attribs[a];
    if (!v || !/\d{4}/.test(v)) continue;
    const date = parseMachineDate(v);
    if (date) return { text: v.trim(), date };
  }
  return undefined;
}

/** The one `<time datetime>` inside an element (none if there are several). */
function innerTimeDate(el: Element): { text: string; date: DateValue } | undefined {
  let found: Element | undefined;
  for (const d of elements(el)) {
    if (d.name === 'time' && d.attribs.datetime) {
      if (found) return undefined;
      found = d;
    }
  }
  return found ? attributeDate(found) : undefined;
}

/** The text a byline is read from, by lines (a byline ends at a line break: "By Jane Doe<br>April 17, 2009"); undefined past the byline's length. */
function bylineText(el: Element, options: Pick<ExtractOptions, 'text'>): string | undefined {
  const raw = options.text === 'own' ? ownText(el) : elementText(el, MAX_TEXT.byline, true);
  return raw && raw.length <= MAX_TEXT.byline ? raw : undefined;
}

/** Whether the element's byline text introduces the name ("By Jane Doe", "Posted by …": announcesByline). */
export function bylineAnnounced(el: Element, options: Pick<ExtractOptions, 'text'> = {}): boolean {
  const raw = bylineText(el, options);
  return !!raw && announcesByline(raw);
}

/** The field's value in an element, or undefined when the element holds none. */
export function extractFrom(field: FieldName, el: Element, options: ExtractOptions = {}): Extracted | undefined {
  switch (field) {
    case 'title': {
      const text = options.text === 'own' ? ownText(el) : elementText(el, MAX_TEXT.title);
      return text && text.length <= MAX_TEXT.title ? { field, text } : undefined;
    }
    case 'byline': {
      const raw = bylineText(el, options);
      const text = raw && extractByline(raw);
      return text ? { field, text } : undefined;
    }
    case 'published': {
      const own = attributeDate(el);
      if (own) return { field, ...own };
      const raw = elementText(el, MAX_TEXT.published);
      if (!raw || raw.length > MAX_TEXT.published) return undefined;
      const inner = innerTimeDate(el);
      if (inner) return { field, ...inner };
      const found = findDate(raw, options.locales);
      return found ? { field, text: raw.slice(found.index, found.index + found.length), date: found.value } : undefined;
    }
  }
}

/** Whether an extracted value is the post's value: titles exactly, bylines by name, dates as dates. */
export function isValue(extracted: Extracted | undefined, truth: FieldTruth): boolean {
  if (!extracted) return false;
  switch (truth.field) {
    case 'title':
      return isTitleOf(extracted.text, truth.variants);
    case 'byline':
      return sameByline(extracted.text, truth.text);
    case 'published':
      // a day without a time (a URL's) is also that of an instant shown in UTC somewhere (dayOfInstantSomewhere)
      return extracted.field === 'published' && ((sameDate(extracted.date, truth.date) && timesAgree(extracted.date, truth.date)) || dayOfInstantSomewhere(extracted.date, truth.date));
  }
}

/**
 * When both dates have a time, the times must agree too (a comment's time on the same day is not the
 * post's): to the minute when both have a zone, or by a whole-quarter-hour offset (the site's zone)
 * when one has none.
 */
export function timesAgree(a: DateValue, b: DateValue): boolean {
  if (a.hour === undefined || b.hour === undefined) return true;
  if (a.offsetMinutes !== undefined && b.offsetMinutes !== undefined) {
    const ta = instantOf(a)!;
    const tb = instantOf(b)!;
    return Math.abs(Math.floor(ta / 60_000) - Math.floor(tb / 60_000)) <= 1;
  }
  if (a.offsetMinutes === undefined && b.offsetMinutes === undefined) return a.hour === b.hour && (a.minute ?? 0) === (b.minute ?? 0);
  return a.offsetMinutes === undefined ? offsetBetween(a, b) !== undefined : offsetBetween(b, a) !== undefined;
}

/**
 * A cheap test that an element's text could hold the value, before the real one: the title's
 * length, the author's first name, the date's year.
 */
export function prefilter(truth: FieldTruth): (text: string) => boolean {
  switch (truth.field) {
    case 'title': {
      const lengths = truth.variants.map((v) => v.length);
      const lo = Math.min(...lengths) * 0.8 - 2;
      const hi = Math.max(...lengths) * 1.3 + 10;
      return (t) => t.length >= lo && t.length <= hi;
    }
    case 'byline': {
      const token = normalizeByline(truth.text).split(/[\s,]+/).find((w) => w.length >= 2) ?? normalizeByline(truth.text);
      return (t) => normalizeText(t).includes(token);
    }
    case 'published': {
      const y = String(truth.date.year);
      return (t) => t.includes(y) || t.includes(y.slice(2));
    }
  }
}

/** The date locales under which an element's text reads as the post's date (learning a site's locale). */
export function matchingLocales(el: Element, truth: Extract<FieldTruth, { field: 'published' }>): DateLocale[] {
  const raw = elementText(el, MAX_TEXT.published);
  if (!raw || raw.length > MAX_TEXT.published) return [];
  return findDateAllLocales(raw)
    .filter((f) => sameDate(f.value, truth.date) && timesAgree(f.value, truth.date))
    .map((f) => f.locale);
}

/** A source's value as the truth of a field, or undefined when it is unusable (an unparseable date, an empty title). */
export function truthOf(field: FieldName, value: string | undefined): FieldTruth | undefined {
  const text = value ? collapse(value) : '';
  if (!text) return undefined;
  if (field === 'published') {
    const date = parseMachineDate(text);
    return date ? { field, text, date } : undefined;
  }
  if (field === 'title') {
    const variants = headlineVariants(text);
    return variants.length ? { field, text, variants } : undefined;
  }
  return { field, text };
}
