/**
 * The AWS side end to end, offline: the real handlers of functions/ (with the S3 and SQS adapters, the
 * AWS SDK and real Chromium) driven the way Lambda's event source mappings drive them, against fauxqs
 * (S3 + SQS) started here. Queues are created as the stack creates them: a DLQ each with a redrive
 * policy, learn FIFO. URLs of a site served on 127.0.0.1 go in; articles and rules come out in the
 * emulated bucket; never-succeeding messages end in the dead-letter queues with their reason,
 * failing ones after maxReceiveCount receives, with theirs too; nothing is lost.
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite, type GeneratedSite } from '../lib/demo/site-generator';
import { serveSite, type ServedSite } from '../lib/demo/site-server';
import { SqsQueueSender } from '../lib/aws/sqs-queue';
import { S3Store } from '../lib/aws/s3-store';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import { ArticleDocumentSchema } from '../lib/types/article-document';
import type { ApplyMessage, RenderMessage } from '../lib/types/messages';
import { RulesDocumentSchema } from '../lib/types/rules-document';
import { serveRoutes, type TestServer } from '../test/helpers/http-server';
import { startEmulator, type Emulator, type StepQueues } from './emulator';
import { LambdaPoller, importHandler, queueDepth, runUntilIdle, type SqsHandler } from './lambda-poller';

const BUCKET = 'spider-e2e';
const MAX_RECEIVE_COUNT = 3;
/** Short visibility timeouts so retries come back within the test (the stack uses 6x the timeout). */
const VISIBILITY_SECONDS = 2;

let emu: Emulator;
let site: GeneratedSite;
let served: ServedSite;
let flaky: TestServer;
let queues: Record<'render' | 'learn' | 'apply', StepQueues>;
let pollers: Record<'render' | 'learn' | 'apply', LambdaPoller>;
let closeBrowser: (() => Promise<void>) | undefined;
const savedEnv = { ...process.env };
/** The handlers' EMF metric lines (Powertools Metrics writes them to stdout), passed through. */
const emf: Record<string, unknown>[] = [];
const stdoutWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const stepQueues = (name: string, fifo = false) =>
    emu.createStepQueues(name, { fifo, visibilitySeconds: VISIBILITY_SECONDS, maxReceiveCount: MAX_RECEIVE_COUNT });
  queues = {
    render: await stepQueues('spider-render'),
    learn: await stepQueues('spider-learn', true),
    apply: await stepQueues('spider-apply'),
  };

  site = generateSite({ seed: 'aws-emulator', pagesPerTemplate: 7, templates: 1 });
  served = await serveSite(site);
  flaky = await serveRoutes({ '/always-503.html': { status: 503, body: 'busy' } });

  // What every function gets from the stack, plus the emulator's endpoint and quiet logs. These stay
  // set (the SDK resolves region and credentials at the first request); per-function ones are read
  // when the handler module loads.
  Object.assign(process.env, {
    ...emu.env(),
    SPIDER_BUCKET: BUCKET,
    POWERTOOLS_LOG_LEVEL: process.env.SPIDER_TEST_LOGS ? 'DEBUG' : 'SILENT',
    SPIDER_NAVIGATION_TIMEOUT_MS: '15000',
    SPIDER_RENDER_TIMEOUT_MS: '30000',
  });
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    for (const line of String(chunk).split('\n')) if (line.includes('"_aws"') && line.includes('"Spider"')) emf.push(JSON.parse(line));
    return (stdoutWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  // As the stack gives every function: the receives it tries a message on (the stack's redrive policy
  // counts one more; these queues redrive at this count, stricter: redelivery.test.ts has the stack's).
  const common = { SPIDER_MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT) };
  const render = await importHandler(() => import('../functions/render'), {
    ...common,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.render.dlqUrl,
    SPIDER_QUEUE_URL: queues.render.url,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
  });
  closeBrowser = render.closeBrowser;
  const learn = await importHandler(() => import('../functions/learn'), {
    ...common,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.learn.dlqUrl,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
  });
  const apply = await importHandler(() => import('../functions/apply'), {
    ...common,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.apply.dlqUrl,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
  });

  const poller = (name: keyof typeof queues, handler: SqsHandler, batchSize: number, timeoutMs: number) =>
    new LambdaPoller({ name: `spider-${name}`, sqs: emu.sqs, queueUrl: queues[name].url, queueArn: queues[name].arn, handler, batchSize, timeoutMs });
  // Batch sizes as in cdk.json; function timeouts as deployed.
  pollers = {
    render: poller('render', render.handler, 1, 120_000),
    learn: poller('learn', learn.handler, 1, 120_000),
    apply: poller('apply', apply.handler, 10, 60_000),
  };
}, 60_000);

afterAll(async () => {
  process.stdout.write = stdoutWrite;
  await closeBrowser?.();
  await served?.close();
  await flaky?.close();
  await emu?.stop();
  process.env = savedEnv;
});

describe('render → learn → apply on the emulator', () => {
  const articles = () => site.pages.filter((p) => p.kind === 'article');

  it('turns submitted URLs into articles and rules, dead-letters what can never succeed, loses nothing', async () => {
    const origin = served.origin;
    const siteName = siteOf(origin);
    const submitted = articles().map((p) => origin + p.path);
    const missing = `${origin}/no-such-page.html`;
    const unavailable = `${flaky.origin}/always-503.html`;

    // Submission as the CLI does it: SendMessageBatch, every rejected URL reported.
    const render = new SqsQueueSender<RenderMessage>({ queueUrl: queues.render.url, client: emu.sqs });
    const batch = await render.sendBatch([...submitted, missing, unavailable].map((url) => ({ body: { v: 1, url, submittedAt: new Date().toISOString() } })));
    expect(batch).toEqual({ sent: submitted.length + 2, failed: [] });
    // Poison: not JSON, and JSON that fails the message schema.
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queues.render.url, MessageBody: 'render this please' }));
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queues.render.url, MessageBody: JSON.stringify({ v: 1, url: 'ftp://example.com/x' }) }));
    // An apply request for a page that was never rendered.
    const ghost: ApplyMessage = { v: 1, site: siteName, pageId: 'never-rendered-page', reason: 'requested' };
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queues.apply.url, MessageBody: JSON.stringify(ghost) }));

    await runUntilIdle(Object.values(pollers), { timeoutMs: 150_000 });

    // Articles: one per submitted article page, valid documents, most extracted with the learned rules.
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const stored = await store.list(keys.articlePrefix(siteName));
    expect(stored.map((o) => o.key).sort()).toEqual(submitted.map((u) => keys.article(siteName, pageIdOf(u))).sort());
    const docs = await Promise.all(stored.map(async (o) => ArticleDocumentSchema.parse(JSON.parse((await store.get(o.key))!.body.toString()))));
    for (const doc of docs) expect(doc.wordCount).toBeGreaterThan(0);

    // Rules: learned once enough pages were rendered (FIFO, one learn of the site at a time).
    const rules = RulesDocumentSchema.parse(JSON.parse((await store.get(keys.rules(siteName)))!.body.toString()));
    expect(rules.site).toBe(siteName);
    expect(rules.rulesVersion).toBeGreaterThanOrEqual(1);
    expect(rules.content.selectors.length).toBeGreaterThan(0);
    const learnedFrom = new Set(rules.learnedFrom);
    const reapplied = docs.filter((d) => learnedFrom.has(d.pageId));
    expect(reapplied.length).toBe(learnedFrom.size);
    expect(reapplied.filter((d) => d.method === 'rules' && (d.rulesVersion ?? 0) >= (rules.sameExtractionSince ?? rules.rulesVersion)).length).toBeGreaterThanOrEqual(Math.ceil(0.8 * reapplied.length));

    // The HTML as served for every page; feature documents and snapshots for every page whose article
    // was extracted from its render, none for the failures. A page of a learned site may take the
    // fetch path (no browser); one may also have been rendered before (its render message received
    // again once the site was learned, on a loaded machine), so a fetched article's page may have both.
    const pages = await store.list(keys.pagePrefix(siteName));
    const pageKeys = new Set(pages.map((o) => o.key));
    const fetched = docs.filter((d) => d.path === 'fetch').length;
    expect(pages.filter((o) => o.key.endsWith('/served.html'))).toHaveLength(submitted.length);
    for (const d of docs.filter((d) => d.path === 'render')) {
      expect(pageKeys.has(keys.features(siteName, d.pageId)), d.pageId).toBe(true);
      expect(pageKeys.has(keys.snapshot(siteName, d.pageId)), d.pageId).toBe(true);
    }
    for (const kind of ['/features.json', '/snapshot.html']) {
      const count = pages.filter((o) => o.key.endsWith(kind)).length;
      expect(count).toBeGreaterThanOrEqual(submitted.length - fetched);
      expect(count).toBeLessThanOrEqual(submitted.length);
    }

    // Dead letters: with the reason at once when they can never succeed; after 3 receives otherwise,
    // put there by the handler on the last receive, with the reason too.
    const renderDead = await emu.drain(queues.render.dlqUrl);
    const byBody = new Map(renderDead.map((m) => [m.Body!, m]));
    expect(renderDead).toHaveLength(4);
    const reason = (m: Message | undefined) => m?.MessageAttributes?.['spider.error']?.StringValue;
    const urlOf = (m: Message) => {
      try {
        return JSON.parse(m.Body!).url as string;
      } catch {
        return undefined;
      }
    };
    const deadFor = (url: string) => renderDead.find((m) => urlOf(m) === url);
    expect(reason(deadFor(missing))).toMatch(/HTTP 404/);
    expect(deadFor(missing)?.MessageAttributes?.['spider.sourceQueue']?.StringValue).toBe(queues.render.arn);
    expect(reason(byBody.get('render this please'))).toMatch(/invalid message: body is not JSON/);
    expect(reason(deadFor('ftp://example.com/x'))).toMatch(/invalid message: url: only http and https/);
    const retried = deadFor(unavailable)!;
    expect(retried).toBeDefined();
    expect(reason(retried)).toMatch(new RegExp(`^failed ${MAX_RECEIVE_COUNT} times; last error: .*HTTP 503`));
    expect(retried.MessageAttributes?.['spider.receiveCount']?.StringValue).toBe(String(MAX_RECEIVE_COUNT));
    expect(flaky.hits.get('/always-503.html')).toBe(MAX_RECEIVE_COUNT);

    const applyDead = await emu.drain(queues.apply.dlqUrl);
    expect(applyDead.map((m) => JSON.parse(m.Body!))).toEqual([ghost]);
    expect(reason(applyDead[0])).toMatch(/no snapshot for page never-rendered-page/);
    expect(await emu.drain(queues.learn.dlqUrl)).toEqual([]);

    // Nothing lost: every queue empty, every submitted URL is an article or a dead letter.
    for (const q of Object.values(queues)) expect(await queueDepth(emu.sqs, q.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    const accounted = new Set([...docs.map((d) => d.url), ...renderDead.map(urlOf).filter(Boolean)]);
    for (const url of [...submitted, missing, unavailable]) expect(accounted.has(url), url).toBe(true);

    // The event source mapping's view: partial failures were reported per record, never a whole batch.
    for (const p of Object.values(pollers)) expect(p.invocations.filter((i) => i.batchError)).toEqual([]);
    expect(pollers.render.invocations.filter((i) => i.failed > 0)).toHaveLength(MAX_RECEIVE_COUNT - 1);
    expect(pollers.learn.invocations.length).toBeGreaterThanOrEqual(1);

    // Metrics (EMF): every rendered page, every article by method, the learn, and the dead letters the
    // handlers put on their DLQs, by kind (the 503 on its last receive: retries-exhausted).
    const total = (name: string, where: Record<string, string> = {}) =>
      emf
        .filter((d) => Object.entries(where).every(([k, v]) => d[k] === v))
        .flatMap((d) => (d[name] === undefined ? [] : ([] as number[]).concat(d[name] as number | number[])))
        .reduce((a, b) => a + b, 0);
    expect(total('PagesRendered', { service: 'spider-render' })).toBe(submitted.length);
    expect(total('SitesLearned', { service: 'spider-learn' })).toBeGreaterThanOrEqual(1);
    expect(total('ArticlesExtracted', { service: 'spider-apply', method: 'rules' }) + total('ArticlesExtracted', { service: 'spider-apply', method: 'fallback' })).toBe(
      pollers.apply.invocations.reduce((n, i) => n + i.records - i.failed, 0) - 1,
    );
    expect(total('DeadLetters', { service: 'spider-render', kind: 'http-status' })).toBe(1);
    expect(total('DeadLetters', { service: 'spider-render', kind: 'invalid-message' })).toBe(2);
    expect(total('DeadLetters', { service: 'spider-render', kind: 'retries-exhausted' })).toBe(1);
    expect(total('DeadLetters', { service: 'spider-apply', kind: 'missing-input' })).toBe(1);
  }, 180_000);
});
