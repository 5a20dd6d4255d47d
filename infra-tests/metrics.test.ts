/**
 * The handlers' metrics as CloudWatch receives them: embedded-metric-format lines on stdout, in the
 * Spider namespace, with the names, units and dimensions of lib/aws/metric-names.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRIC, METRICS_NAMESPACE } from '../lib/aws/metric-names';
import { publishMetrics, recordApply, recordDeadLetter, recordLearn, recordRender, stepMetrics } from '../lib/aws/step-metrics';
import { NonRetryableError, failureKind } from '../lib/util/errors';

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** EMF documents written to stdout while fn runs. */
function captureEmf(fn: () => void): Emf[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l) as Emf);
}

afterEach(() => vi.restoreAllMocks());

describe('step metrics', () => {
  it('render: pages, render ms and blocks per page in one EMF line of the Spider namespace', () => {
    const docs = captureEmf(() => {
      const m = stepMetrics('render');
      recordRender(m, { blocks: 42, elapsedMs: 1234 });
      recordRender(m, { blocks: 10, elapsedMs: 800 });
      publishMetrics(m);
    });
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    const directive = doc._aws.CloudWatchMetrics[0];
    expect(directive.Namespace).toBe(METRICS_NAMESPACE);
    expect(directive.Dimensions).toEqual([['service']]);
    expect(doc.service).toBe('spider-render');
    expect(directive.Metrics).toEqual(
      expect.arrayContaining([
        { Name: METRIC.pagesRendered.name, Unit: 'Count' },
        { Name: METRIC.renderMs.name, Unit: 'Milliseconds' },
        { Name: METRIC.blocksPerPage.name, Unit: 'Count' },
      ]),
    );
    expect(doc[METRIC.pagesRendered.name]).toEqual([1, 1]);
    expect(doc[METRIC.renderMs.name]).toEqual([1234, 800]);
    expect(doc[METRIC.blocksPerPage.name]).toEqual([42, 10]);
  });

  it('learn counts only learns that wrote rules', () => {
    const docs = captureEmf(() => {
      const m = stepMetrics('learn');
      recordLearn(m, { learned: false }, 5);
      publishMetrics(m); // nothing to publish: no line, no warning
      recordLearn(m, { learned: true }, 3210);
      publishMetrics(m);
    });
    expect(docs).toHaveLength(1);
    expect(docs[0][METRIC.sitesLearned.name]).toBe(1);
    expect(docs[0][METRIC.learnMs.name]).toBe(3210);
  });

  it('apply: articles by method (their own dimension), apply ms, words', () => {
    const docs = captureEmf(() => {
      const m = stepMetrics('apply');
      recordApply(m, { method: 'rules', wordCount: 500, elapsedMs: 12 });
      recordApply(m, { method: 'fallback', wordCount: 300, elapsedMs: 40 });
      publishMetrics(m);
    });
    const byMethod = docs.filter((d) => d[METRIC.articlesExtracted.name] !== undefined);
    expect(byMethod.map((d) => [d.method, d.service, d._aws.CloudWatchMetrics[0].Dimensions])).toEqual([
      ['rules', 'spider-apply', [['service', 'method']]],
      ['fallback', 'spider-apply', [['service', 'method']]],
    ]);
    const batch = docs.find((d) => d[METRIC.applyMs.name] !== undefined)!;
    expect(batch[METRIC.applyMs.name]).toEqual([12, 40]);
    expect(batch[METRIC.wordsPerArticle.name]).toEqual([500, 300]);
  });

  it('dead letters by kind: the error\'s own kind, else the reason\'s wording', () => {
    const docs = captureEmf(() => {
      const m = stepMetrics('render');
      recordDeadLetter(m, new NonRetryableError('anything', { kind: 'invalid-message' }));
      recordDeadLetter(m, new NonRetryableError('HTTP 404 for https://a.example/x'));
      recordDeadLetter(m, new NonRetryableError('not an HTML page (application/pdf): https://a.example/x.pdf'));
    });
    expect(docs.map((d) => [d.kind, d[METRIC.deadLetters.name]])).toEqual([
      ['invalid-message', 1],
      ['http-status', 1],
      ['not-html', 1],
    ]);
  });
});

describe('failureKind', () => {
  it.each([
    ['invalid message: url: only http and https URLs are supported', 'invalid-message'],
    ['HTTP 410 for https://a.example/gone', 'http-status'],
    ['blocked by the egress guard: loopback address (http://127.0.0.1/)', 'blocked'],
    ['disallowed by robots.txt for spider (https://a.example/robots.txt line 2): https://a.example/x', 'blocked'],
    ['rendered page has 90000 elements, more than the 50000 cap: https://a.example/', 'too-large'],
    ['archived HTML is larger than the 10485760-byte cap', 'too-large'],
    ['no snapshot for page abc of a.example (pages/a.example/abc/snapshot.html)', 'missing-input'],
    ['failed 3 times; last error: HTTP 503 for https://a.example/', 'retries-exhausted'],
    ["deferred 300 times, its host's turn never came; last: HostBusyError: a.example is rate-limited: next request in 900000 ms", 'retries-exhausted'],
    ['received 3 times and never answered on its last receive: the process handling it ended (killed, out of memory, a crash) or the step outlived the 300 s visibility timeout', 'retries-exhausted'],
    ['something else', 'other'],
  ])('%s → %s', (reason, kind) => {
    expect(failureKind(reason)).toBe(kind);
    expect(failureKind(new NonRetryableError(reason))).toBe(kind);
  });
});
