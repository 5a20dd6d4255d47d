/**
 * A site's learned rules as a Postlight Parser custom extractor (`Parser.addExtractor(extractor)`, or
 * `customExtractor` in `parse`'s options): the declarative format of Postlight's ~140 hand-written
 * per-site extractors (github.com/postlight/parser, src/extractors/custom/README.md). Pure: rules
 * document in, plain object out. Documented in docs/rules-document.md ("Export to Postlight Parser").
 *
 * How each part maps:
 * - content: our selectors take every node any of them matches, in document order. Postlight takes a
 *   plain selector only when it matches exactly one node; an array of selectors is a multi-match that
 *   takes every node of all of them in document order, but only when each matches. So the content is
 *   one array holding one selector list (`a, b, c`): it matches when any of them does, and takes all.
 *   A match inside another match is excluded (`:not(… *)`), as apply takes the outermost match once.
 *   `defaultCleaner: false`: the body is what the rules select, less their clean list, as in apply.
 * - clean: the clean selectors as they are. Postlight looks them up inside the taken elements, moved
 *   into a detached wrapper: one whose first step is an ancestor of a taken element (most of ours,
 *   written from the container above what they take) matches nothing there (docs/rules-document.md).
 * - title, author, date_published: the field rules' CSS selectors, best first (Postlight takes the
 *   first that matches exactly one element). A field without rules is left out: Postlight's generic
 *   extractor fills it in. The date's `timezone` is the site's learned UTC offset (postlightTimezone).
 * - dek: the dek selectors when the rules have them, else the header selectors (byline line, lead
 *   caption, a dek the learner did not tell apart). Apply puts the dek at the head of the body;
 *   Postlight gives it as a field of its own.
 * - supportedDomains: the site's host with `www.` added or taken off (none for an IP address).
 */
import { isIP } from 'node:net';
import type { FieldRules, RulesDocument } from '../types/rules-document';

export interface PostlightExtractor {
  readonly domain: string;
  readonly supportedDomains?: readonly string[];
  readonly title?: { readonly selectors: readonly string[] };
  readonly author?: { readonly selectors: readonly string[] };
  readonly date_published?: { readonly selectors: readonly string[]; readonly timezone?: string };
  readonly dek?: { readonly selectors: readonly string[] };
  readonly content: {
    readonly selectors: readonly (string | readonly string[])[];
    readonly clean: readonly string[];
    readonly defaultCleaner: boolean;
  };
}

function fieldSelectors(field: FieldRules | undefined): { selectors: string[] } | undefined {
  const selectors = [...new Set(field?.rules.map((r) => r.selector) ?? [])];
  return selectors.length ? { selectors } : undefined;
}

/**
 * The zone Postlight reads the shown date in (moment-timezone's name): the site's learned UTC offset
 * as `Etc/GMT±h`, whose sign is the reverse of the offset's (UTC+9 is `Etc/GMT-9`); `Etc/UTC` when
 * none was learned, so that a date shown without a zone comes out as the day it shows, as apply
 * writes it, whatever the zone of the machine Postlight runs on. None for an offset of part of an
 * hour or beyond UTC−12 (no Etc zone names one): the machine's zone then. A date shown without a
 * time on a site east of UTC comes out as the day before in UTC (midnight there), where apply writes the day.
 */
function postlightTimezone(published: FieldRules): string | undefined {
  const offset = published.utcOffsetMinutes;
  if (offset === undefined || offset === 0) return 'Etc/UTC';
  // Etc zones run from UTC−12 (Etc/GMT+12) to UTC+14 (Etc/GMT-14), in whole hours
  if (offset % 60 !== 0 || offset < -12 * 60 || offset > 14 * 60) return undefined;
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset / 60)}`;
}

/** The outermost matches of a selector list: each selector, not inside a match of any of them. */
function outermost(selectors: readonly string[]): string {
  return selectors.map((s) => `${s}:not(${selectors.map((t) => `${t} *`).join(', ')})`).join(', ');
}

/** The site's host with `www.` added or taken off; none for an IP address or a single-label host. */
function otherHostForm(host: string): string | undefined {
  if (isIP(host) || !host.includes('.')) return undefined;
  return host.startsWith('www.') ? host.slice(4) : `www.${host}`;
}

export function toPostlightExtractor(rules: RulesDocument): PostlightExtractor {
  const { title, byline, published } = rules.fields ?? {};
  const titleRules = fieldSelectors(title);
  const authorRules = fieldSelectors(byline);
  const dateSelectors = fieldSelectors(published);
  const timezone = published && postlightTimezone(published);
  const dateRules = dateSelectors && { ...dateSelectors, ...(timezone ? { timezone } : {}) };
  const dekSelectors = rules.content.dek?.length ? rules.content.dek : rules.content.header;
  const dek = dekSelectors?.length ? { selectors: [dekSelectors.join(', ')] } : undefined;
  const other = otherHostForm(rules.site);
  return {
    domain: rules.site,
    ...(other ? { supportedDomains: [other] } : {}),
    ...(titleRules ? { title: titleRules } : {}),
    ...(authorRules ? { author: authorRules } : {}),
    ...(dateRules ? { date_published: dateRules } : {}),
    ...(dek ? { dek } : {}),
    content: {
      selectors: rules.content.selectors.length ? [[outermost(rules.content.selectors)]] : [],
      clean: [...rules.content.clean],
      defaultCleaner: false,
    },
  };
}

