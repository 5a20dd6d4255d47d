/**
 * The rendered document or the HTML as served (issue 14). A page's own scripts can take its article
 * away before the snapshot: an error handler replacing the document with a banner, a consent or
 * paywall overlay standing in for the story, a hydration that failed. The render step keeps the
 * HTML as served (`pages/<site>/<pageId>/served.html`) and writes both documents' text lengths into
 * the snapshot (SNAPSHOT_META); here apply decides, from evidence only (no phrase list, nothing
 * keyed to a language), whether to extract from the served HTML instead:
 *
 * - **lost**: the rendered document holds under half the served page's text (LOST_SHARE): scripts
 *   removed most of what was sent;
 * - **interstitial**: what the fallback found on the rendered page is short or no article, the
 *   rendered page holds less text than was served, and most of its text is links and controls
 *   (INTERACTIVE_SHARE): a banner with a "try again", a consent or paywall box with its buttons.
 *
 * On either, the served HTML is parsed with htmlparser2 (never a DOM implementation at apply) and
 * extracted with the same fallback; it is taken only when it gives clearly more article
 * (GAIN × the rendered extraction's words, at least MIN_SERVED_WORDS), so a page whose scripts only
 * added to it keeps its rendered article.
 */
import { Element, type Document } from 'domhandler';
import { headAndBody } from '../html/parse';
import { plainWords } from '../text/match';
import { MAX_TITLE_CHARS } from '../text/titles';
import { SNAPSHOT_META } from '../types/feature-document';

/** Rendered text under this share of the served text: the scripts took most of the page away. */
export const LOST_SHARE = 0.5;
/** A fallback article under this many words is short enough to look further. */
export const SHORT_ARTICLE_WORDS = 100;
/** Share of the rendered page's text inside links and controls above which it reads as an interstitial. */
export const INTERACTIVE_SHARE = 0.3;
/** The served extraction must give this many times the rendered one's words… */
export const GAIN = 1.5;
/** …and at least this many. */
export const MIN_SERVED_WORDS = 50;

const INTERACTIVE = new Set(['a', 'button', 'label', 'select', 'option', 'summary']);
/** Text no reader sees (controls' own text is counted: it is what an interstitial is made of). */
const UNSEEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'title', 'textarea']);

/** What the render step wrote into the snapshot's <head>. */
export interface SnapshotEvidence {
  readonly servedText?: number;
  readonly renderedText?: number;
  readonly readabilityTitle?: string;
  /** The URL submitted, when its navigation ended on another site (the snapshot's `spider:url` is then the landing page's). */
  readonly submittedUrl?: string;
}

export function snapshotEvidence(doc: Document): SnapshotEvidence {
  const { head } = headAndBody(doc);
  const out: { -readonly [K in keyof SnapshotEvidence]: SnapshotEvidence[K] } = {};
  if (!head) return out;
  for (const el of head.children) {
    if (!(el instanceof Element) || el.name !== 'meta') continue;
    const name = el.attribs.name;
    const content = el.attribs.content;
    if (content === undefined) continue;
    if (name === SNAPSHOT_META.servedText) out.servedText = Number(content);
    else if (name === SNAPSHOT_META.renderedText) out.renderedText = Number(content);
    else if (name === SNAPSHOT_META.readabilityTitle) out.readabilityTitle = content;
    else if (name === SNAPSHOT_META.submittedUrl) out.submittedUrl = content;
  }
  for (const k of ['servedText', 'renderedText'] as const) if (!Number.isFinite(out[k])) delete out[k];
  return out;
}

/** Share of the body's visible text inside links and form controls. */
export function interactiveShare(doc: Document): number {
  const { body } = headAndBody(doc);
  if (!body) return 0;
  let total = 0;
  let interactive = 0;
  const walk = (el: Element, inside: boolean) => {
    for (const c of el.children) {
      if (c instanceof Element) {
        if (UNSEEN.has(c.name)) continue;
        walk(c, inside || INTERACTIVE.has(c.name) || c.attribs.role === 'button');
      } else if (c.type === 'text') {
        const n = (c as { data: string }).data.replace(/\s+/g, '').length;
        total += n;
        if (inside) interactive += n;
      }
    }
  };
  walk(body, false);
  return total ? interactive / total : 0;
}

export type Suspicion = 'lost' | 'interstitial';

/** Why the served HTML should be looked at, or undefined when the rendered page is to be trusted. */
export function servedSuspicion(evidence: SnapshotEvidence, doc: Document, rendered: { wordCount: number; notArticle: boolean }): Suspicion | undefined {
  const { servedText, renderedText } = evidence;
  if (servedText === undefined || renderedText === undefined || servedText === 0) return undefined;
  if (renderedText < LOST_SHARE * servedText) return 'lost';
  if ((rendered.notArticle || rendered.wordCount < SHORT_ARTICLE_WORDS) && renderedText < servedText && interactiveShare(doc) >= INTERACTIVE_SHARE) {
    return 'interstitial';
  }
  return undefined;
}

/** Whether the served HTML's extraction is clearly the article the rendered one lost. */
export function preferServed(rendered: { wordCount: number }, served: { wordCount: number; notArticle: boolean }): boolean {
  return !served.notArticle && served.wordCount >= MIN_SERVED_WORDS && served.wordCount >= GAIN * rendered.wordCount;
}

const HEADING = new Set(['h1', 'h2', 'h3']);

/** Normalised texts of the page's h1-h3 headings. */
function headingTexts(doc: Document): Set<string> {
  const { body } = headAndBody(doc);
  const out = new Set<string>();
  const text = (el: Element): string => el.children.map((c) => (c instanceof Element ? text(c) : c.type === 'text' ? (c as { data: string }).data : '')).join('');
  const walk = (el: Element) => {
    for (const c of el.children) {
      if (!(c instanceof Element) || UNSEEN.has(c.name)) continue;
      if (HEADING.has(c.name)) out.add(plainWords(text(c)));
      else walk(c);
    }
  };
  if (body) walk(body);
  return out;
}

/**
 * Readability's title of the page (found at render) in place of ours when ours has weak evidence:
 * we found none, or no heading of the page shows ours while one shows Readability's. A headline
 * the reader sees is the evidence; undefined keeps ours, as it does for a title of Readability's
 * longer than a headline can be (MAX_TITLE_CHARS: Readability reads a meta left open too).
 */
export function readabilityTitle(doc: Document, ours: string | undefined, theirs: string | undefined): string | undefined {
  if (!theirs || theirs.length > MAX_TITLE_CHARS || !plainWords(theirs)) return undefined;
  if (!ours) return theirs;
  const a = plainWords(ours);
  const b = plainWords(theirs);
  if (a === b) return undefined;
  const shown = headingTexts(doc);
  return !shown.has(a) && shown.has(b) ? theirs : undefined;
}
