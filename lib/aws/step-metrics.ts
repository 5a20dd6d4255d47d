/**
 * What each handler counts and times, as CloudWatch metrics in the embedded metric format
 * (Powertools Metrics: a JSON line on stdout that CloudWatch Logs turns into metrics, no API call).
 * Names, units and dimensions: ./metric-names.ts.
 *
 *   const metrics = stepMetrics('render');
 *   ... recordRender(metrics, outcome) ...
 *   metrics.publishStoredMetrics();   // once per invocation, after the batch
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { ArticleDocument } from '../types/article-document';
import { failureKind } from '../util/errors';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAMES, type MetricName, type MetricStep } from './metric-names';

export function stepMetrics(step: MetricStep): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES[step] });
}

function add(metrics: Metrics, metric: MetricName, value: number): void {
  metrics.addMetric(metric.name, metric.unit === 'Count' ? MetricUnit.Count : MetricUnit.Milliseconds, value);
}

/** A metric with its own dimension value, emitted at once (Powertools' singleMetric keeps it apart from the batch's). */
function addWithDimension(metrics: Metrics, metric: MetricName & { dimension: object }, value: string, amount = 1): void {
  const single = metrics.singleMetric();
  single.addDimension(metric.dimension!.name, value);
  add(single, metric, amount);
}

/** A page the fetch function fetched (the fetch path) or sent on to the render queue. */
export function recordFetch(metrics: Metrics, outcome: { readonly path: 'fetch' | 'render'; readonly elapsedMs: number }): void {
  if (outcome.path === 'render') return add(metrics, METRIC.pagesToRender, 1);
  add(metrics, METRIC.pagesFetched, 1);
  add(metrics, METRIC.fetchMs, outcome.elapsedMs);
}

export function recordRender(metrics: Metrics, outcome: { readonly blocks: number; readonly elapsedMs: number }): void {
  add(metrics, METRIC.pagesRendered, 1);
  add(metrics, METRIC.renderMs, outcome.elapsedMs);
  add(metrics, METRIC.blocksPerPage, outcome.blocks);
}

/** Counts a learn that wrote rules; a learn that had too few pages or nothing new counts nothing. */
export function recordLearn(metrics: Metrics, outcome: { readonly learned: boolean }, elapsedMs: number): void {
  if (!outcome.learned) return;
  add(metrics, METRIC.sitesLearned, 1);
  add(metrics, METRIC.learnMs, elapsedMs);
}

export function recordApply(metrics: Metrics, article: Pick<ArticleDocument, 'method' | 'wordCount' | 'elapsedMs'>): void {
  addWithDimension(metrics, METRIC.articlesExtracted, article.method);
  add(metrics, METRIC.applyMs, article.elapsedMs);
  add(metrics, METRIC.wordsPerArticle, article.wordCount);
}

/** A message put on the dead-letter queue at once, counted by the kind of its reason (failureKind). */
export function recordDeadLetter(metrics: Metrics, error: unknown): void {
  addWithDimension(metrics, METRIC.deadLetters, failureKind(error));
}

/** Writes the invocation's metrics (one EMF line); nothing, and no warning, when the batch counted nothing. */
export function publishMetrics(metrics: Metrics): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
