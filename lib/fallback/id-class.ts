/**
 * Weights of id/class name tokens (Dragnet's second feature set): the log odds that a block under
 * an element named with the token is article text, from labelled blocks, shrunk towards a prior.
 *
 * The prior is general knowledge of how pages name things, the same words Readability's patterns
 * and Dragnet's odds table hold (comment, sidebar, footer, share... vs article, content, post,
 * story...). Learned counts move a token away from its prior as evidence grows; tokens never seen
 * in training keep the prior, unknown tokens weigh 0.
 */

/** General prior log odds of tokens (not learned; see the module comment). */
export const PRIOR_TOKEN_WEIGHTS: Readonly<Record<string, number>> = {
  // Boilerplate.
  comment: -1.5, comments: -1.5, respond: -1, reply: -1, replies: -1, disqus: -1.5,
  footer: -1.5, foot: -1, copyright: -1.5, legal: -1, disclaimer: -1,
  header: -1, masthead: -1.5, banner: -1.5, topbar: -1.5, toolbar: -1.5,
  nav: -1.5, navigation: -1.5, navbar: -1.5, menu: -1.5, breadcrumb: -1.5, breadcrumbs: -1.5, crumbs: -1,
  sidebar: -1.5, side: -0.7, rail: -1, aside: -1, widget: -1.5, widgets: -1.5, module: -0.5,
  related: -1.5, recommended: -1.5, recommend: -1, popular: -1.5, trending: -1.5, most: -0.7, more: -0.5,
  share: -1.5, sharing: -1.5, social: -1.5, sharebar: -1.5, facebook: -1, twitter: -1, print: -0.7, email: -0.7,
  ad: -1.5, ads: -1.5, advert: -1.5, advertisement: -1.5, adsense: -1.5, dfp: -1.5, sponsor: -1.5, sponsored: -1.5,
  promo: -1.5, outbrain: -1.5, taboola: -1.5, newsletter: -1.5, subscribe: -1.5, signup: -1.5, login: -1.5,
  cookie: -1.5, consent: -1.5, gdpr: -1.5, popup: -1.5, modal: -1.5, overlay: -1,
  pagination: -1.5, pager: -1.5, tags: -1, tag: -0.7, tagcloud: -1.5, categories: -1, category: -0.5,
  rss: -1, search: -1.5, links: -1, blogroll: -1.5, archive: -1, archives: -1, calendar: -1.5,
  // Article.
  article: 1.5, articlebody: 1.5, content: 0.7, body: 0.7, entry: 1.5, post: 1, hentry: 1.5, story: 1.5,
  text: 1, main: 0.7, paragraph: 1, prose: 1.5, blog: 0.3, news: 0.3, detail: 0.5, copy: 0.5,
};

export interface TokenCounts {
  /** Blocks under a token, article / not. */
  readonly counts: Map<string, [number, number]>;
  /** All blocks, article / not. */
  readonly total: [number, number];
}

export function emptyTokenCounts(): TokenCounts {
  return { counts: new Map(), total: [0, 0] };
}

export function countTokens(into: TokenCounts, tokens: readonly string[], positive: boolean): void {
  const c = positive ? 0 : 1;
  into.total[c]++;
  for (const t of tokens) {
    let e = into.counts.get(t);
    if (!e) into.counts.set(t, (e = [0, 0]));
    e[c]++;
  }
}

export function mergeTokenCounts(parts: readonly TokenCounts[]): TokenCounts {
  const out = emptyTokenCounts();
  for (const p of parts) {
    out.total[0] += p.total[0];
    out.total[1] += p.total[1];
    for (const [t, [a, b]] of p.counts) {
      const e = out.counts.get(t);
      if (e) {
        e[0] += a;
        e[1] += b;
      } else out.counts.set(t, [a, b]);
    }
  }
  return out;
}

export interface TokenWeightOptions {
  /** Pseudo-count of blocks the prior is worth. Default 20. */
  readonly strength?: number;
  /** Weights are clipped to ±this. Default 3. */
  readonly clip?: number;
  /** Tokens under fewer blocks are left at their prior. Default 5. */
  readonly minBlocks?: number;
  /** Learned weights closer to 0 than this are dropped (the table stays small). Default 0.25. */
  readonly minWeight?: number;
}

/**
 * Token → weight: log odds of article text under the token, relative to the base rate, with the
 * prior worth `strength` blocks: w = log((a + s·q) / (b + s·(1−q))) − log(A / B) where q is the
 * prior's probability at the base rate.
 */
export function tokenWeights(counts: TokenCounts, options: TokenWeightOptions = {}): Record<string, number> {
  const strength = options.strength ?? 20;
  const clip = options.clip ?? 3;
  const minBlocks = options.minBlocks ?? 5;
  const minWeight = options.minWeight ?? 0.25;
  const [A, B] = counts.total;
  const base = Math.log((A + 1) / (B + 1));
  const out: Record<string, number> = {};
  const tokens = new Set([...counts.counts.keys(), ...Object.keys(PRIOR_TOKEN_WEIGHTS)]);
  for (const t of [...tokens].sort()) {
    const prior = PRIOR_TOKEN_WEIGHTS[t] ?? 0;
    const c = counts.counts.get(t);
    let w = prior;
    if (c && c[0] + c[1] >= minBlocks) {
      const q = 1 / (1 + Math.exp(-(base + prior)));
      w = Math.log((c[0] + strength * q + 0.5) / (c[1] + strength * (1 - q) + 0.5)) - base;
    }
    w = Math.max(-clip, Math.min(clip, w));
    if (Math.abs(w) >= minWeight || t in PRIOR_TOKEN_WEIGHTS) out[t] = Math.round(w * 1000) / 1000;
  }
  return out;
}
