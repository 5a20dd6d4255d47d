/**
 * The fetch path on AWS, offline: the real handlers of functions/ (fetch, render, learn, apply) with
 * the S3 and SQS adapters and the AWS SDK, driven as Lambda's event source mappings drive them, against
 * fauxqs (S3 + SQS), with real Chromium for the pages that need it and real HTTP on a generated site
 * served on 127.0.0.1. URLs are submitted as `spider submit` does (DeployedStack, to the intake: the
 * fetch queue). Queues as the stack makes them: a DLQ each with a redrive policy, learn FIFO, and the
 * render function configured as deployed (it does not route: SPIDER_FETCH_PATH=false).
 *
 *   1. 5 pages of an unknown site: the fetch function sends each to render; learn learns rules that
 *      work on the HTML as served.
 *   2. 20 unseen pages: every page outside the render sample goes through the fetch handler only
 *      (fetched once, no render, no snapshot) and ends as an article with path 'fetch'; a page that
 *      answers 404 is a dead letter of the fetch queue with its reason; a poison message too; a page
 *      that is not HTML goes on to render, whose dead letter says why.
 *   3. The site changes a page's layout: the fetched page's rules select nothing, apply writes the
 *      fallback's article and a drift marker and sends the page back to render, which renders it.
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeployedStack } from '../lib/aws/deployed-stack';
import { S3Store } from '../lib/aws/s3-store';
import { articlesOf } from '../lib/demo/truth';
import { generateSite, type GeneratedSite, type SiteFile } from '../lib/demo/site-generator';
import { serveSite, type ServedSite } from '../lib/demo/site-server';
import { inRenderSample } from '../lib/step/route';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import { ArticleDocumentSchema, type ArticleDocument } from '../lib/types/article-document';
import { RulesDocumentSchema } from '../lib/types/rules-document';
import { startEmulator, type Emulator, type StepQueues } from './emulator';
import { LambdaPoller, importHandler, queueDepth, runUntilIdle, type SqsHandler } from './lambda-poller';

const BUCKET = 'spider-fetch-path';
const MAX_RECEIVE_COUNT = 3;
const VISIBILITY_SECONDS = 2;
const SAMPLE_RATE = 0.05;

type StepName = 'fetch' | 'render' | 'learn' | 'apply';

let emu: Emulator;
let site: GeneratedSite;
let served: ServedSite;
let store: S3Store;
let queues: Record<StepName, StepQueues>;
let pollers: Record<StepName, LambdaPoller>;
let closeBrowser: (() => Promise<void>) | undefined;
const savedEnv = { ...process.env };
const emf: Record<string, unknown>[] = [];
const stdoutWrite = process.stdout.write.bind(process.stdout);

/** Sum of an EMF metric over the handlers' lines matching `where`. */
function total(name: string, where: Record<string, string> = {}): number {
  return emf
    .filter((d) => Object.entries(where).every(([k, v]) => d[k] === v))
    .flatMap((d) => (d[name] === undefined ? [] : ([] as number[]).concat(d[name] as number | number[])))
    .reduce((a, b) => a + b, 0);
}

async function articleOf(url: string): Promise<ArticleDocument | undefined> {
  const obj = await store.get(keys.article(siteOf(url), pageIdOf(url)));
  return obj ? ArticleDocumentSchema.parse(JSON.parse(obj.body.toString())) : undefined;
}

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  store = new S3Store({ bucket: BUCKET, client: emu.s3 });
  const stepQueues = (name: string, fifo = false) =>
    emu.createStepQueues(name, { fifo, visibilitySeconds: VISIBILITY_SECONDS, maxReceiveCount: MAX_RECEIVE_COUNT });
  queues = {
    fetch: await stepQueues('spider-fetch'),
    render: await stepQueues('spider-render'),
    learn: await stepQueues('spider-learn', true),
    apply: await stepQueues('spider-apply'),
  };
  site = generateSite({ seed: 'aws-fetch-path', pagesPerTemplate: 30, templates: 1 });
  served = await serveSite(site);

  Object.assign(process.env, {
    ...emu.env(),
    SPIDER_BUCKET: BUCKET,
    POWERTOOLS_LOG_LEVEL: process.env.SPIDER_TEST_LOGS ? 'DEBUG' : 'SILENT',
    SPIDER_NAVIGATION_TIMEOUT_MS: '15000',
    SPIDER_RENDER_TIMEOUT_MS: '30000',
    SPIDER_RENDER_SAMPLE_RATE: String(SAMPLE_RATE),
    // The rules of the first 5 pages stay (the render sample's pages do not trigger a relearn here).
    SPIDER_RELEARN_AFTER: '1000',
  });
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    for (const line of String(chunk).split('\n')) if (line.includes('"_aws"') && line.includes('"Spider"')) emf.push(JSON.parse(line));
    return (stdoutWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;

  // Each function's environment as the stack gives it (cdk/spider-stack.ts, cdk/queue-consumer.ts).
  const receives = { SPIDER_MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT) };
  const fetch = await importHandler(() => import('../functions/fetch'), {
    ...receives,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.fetch.dlqUrl,
    SPIDER_QUEUE_URL: queues.fetch.url,
    SPIDER_RENDER_QUEUE_URL: queues.render.url,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
  });
  const render = await importHandler(() => import('../functions/render'), {
    ...receives,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.render.dlqUrl,
    SPIDER_QUEUE_URL: queues.render.url,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
    SPIDER_FETCH_PATH: 'false',
  });
  closeBrowser = render.closeBrowser;
  const learn = await importHandler(() => import('../functions/learn'), {
    ...receives,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.learn.dlqUrl,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
  });
  const apply = await importHandler(() => import('../functions/apply'), {
    ...receives,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.apply.dlqUrl,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
    SPIDER_RENDER_QUEUE_URL: queues.render.url,
  });
  const poller = (name: StepName, handler: SqsHandler, batchSize: number, timeoutMs: number) =>
    new LambdaPoller({ name: `spider-${name}`, sqs: emu.sqs, queueUrl: queues[name].url, queueArn: queues[name].arn, handler, batchSize, timeoutMs });
  // Batch sizes and timeouts as deployed.
  pollers = {
    fetch: poller('fetch', fetch.handler, 10, 120_000),
    render: poller('render', render.handler, 1, 120_000),
    learn: poller('learn', learn.handler, 1, 120_000),
    apply: poller('apply', apply.handler, 10, 60_000),
  };
}, 60_000);

afterAll(async () => {
  process.stdout.write = stdoutWrite;
  await closeBrowser?.();
  await served?.close();
  await emu?.stop();
  process.env = savedEnv;
});

describe('the fetch path on the emulator: fetch λ → apply λ, no render', () => {
  it("routes a learned site's pages through the fetch function only, dead-letters with a reason, and sends a drifted page back to render", async () => {
    const stack = new DeployedStack(
      { bucket: BUCKET, fetchQueueUrl: queues.fetch.url, renderQueueUrl: queues.render.url, learnQueueUrl: queues.learn.url },
      { s3: emu.s3, sqs: emu.sqs },
    );
    expect(stack.intakeQueueUrl).toBe(queues.fetch.url);
    const pages = articlesOf(site).map((p) => served.url(p.path));
    const siteName = siteOf(served.origin);
    const train = pages.slice(0, 5);
    const unseen = pages.slice(5, 25);
    // The served port is random, and so are page ids: the drifting page is one outside the render sample.
    const drifting = pages.slice(25).find((url) => !inRenderSample(pageIdOf(url), SAMPLE_RATE))!;
    const run = () => runUntilIdle(Object.values(pollers), { timeoutMs: 150_000 });
    // Records a function finished (processed or dead-lettered): a retried render under load counts once.
    const invocations = (name: StepName) => pollers[name].invocations.reduce((n, i) => n + i.records - i.failed, 0);

    // 1. An unknown site: every page goes on to render; its rules are learned and work on served HTML.
    expect(await stack.submit(train.map((url) => ({ url })))).toEqual({ sent: 5, rejected: [] });
    await run();
    expect(total('PagesToRender', { service: 'spider-fetch' })).toBe(5);
    expect(total('PagesFetched', { service: 'spider-fetch' })).toBe(0);
    expect(total('PagesRendered', { service: 'spider-render' })).toBe(5);
    const rules = RulesDocumentSchema.parse(JSON.parse((await store.get(keys.rules(siteName)))!.body.toString()));
    expect(rules.fetchPath?.works).toBe(true);
    for (const url of train) expect((await articleOf(url))?.path).toBe('render');

    // 2. A learned site: pages outside the render sample are fetched by the fetch function, no browser.
    // A missing page (outside the sample, so it is fetched) and a poison message are dead letters.
    let n = 0;
    let missing: string;
    do missing = served.url(`/2026/01/01/no-such-story-${n++}.html`);
    while (inRenderSample(pageIdOf(missing), SAMPLE_RATE));
    // A page that is not HTML: the fetch path does not take it, render gets it and dead-letters it.
    let notHtml: string;
    do notHtml = served.url(`/2026/01/01/report-${n++}.pdf`);
    while (inRenderSample(pageIdOf(notHtml), SAMPLE_RATE));
    (site.files as Map<string, SiteFile>).set(new URL(notHtml).pathname, { status: 200, contentType: 'application/pdf', body: '%PDF-1.4 not a page' });
    const rendersBefore = invocations('render');
    expect(await stack.submit([...unseen, missing, notHtml].map((url) => ({ url })))).toEqual({ sent: 22, rejected: [] });
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queues.fetch.url, MessageBody: JSON.stringify({ v: 1, url: 'ftp://example.com/x' }) }));
    await run();

    const sampled = unseen.filter((url) => inRenderSample(pageIdOf(url), SAMPLE_RATE));
    const fetchable = unseen.filter((url) => !sampled.includes(url));
    // which pages fall in the 5% sample depends on the random port: no share is asserted, each page is checked below
    expect(fetchable.length).toBeGreaterThan(0);
    for (const url of fetchable) {
      const article = await articleOf(url);
      expect(article?.path, url).toBe('fetch');
      expect(article?.method, url).toBe('rules');
      expect(article?.url).toBe(url);
      expect(article!.wordCount).toBeGreaterThan(50);
      expect(await store.get(keys.served(siteName, pageIdOf(url))), url).toBeDefined();
      expect(await store.get(keys.snapshot(siteName, pageIdOf(url))), url).toBeUndefined();
      // one request: the fetch, never a render
      expect(served.requestsByPath.get(new URL(url).pathname), url).toBe(1);
    }
    for (const url of sampled) expect((await articleOf(url))?.path, url).toBe('render');
    // Render ran only for the render sample and the page the fetch could not take: a learned site's
    // page never reached the Chromium function otherwise.
    expect(invocations('render') - rendersBefore).toBe(sampled.length + 1);
    expect(total('PagesFetched', { service: 'spider-fetch' })).toBe(fetchable.length);
    expect(total('PagesToRender', { service: 'spider-fetch' })).toBe(5 + sampled.length + 1);
    const renderDead = await emu.drain(queues.render.dlqUrl);
    expect(renderDead.map((m) => JSON.parse(m.Body!).url)).toEqual([notHtml]);
    expect(renderDead[0].MessageAttributes?.['spider.error']?.StringValue).toMatch(/not HTML|application\/pdf/i);
    expect(served.requestsByPath.get(new URL(notHtml).pathname)).toBe(2); // the fetch, then render's

    const fetchDead = await emu.drain(queues.fetch.dlqUrl);
    const reason = (m: Message | undefined) => m?.MessageAttributes?.['spider.error']?.StringValue;
    const deadFor = (url: string) => fetchDead.find((m) => m.Body?.includes(JSON.stringify(url)));
    expect(fetchDead).toHaveLength(2);
    expect(reason(deadFor(missing))).toMatch(/HTTP 404/);
    expect(deadFor(missing)?.MessageAttributes?.['spider.sourceQueue']?.StringValue).toBe(queues.fetch.arn);
    expect(reason(deadFor('ftp://example.com/x'))).toMatch(/invalid message: url: only http and https/);
    expect(total('DeadLetters', { service: 'spider-fetch', kind: 'http-status' })).toBe(1);
    expect(total('DeadLetters', { service: 'spider-fetch', kind: 'invalid-message' })).toBe(1);

    // 3. Drift: the site serves a page in a layout its rules do not know. The fetch path takes it, the
    // rules select nothing, apply keeps the fallback's article, marks the drift and sends the page back
    // to render, whose article replaces it.
    expect(drifting).toBeDefined();
    const path = new URL(drifting).pathname;
    const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of a story in the site's new layout, long enough to read as an article body: the council met on Tuesday and voted on the budget, the transit plan and the water rates.</p>`).join('');
    const redesigned: SiteFile = { status: 200, contentType: 'text/html; charset=utf-8', body: `<!DOCTYPE html><html><head><title>Redesigned story</title></head><body><section class="story-v2"><h2>Redesigned story</h2>${paragraphs}</section></body></html>` };
    (site.files as Map<string, SiteFile>).set(path, redesigned);
    const rendersBeforeDrift = invocations('render');
    expect(await stack.submit([{ url: drifting }])).toEqual({ sent: 1, rejected: [] });
    await run();
    expect(total('PagesFetched', { service: 'spider-fetch' })).toBe(fetchable.length + 1);
    expect(invocations('render') - rendersBeforeDrift).toBe(1);
    expect(served.requestsByPath.get(path)).toBe(2); // the fetch, then the render
    expect((await store.list(keys.driftPrefix(siteName))).length).toBeGreaterThanOrEqual(1);
    const driftArticle = await articleOf(drifting);
    expect(driftArticle?.path).toBe('render');
    expect(driftArticle?.text).toMatch(/new layout/);
    expect(await store.get(keys.snapshot(siteName, pageIdOf(drifting)))).toBeDefined();

    // Nothing lost: every queue empty, no whole batch failed, no other dead letter.
    for (const q of Object.values(queues)) expect(await queueDepth(emu.sqs, q.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    for (const p of Object.values(pollers)) expect(p.invocations.filter((i) => i.batchError)).toEqual([]);
    for (const step of ['render', 'learn', 'apply'] as const) expect(await emu.drain(queues[step].dlqUrl), step).toEqual([]);
    for (const url of [...train, ...unseen, drifting]) expect(await articleOf(url), url).toBeDefined();
  }, 240_000);
});
