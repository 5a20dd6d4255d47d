/**
 * Learning where a site's title, byline and published date are, from training posts whose values a
 * feed or the page's metadata gives (Gkotsis, Stepanyan, Cristea & Joy, "Self-supervised automated
 * wrapper generation for weblog data extraction"):
 *
 *   step 2, filters: every element whose text is the post's value (title exactly, author after "By",
 *     date as a date), described by its absolute path, its CSS classes and its id, climbing to the
 *     parent while the parent's text is still only the value;
 *   step 3, rules: every filter attribute is a candidate rule; a rule's score is the share of training
 *     posts on which it gives the post's value (Algorithm 1); the best rules per field are kept as a
 *     decision list, one rule per layout of the site, which together must reach a minimum score.
 *
 * Pure: parsed pages and values in, the rules document's `fields` section out.
 */
import type { Element } from 'domhandler';
import { SKIP_TAGS } from '../html/content';
import { elementText, ownText } from '../html/element-text';
import { elements } from '../html/parse';
import { cssEscape } from '../html/selector';
import { DATE_LOCALES, siteLocales, offsetBetween, type DateLocale } from '../text/dates';
import { normalizeText } from '../text/match';
import type { FieldRule, FieldRules, FieldsSection } from '../types/rules-document';
import { bylineAnnounced, extractFrom, FIELD_NAMES, isValue, matchingLocales, MAX_TEXT, prefilter, type FieldName, type FieldTruth } from './extract';
import { firstValue } from './apply-fields';
import { classesOf } from '../html/parse';
import { FieldPage, pathOf, selectorOf, type RuleKind, type RuleRef } from './page';

/** A page a source gives values for. */
export interface TrainingPost {
  readonly pageId: string;
  readonly page: FieldPage;
  readonly truths: Partial<Record<FieldName, FieldTruth>>;
}

export interface LearnFieldsOptions {
  /** The share of training posts the kept rules together must give the right value on; a runner-up alone must reach it too. */
  readonly minScore: number;
  /** Rules must give the value on at least this many posts. */
  readonly minSupport: number;
  /** Rules kept per field (the best, then runner-ups that pick other elements). */
  readonly maxRules: number;
  /** Most filters taken from one page for one field (pages repeat a title in lists and widgets). */
  readonly maxFiltersPerPage: number;
}

export const DEFAULT_LEARN_FIELDS_OPTIONS: LearnFieldsOptions = { minScore: 0.6, minSupport: 2, maxRules: 3, maxFiltersPerPage: 20 };

/** A filter (the paper's figure 1): one matched element described three ways. */
export interface Filter {
  /** Absolute paths of the innermost matched element and of the outermost ancestor still holding only the value. */
  readonly paths: readonly string[];
  /** Class sets of the elements from the innermost to the outermost. */
  readonly classes: readonly (readonly string[])[];
  readonly ids: readonly string[];
  /** Selectors anchored at the nearest ancestor with an id or class, or on the element's itemprop / rel. */
  readonly selectors: readonly string[];
  /** Matched by its own text only (`<h1>Title <span>date</span></h1>`): its rules read own text. */
  readonly own?: boolean;
}

/** Raw text length of every element under root (skipped elements count 0), in one pass. */
function textLengths(root: Element): Map<Element, number> {
  const lengths = new Map<Element, number>();
  const visit: Array<{ el: Element; done: boolean }> = [{ el: root, done: false }];
  while (visit.length) {
    const top = visit.pop()!;
    if (top.done) {
      let n = 0;
      for (const c of top.el.children) {
        if (c.type === 'text') n += (c as unknown as { data: string }).data.length;
        else if (lengths.has(c as Element)) n += lengths.get(c as Element)!;
      }
      lengths.set(top.el, n);
      continue;
    }
    if (top.el !== root && SKIP_TAGS.has(top.el.name)) {
      lengths.set(top.el, 0);
      continue;
    }
    visit.push({ el: top.el, done: true });
    for (const c of top.el.children) if (c.type === 'tag' || c.type === 'script' || c.type === 'style') visit.push({ el: c as Element, done: false });
  }
  return lengths;
}

/** Elements never shown: a value in a body `<meta itemprop>` is machine-readable, not where the page shows it. */
const INVISIBLE_TAGS = new Set(['meta', 'link', 'input', 'param', 'source', 'track']);

/** Raw (uncollapsed) text longer than this is never a field's element, whatever its white space. */
const RAW_LIMIT = 4000;

/**
 * Step 2 for one post and one field: the elements whose value is the post's, as filters. For a date,
 * any locale's reading counts, and each locale that reads it right somewhere on the post gets the
 * post's one vote (a page's elements are no independent witnesses: nested ones, or a toolbar that
 * repeats the date in its own format, would outvote the post's dateline).
 */
export function generateFilters(page: FieldPage, truth: FieldTruth, localeTally?: Map<DateLocale, number>, max = 20): Filter[] {
  const body = page.body;
  if (!body) return [];
  const lengths = textLengths(body);
  const maybe = prefilter(truth);
  const matched = new Set<Element>();
  const ownMatched = new Set<Element>();
  const allLocales = { locales: DATE_LOCALES };
  const postLocales = new Set<DateLocale>();
  for (const el of elements(body)) {
    if (SKIP_TAGS.has(el.name) || INVISIBLE_TAGS.has(el.name)) continue;
    const raw = lengths.get(el);
    if (raw === undefined || raw > RAW_LIMIT) continue;
    const attrDate = truth.field === 'published' && (el.attribs.datetime || el.attribs.content || el.attribs.title);
    if (raw === 0 && !attrDate) continue;
    const text = elementText(el, MAX_TEXT[truth.field]);
    if (text.length > MAX_TEXT[truth.field]) continue;
    if (truth.field === 'title' && el.children.some((c) => c.type === 'tag')) {
      const own = ownText(el);
      if (own && own !== text && maybe(own) && isValue(extractFrom('title', el, { text: 'own' }), truth)) ownMatched.add(el);
    }
    if (!attrDate && !maybe(text)) continue;
    let ok = isValue(extractFrom(truth.field, el, allLocales), truth);
    if (truth.field === 'published') {
      const locales = matchingLocales(el, truth);
      if (locales.length) {
        ok = true;
        for (const l of locales) postLocales.add(l);
      }
    }
    if (ok) matched.add(el);
  }
  if (localeTally) for (const l of postLocales) localeTally.set(l, (localeTally.get(l) ?? 0) + 1);
  // Innermost matches (no matched element inside), each climbed while the parent still matches.
  const hasMatchedChild = new Set<Element>();
  for (const el of matched) {
    for (let p = el.parent; p && p.type === 'tag'; p = p.parent) {
      if (matched.has(p as Element)) hasMatchedChild.add(p as Element);
    }
  }
  const filters: Filter[] = [];
  for (const el of matched) {
    if (hasMatchedChild.has(el)) continue;
    const chain: Element[] = [el];
    for (let p = el.parent; p && p.type === 'tag' && matched.has(p as Element); p = p.parent) chain.push(p as Element);
    const top = chain[chain.length - 1];
    filters.push({
      paths: [...new Set([pathOf(el), pathOf(top)])],
      classes: chain.map(classesOf).filter((c) => c.length > 0),
      ids: chain.map((c) => c.attribs.id?.trim()).filter((id): id is string => !!id),
      selectors: [...new Set([...anchoredSelectors(el), ...anchoredSelectors(top)])],
    });
    if (filters.length >= max) break;
  }
  // Own-text matches that no full match already covers: one element each, no climbing.
  for (const el of ownMatched) {
    if (filters.length >= max) break;
    if (matched.has(el)) continue;
    filters.push({ paths: [pathOf(el)], classes: [classesOf(el)].filter((c) => c.length > 0), ids: el.attribs.id ? [el.attribs.id.trim()] : [], selectors: anchoredSelectors(el), own: true });
  }
  return filters;
}

/** CSS attribute value, quoted. */
const quote = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

/**
 * Selectors for an element beyond the paper's three: its tag under the nearest ancestor with an id
 * (`#main-article-info h1`) or under each of the nearest classed ancestor's classes
 * (`.post-header h1`), also as a child chain of tags (`.post > div > h1`: a class that <body> carries
 * too does not then pick the logo's h1), and its own microdata or link relation
 * (`h1[itemprop~="headline"]`, `a[rel~="author"]`).
 */
export function anchoredSelectors(el: Element): string[] {
  const out: string[] = [];
  const tag = el.name;
  let idDone = false;
  let classDone = false;
  // Tags from the ancestor (excluded) down to the element, for the child-combinator form.
  const chain: string[] = [tag];
  for (let p = el.parent; p && p.type === 'tag' && !(idDone && classDone); p = p.parent) {
    const a = p as Element;
    if (a.name === 'body' || a.name === 'html') break;
    const below = chain.length <= MAX_CHAIN ? ' > ' + chain.join(' > ') : undefined;
    const id = a.attribs.id?.trim();
    if (!idDone && id) {
      out.push(`#${cssEscape(id)} ${tag}`);
      if (below) out.push(`#${cssEscape(id)}${below}`);
      idDone = true;
    }
    const classes = classesOf(a);
    if (!classDone && classes.length) {
      for (const c of classes.slice(0, 3)) {
        out.push(`.${cssEscape(c)} ${tag}`);
        if (below) out.push(`.${cssEscape(c)}${below}`);
      }
      classDone = true;
    }
    chain.unshift(a.name);
  }
  for (const attr of ['itemprop', 'rel'] as const) {
    const v = el.attribs[attr]?.trim();
    if (!v) continue;
    for (const token of v.split(/\s+/).slice(0, 3)) out.push(`${tag}[${attr}~=${quote(token)}]`);
  }
  return out;
}

/** Most steps below the anchor in a child-combinator selector. */
const MAX_CHAIN = 6;

/** The transposition of filters into candidate rules: every path, class (alone, and each element's set) and id. */
export function candidateRules(filters: readonly Filter[]): RuleRef[] {
  const out = new Map<string, RuleRef>();
  let own = false;
  const add = (kind: RuleKind, value: string) => {
    if (value && value.length <= 2048) out.set(`${kind}\0${value}\0${own ? 'own' : ''}`, own ? { kind, value, text: 'own' } : { kind, value });
  };
  for (const f of filters) {
    own = f.own === true;
    for (const s of f.selectors) add('selector', s);
    for (const p of f.paths) add('path', p);
    for (const set of f.classes) {
      for (const c of set) add('class', c);
      if (set.length >= 2 && set.length <= 4) add('class', set.join(' '));
    }
    for (const id of f.ids) add('id', id);
  }
  return [...out.values()];
}

export type Outcome = 'right' | 'wrong' | 'none';

const KIND_ORDER: Record<RuleKind, number> = { id: 0, class: 1, selector: 2, path: 3 };

export interface ScoredRule extends RuleRef {
  readonly score: number;
  readonly support: number;
  /** What the rule selected on each training post (for telling runner-ups apart). */
  readonly picks: readonly (Element | undefined)[];
  /** Per training post: the post's value, another value, or nothing (no element, or no value in it). */
  readonly outcomes: readonly Outcome[];
  /** Training posts where it gives another value than the post's. */
  readonly wrong: number;
  /** Mean text length (in steps of 8 characters) of the elements where it succeeded: among equal scores, the tightest fit wins. */
  readonly tightness: number;
  /** Mean document position of those elements: then the earliest (the post's date before its comments'). */
  readonly position: number;
}

/**
 * Algorithm 1: each candidate rule applied to each training post; its score is the share of posts
 * where it gives the post's value. Returned best first: score, then the fewest posts where it gives
 * another value (where it is wrong on a training post it is wrong on pages like it; where it gives
 * nothing, the next rule of the list may), then the tightest elements (least text around the value,
 * as the filters' climbing wants), then the earliest in the page, then id over class over selector
 * over path, then the shorter value.
 */
export function scoreRules(
  field: FieldName,
  candidates: readonly RuleRef[],
  posts: ReadonlyArray<{ page: FieldPage; truth: FieldTruth }>,
  locales: readonly DateLocale[] = DATE_LOCALES,
): ScoredRule[] {
  const scored: ScoredRule[] = [];
  for (const r of candidates) {
    const picks: (Element | undefined)[] = [];
    const outcomes: Outcome[] = [];
    const postOffsets: (number | undefined)[] = [];
    // Zone-less times must name the truth's instants by one offset (the site's zone) across posts.
    const offsets = new Map<number, number>();
    for (const p of posts) {
      const el = p.page.select(r);
      picks.push(el);
      const got = el ? extractFrom(field, el, { locales, text: r.text }) : undefined;
      const ok = isValue(got, p.truth);
      outcomes.push(ok ? 'right' : got ? 'wrong' : 'none');
      let o: number | undefined;
      if (ok && got?.field === 'published' && p.truth.field === 'published') {
        o = offsetBetween(got.date, p.truth.date);
        if (o !== undefined) offsets.set(o, (offsets.get(o) ?? 0) + 1);
      }
      postOffsets.push(o);
    }
    if (offsets.size > 1) {
      const mode = [...offsets].sort((a, b) => b[1] - a[1])[0][0];
      postOffsets.forEach((o, i) => {
        if (o !== undefined && o !== mode) outcomes[i] = 'wrong';
      });
    }
    // An announced rule (announcedOn) reads nothing, as apply does, where its element introduces no name.
    if (field === 'byline' && outcomes.includes('right') && announcedOn({ outcomes, picks, text: r.text })) {
      outcomes.forEach((o, i) => {
        if (o === 'wrong' && !bylineAnnounced(picks[i]!, r)) outcomes[i] = 'none';
      });
    }
    let support = 0;
    let chars = 0;
    let position = 0;
    outcomes.forEach((o, i) => {
      if (o !== 'right') return;
      support++;
      chars += elementText(picks[i]!, MAX_TEXT[field]).length;
      position += posts[i].page.orderOf(picks[i]!);
    });
    scored.push({
      ...r,
      score: posts.length ? support / posts.length : 0,
      support,
      picks,
      outcomes,
      wrong: outcomes.filter((o) => o === 'wrong').length,
      tightness: support ? Math.round(chars / support / 8) : Infinity,
      position: support ? position / support : Infinity,
    });
  }
  return scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.wrong - b.wrong ||
      a.tightness - b.tightness ||
      a.position - b.position ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      a.value.length - b.value.length ||
      (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
}

/** The best rules with the minimum support tried in turn as a decision list's first (chooseRules). */
const FIRST_RULE_TRIES = 5;

/**
 * The rules kept for a field, in the order apply tries them (the first that gives a value wins), as
 * a decision list: a first rule with the minimum support; then rules that give the value on training
 * posts where the rules before give none (another layout of the site: they must add at least
 * `minSupport` posts and more right values than wrong ones there). The list must give the right
 * value on the minimum score's share of the posts: on a site of two layouts, half its posts each, no
 * one rule does, and each layout's rule is right on every post of its layout. The best rule starts
 * the list; when its list falls short, the next best in turn (up to FIRST_RULE_TRIES): a rule right
 * on one layout and wrong on the other comes after the other layout's rule, which gives nothing on
 * the first. Then runner-ups that reach the minimum score and pick other elements somewhere, for
 * robustness on unseen layouts.
 */
export function chooseRules(ranked: readonly ScoredRule[], opts: Pick<LearnFieldsOptions, 'minScore' | 'minSupport' | 'maxRules'>): ScoredRule[] {
  for (const first of ranked.filter((r) => r.support >= opts.minSupport).slice(0, FIRST_RULE_TRIES)) {
    const list = decisionList(first, ranked, opts);
    if (list) return withRunnerUps(list, ranked, opts);
  }
  return [];
}

/** The decision list `first` starts, with which posts it decides; undefined when it is right on too few posts. */
function decisionList(first: ScoredRule, ranked: readonly ScoredRule[], opts: Pick<LearnFieldsOptions, 'minScore' | 'minSupport' | 'maxRules'>): { kept: ScoredRule[]; decided: boolean[] } | undefined {
  const kept: ScoredRule[] = [first];
  const decided = first.outcomes.map((o) => o !== 'none');
  while (kept.length < opts.maxRules) {
    let best: ScoredRule | undefined;
    let bestNet = 0;
    for (const r of ranked) {
      if (kept.includes(r)) continue;
      let gain = 0;
      let loss = 0;
      r.outcomes.forEach((o, i) => {
        if (decided[i]) return;
        if (o === 'right') gain++;
        else if (o === 'wrong') loss++;
      });
      if (gain >= opts.minSupport && gain - loss > bestNet) [best, bestNet] = [r, gain - loss];
    }
    if (!best) break;
    kept.push(best);
    best.outcomes.forEach((o, i) => {
      if (o !== 'none') decided[i] = true;
    });
  }
  // each post's value is the first kept rule's that gives one
  const right = first.outcomes.filter((_, i) => kept.find((r) => r.outcomes[i] !== 'none')?.outcomes[i] === 'right').length;
  return right < opts.minScore * first.outcomes.length ? undefined : { kept, decided };
}

/** The list with runner-ups that reach the minimum score, pick other elements, and give no wrong value where the list gives none. */
function withRunnerUps(list: { kept: ScoredRule[]; decided: boolean[] }, ranked: readonly ScoredRule[], opts: Pick<LearnFieldsOptions, 'minScore' | 'minSupport' | 'maxRules'>): ScoredRule[] {
  const { kept, decided } = list;
  for (const r of ranked) {
    if (kept.length >= opts.maxRules || r.score < opts.minScore) break;
    if (kept.includes(r) || r.support < opts.minSupport) continue;
    if (kept.some((k) => k.picks.every((el, i) => el === r.picks[i]))) continue;
    // Where the rules before give nothing, a runner-up must not give a wrong value.
    if (r.outcomes.some((o, i) => !decided[i] && o === 'wrong')) continue;
    kept.push(r);
    r.outcomes.forEach((o, i) => {
      if (o !== 'none') decided[i] = true;
    });
  }
  return kept;
}

/** Title values several posts share (a site-wide og:title) are the site's name, not a post's title. */
function dropSharedTitles(posts: readonly TrainingPost[]): Set<string> {
  const count = new Map<string, number>();
  for (const p of posts) {
    const t = p.truths.title;
    if (t) count.set(normalizeText(t.text), (count.get(normalizeText(t.text)) ?? 0) + 1);
  }
  return new Set([...count].filter(([, n]) => n >= 2).map(([t]) => t));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * Whether a byline rule's element introduced the name ("By Jane Doe") on every training post it was
 * right on: an element that did so always and now does not holds something else (a wire story's
 * dateline, "WESTPORT, Wash.", in the byline's place).
 */
function announcedOn(r: Pick<ScoredRule, 'outcomes' | 'picks' | 'text'>): boolean {
  return r.outcomes.every((o, i) => o !== 'right' || bylineAnnounced(r.picks[i]!, r));
}

/**
 * The site's UTC offset, when the kept rules read zone-less times and the truths have zones that
 * agree: on each post, the time of the first rule that gives one, as apply reads it (a site's second
 * layout may show its times without the zone its first layout's elements carry).
 */
function learnOffset(rules: readonly RuleRef[], posts: ReadonlyArray<{ page: FieldPage; truth: FieldTruth }>, locales: readonly DateLocale[]): number | undefined {
  const offsets = new Map<number, number>();
  let samples = 0;
  for (const p of posts) {
    if (p.truth.field !== 'published') continue;
    const got = firstValue(p.page, 'published', rules, locales);
    if (!got || got.field !== 'published' || !isValue(got, p.truth)) continue;
    const o = offsetBetween(got.date, p.truth.date);
    if (o === undefined) continue;
    samples++;
    offsets.set(o, (offsets.get(o) ?? 0) + 1);
  }
  if (samples < 2) return undefined;
  const [best, n] = [...offsets].sort((a, b) => b[1] - a[1])[0];
  return n / samples >= 0.8 ? best : undefined;
}

export interface LearnFieldsInput {
  readonly posts: readonly TrainingPost[];
  /** Entries read from the site's feeds, and values taken from feeds / page metadata (reported in the document). */
  readonly feedEntries?: number;
  readonly fromFeed?: number;
  readonly fromMetadata?: number;
  readonly fromReadability?: number;
  readonly fromUrl?: number;
}

/** The rules document's `fields` section from training posts; undefined when no post has any value. */
export function learnFieldRules(input: LearnFieldsInput, options: Partial<LearnFieldsOptions> = {}): FieldsSection | undefined {
  const opts = { ...DEFAULT_LEARN_FIELDS_OPTIONS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const shared = dropSharedTitles(input.posts);
  const posts = input.posts.filter((p) => Object.keys(p.truths).length > 0);
  if (posts.length === 0) return undefined;

  const section: FieldsSection = {
    training: { posts: posts.length, feedEntries: input.feedEntries ?? 0, fromFeed: input.fromFeed ?? 0, fromMetadata: input.fromMetadata ?? 0, ...(input.fromReadability ? { fromReadability: input.fromReadability } : {}), ...(input.fromUrl ? { fromUrl: input.fromUrl } : {}) },
    minScore: opts.minScore,
  };
  for (const field of FIELD_NAMES) {
    const withValue = posts
      .map((p) => ({ page: p.page, truth: p.truths[field] }))
      .filter((p): p is { page: FieldPage; truth: FieldTruth } => p.truth !== undefined)
      .filter((p) => field !== 'title' || !shared.has(normalizeText(p.truth.text)));
    if (withValue.length === 0) continue;

    const tally = new Map<DateLocale, number>();
    const filters = withValue.flatMap((p) => generateFilters(p.page, p.truth, field === 'published' ? tally : undefined, opts.maxFiltersPerPage));
    const locale = field === 'published' && tally.size ? [...tally].sort((a, b) => b[1] - a[1] || DATE_LOCALES.indexOf(a[0]) - DATE_LOCALES.indexOf(b[0]))[0][0] : undefined;
    const locales = siteLocales(locale);
    const ranked = scoreRules(field, candidateRules(filters), withValue, locales);

    const kept = chooseRules(ranked, opts);
    const rules: FieldRule[] = kept.map((r) => ({
      kind: r.kind,
      value: r.value,
      ...(r.text ? { text: r.text } : {}),
      ...(field === 'byline' && announcedOn(r) ? { announced: true as const } : {}),
      selector: selectorOf(r),
      score: round(r.score),
      support: r.support,
    }));
    const entry: FieldRules = { rules, posts: withValue.length };
    if (field === 'published' && locale && rules.length) {
      entry.locale = locale;
      const offset = learnOffset(kept, withValue, locales);
      if (offset !== undefined) entry.utcOffsetMinutes = offset;
    }
    section[field] = entry;
  }
  return section;
}
