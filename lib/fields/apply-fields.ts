/** Applying a site's field rules to a parsed page: title, byline and published date (ISO 8601). */
import type { Document, Element } from 'domhandler';
import type { FieldRules, FieldsSection } from '../types/rules-document';
import { dayOfInstantSomewhere, parseIsoDate, siteLocales, toIso, type DateLocale } from '../text/dates';
import { elementText } from '../html/element-text';
import { bylineAnnounced, extractFrom, FIELD_NAMES, MAX_TEXT, type Extracted, type FieldName } from './extract';
import { FieldPage, type RuleRef } from './page';

export interface FieldValues {
  title?: string;
  byline?: string;
  /** ISO 8601: a UTC instant when the page gives a time and its zone is known, else the date. */
  published?: string;
}

/**
 * What a field's rules read on a page: the value of the first rule, in order, whose element holds one
 * (learning reads it so too). An announced byline rule's element holds one only where it introduces
 * the name: there it holds something else, a dateline ("WESTPORT, Wash." where "By …" stood).
 */
export function firstValue(page: FieldPage, field: FieldName, rules: readonly RuleRef[], locales: readonly DateLocale[]): Extracted | undefined {
  return firstRule(page, field, rules, locales)?.got;
}

/** The rule firstValue reads, its element and what it reads there (the site report marks that element). */
export function firstRule<R extends RuleRef>(page: FieldPage, field: FieldName, rules: readonly R[], locales: readonly DateLocale[]): { rule: R; el: Element; got: Extracted } | undefined {
  for (const rule of rules) {
    const el = page.select(rule);
    if (!el || (rule.announced && !bylineAnnounced(el, rule))) continue;
    const got = extractFrom(field, el, { locales, text: rule.text });
    if (got) return { rule, el, got };
  }
  return undefined;
}

/** Every field the rules give a value for on this page; fields without rules or values are left out. */
export function applyFieldRules(doc: Document | FieldPage, fields: FieldsSection): FieldValues {
  return readFieldRules(doc, fields).values;
}

/** A field's value as the page's first rule that holds one reads it (firstRule). */
export interface FieldRead {
  readonly field: FieldName;
  readonly rule: FieldRules['rules'][number];
  readonly el: Element;
}

/**
 * applyFieldRules' values, what each was read from, and `lines`: the elements the byline and the
 * date were read from by their text (no longer than the field's), whose lines the article's text
 * leaves out (lib/html/extract-with-rules.ts fieldLines): the article gives them as its fields. The
 * title is not among them: the text starts with it.
 */
export function readFieldRules(doc: Document | FieldPage, fields: FieldsSection): { values: FieldValues; read: FieldRead[]; lines: Element[] } {
  const page = doc instanceof FieldPage ? doc : new FieldPage(doc);
  const values: FieldValues = {};
  const read: FieldRead[] = [];
  for (const field of FIELD_NAMES) {
    const rules = fields[field];
    if (!rules || rules.rules.length === 0) continue;
    const first = firstRule(page, field, rules.rules, siteLocales(rules.locale));
    if (!first) continue;
    const { got } = first;
    values[field] = got.field === 'published' ? toIso(got.date, rules.utcOffsetMinutes) : got.text;
    read.push({ field, rule: first.rule, el: first.el });
  }
  // an element whose text is longer than its field's shows more than the field (read from its own
  // text or an attribute: a container of the story that starts "By Jane Doe"): no line of it
  const lines = read.filter((r) => r.field !== 'title' && elementText(r.el, MAX_TEXT[r.field]).length <= MAX_TEXT[r.field]).map((r) => r.el);
  return { values, read, lines };
}

export interface ChosenFields {
  readonly values: FieldValues;
  readonly sources: Partial<Record<FieldName, 'rules' | 'metadata'>>;
}

/**
 * The metadata's instant, where the rules read only a day and the page declares its publication time
 * on that day (publishedDeclared: not a comment's `<time>`): the same date, said more exactly.
 */
function moreExact(fromRules: FieldValues, fromMetadata: MetadataValues): boolean {
  const day = fromRules.published ? parseIsoDate(fromRules.published) : undefined;
  const instant = fromMetadata.publishedDeclared && fromMetadata.published ? parseIsoDate(fromMetadata.published) : undefined;
  return !!day && !!instant && dayOfInstantSomewhere(instant, day);
}

/** The page's metadata values, and whether its date is the one it declares as its publication's (extractMetadata). */
export type MetadataValues = FieldValues & { readonly publishedDeclared?: boolean };

/**
 * Each field from the rules when they give it, else from the page's metadata; with where it came from.
 * A published day the rules read gives way to the time the page declares on that day (moreExact).
 */
export function chooseFields(fromRules: FieldValues, fromMetadata: MetadataValues): ChosenFields {
  const values: FieldValues = {};
  const sources: ChosenFields['sources'] = {};
  for (const field of FIELD_NAMES) {
    if (fromRules[field] && !(field === 'published' && moreExact(fromRules, fromMetadata))) {
      values[field] = fromRules[field];
      sources[field] = 'rules';
    } else if (fromMetadata[field]) {
      values[field] = fromMetadata[field];
      sources[field] = 'metadata';
    }
  }
  return { values, sources };
}
