/**
 * The one list of Spider's CloudWatch metrics: the handlers emit them (./step-metrics.ts, embedded
 * metric format), the stack's dashboard graphs them (cdk/dashboard.ts), docs/aws.md#metrics describes
 * them. Every metric carries the `service` dimension (spider-fetch, spider-render, spider-learn, spider-apply);
 * the ones with `dimension` also carry that one.
 */
import { ArticleDocumentSchema } from '../types/article-document';
import { FAILURE_KINDS } from '../util/errors';

export const METRICS_NAMESPACE = 'Spider';

/** Powertools' service name of each step's function: the `service` dimension. */
export const SERVICE_NAMES = { fetch: 'spider-fetch', render: 'spider-render', learn: 'spider-learn', apply: 'spider-apply' } as const;
export type MetricStep = keyof typeof SERVICE_NAMES;

export interface MetricName {
  readonly name: string;
  readonly step: MetricStep | 'any';
  readonly unit: 'Count' | 'Milliseconds';
  /** A second dimension besides `service`, with its values. */
  readonly dimension?: { readonly name: string; readonly values: readonly string[] };
  readonly description: string;
}

export const METRIC = {
  pagesFetched: { name: 'PagesFetched', step: 'fetch', unit: 'Count', description: 'pages fetched over HTTP and handed to apply, no browser (the fetch path)' },
  fetchMs: { name: 'FetchMs', step: 'fetch', unit: 'Milliseconds', description: 'time to route, fetch and store one page on the fetch path' },
  pagesToRender: { name: 'PagesToRender', step: 'fetch', unit: 'Count', description: 'submitted pages the fetch function sent on to the render queue (no rules that work on served HTML, render sample, archived copy, or a page the fetch cannot take)' },
  pagesRendered: { name: 'PagesRendered', step: 'render', unit: 'Count', description: 'pages rendered and stored (feature document and snapshot)' },
  renderMs: { name: 'RenderMs', step: 'render', unit: 'Milliseconds', description: 'time to render one page and collect its blocks' },
  blocksPerPage: { name: 'BlocksPerPage', step: 'render', unit: 'Count', description: 'text blocks the collector found on a page' },
  sitesLearned: { name: 'SitesLearned', step: 'learn', unit: 'Count', description: 'learns that wrote a new rules version' },
  learnMs: { name: 'LearnMs', step: 'learn', unit: 'Milliseconds', description: 'time of a learn that wrote rules' },
  articlesExtracted: {
    name: 'ArticlesExtracted',
    step: 'apply',
    unit: 'Count',
    // The article document's own list of methods: a new extraction path gets its line on the dashboard.
    dimension: { name: 'method', values: ArticleDocumentSchema.shape.method.options },
    description: "articles written, by method: the site's learned rules or the single-page fallback",
  },
  applyMs: { name: 'ApplyMs', step: 'apply', unit: 'Milliseconds', description: 'time to extract one article (parse included)' },
  wordsPerArticle: { name: 'WordsPerArticle', step: 'apply', unit: 'Count', description: "words in an article's body" },
  deadLetters: {
    name: 'DeadLetters',
    step: 'any',
    unit: 'Count',
    dimension: { name: 'kind', values: FAILURE_KINDS },
    description: 'messages a handler put on its dead-letter queue at once (they can never succeed), by kind of reason',
  },
} as const satisfies Record<string, MetricName>;
