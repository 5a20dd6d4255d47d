/**
 * Which way a submitted page goes (docs/fetch-path.md): fetched over HTTP and extracted with its
 * site's rules, no browser, or rendered in Chromium. Pure: the embedded runner's and the render
 * Lambda's consumer ask it alike, before a browser starts.
 *
 * Drift is handled per page, after the fetch: a fetched page the rules fail on (they select nothing,
 * or their output fails the page guard) is sent to render by apply, and its drift marker counts
 * toward the site's relearn. The site's other pages go on being fetched: rendering them would give
 * the same rules' same article (the verdict checked that), and the learner needs the renders of the
 * pages the rules fail on, which it gets.
 */
import type { RulesDocument } from '../types/rules-document';

export type PagePath = 'fetch' | 'render';

/**
 * `resolve`: the page's site has no rules but redirects to other sites (a link shortener's): its
 * redirect is asked first, with one request that does not follow it, and the page it leads to is
 * fetched when that page's own route says fetch; rendered otherwise (lib/step/fetch-step.ts).
 */
export type RoutePath = PagePath | 'resolve';

export interface RouteInput {
  readonly pageId: string;
  /** config.fetchPath */
  readonly enabled: boolean;
  /** config.renderSampleRate */
  readonly sampleRate: number;
  /** The page comes with an archived copy: replayed by render. */
  readonly archived: boolean;
  /** The message asks for a render (`path: 'render'`: its rules failed on the page's HTML as served). */
  readonly renderAsked: boolean;
  /** The site's current rules, if any. */
  readonly rules: Pick<RulesDocument, 'fetchPath'> | undefined;
  /** The site holds a redirect record: its URLs have led to other sites' pages (asked only of a site with no rules). */
  readonly redirects?: boolean;
}

export interface Route {
  readonly path: RoutePath;
  readonly reason: string;
}

/** Whether a page is in the site's render sample: the first 32 bits of its id (hex) as a share of 2^32, below the rate. */
export function inRenderSample(pageId: string, rate: number): boolean {
  const head = Number.parseInt(pageId.slice(0, 8), 16);
  if (!Number.isFinite(head)) return true;
  return head / 2 ** 32 < rate;
}

export function routePage(input: RouteInput): Route {
  if (!input.enabled) return { path: 'render', reason: 'the fetch path is off' };
  if (input.archived) return { path: 'render', reason: 'an archived copy' };
  if (input.renderAsked) return { path: 'render', reason: "the site's rules failed on its HTML as served" };
  if (!input.rules && input.redirects) return { path: 'resolve', reason: 'the site has no rules and its URLs redirect to other sites: where this one leads is asked first' };
  if (!input.rules) return { path: 'render', reason: 'the site has no rules' };
  if (!input.rules.fetchPath?.works) return { path: 'render', reason: "the site's rules do not work on the HTML as served" };
  if (inRenderSample(input.pageId, input.sampleRate)) return { path: 'render', reason: 'in the render sample' };
  return { path: 'fetch', reason: "the site's rules work on the HTML as served" };
}
