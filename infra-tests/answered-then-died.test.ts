/**
 * A message answered on its last receive whose invocation then died: the real apply handler, driven as
 * Lambda drives it, against fauxqs, with the environment the stack gives it and the stack's redrive
 * count (maxReceiveCount + 1). The invocation of the last receive runs the handler to its end (the
 * article is written) and then dies, before SQS is told: the message comes back beyond its count. It is
 * not a dead letter "never answered": its outcome, the page's article extracted since it was sent, is in
 * the store (applyOutcome, lib/step/outcomes.ts), so it is deleted. A message whose article is
 * older than it (a relearn's apply of a page extracted before) and whose invocations die before
 * answering is still the dead letter that says so. The render and fetch functions ask the same of a
 * URL's article (pageOutcome), read through its redirect record, its page stored since too (an article a
 * relearn extracted again from the page stored before is not a render of the message): shown on the store alone, their
 * handlers' never-answered dead letter being infra-tests/redelivery.test.ts's.
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3Store } from '../lib/aws/s3-store';
import { SqsQueueSender } from '../lib/aws/sqs-queue';
import { redriveReceiveCount } from '../cdk/queue-consumer';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import { pageRefOf, recordRedirect } from '../lib/store/redirects';
import { pageOutcome } from '../lib/step/outcomes';
import { applyStep } from '../lib/apply/apply-step';
import { loadConfig } from '../lib/config/config';
import type { QueueSender } from '../lib/queue/queue';
import { silentLogger, type StepContext } from '../lib/step/context';
import type { ApplyMessage } from '../lib/types/messages';
import { startEmulator, type Emulator } from './emulator';
import { LambdaPoller, importHandler, queueDepth, runUntilIdle, type SqsHandler } from './lambda-poller';

const MAX_RECEIVE_COUNT = 2;
const BUCKET = 'spider-answered-then-died';

let emu: Emulator;
const savedEnv = { ...process.env };

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  Object.assign(process.env, { ...emu.env(), POWERTOOLS_LOG_LEVEL: process.env.SPIDER_TEST_LOGS ? 'DEBUG' : 'SILENT' });
}, 60_000);

afterAll(async () => {
  await emu?.stop();
  process.env = savedEnv;
});

const snapshot = (n: number, url: string) => `<!doctype html><html><head><title>Story ${n}</title><link rel="canonical" href="${url}"></head><body><article><h1>Story ${n}</h1>
${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of story ${n}: the council met on Tuesday and agreed the budget for the new library after a long debate.</p>`).join('\n')}
</article></body></html>`;

/** What an invocation given a record does beyond the handler: die before it runs, or after it answered. */
type Death = 'before' | 'after' | undefined;

describe('a message answered on its last receive whose invocation then died', () => {
  it('comes back beyond its count and is deleted, its article extracted since it was sent; one whose article is older is still a dead letter', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const apply = await emu.createStepQueues('answered-apply', { visibilitySeconds: 1, maxReceiveCount: redriveReceiveCount(MAX_RECEIVE_COUNT) });
    const learn = await emu.createStepQueues('answered-learn', { fifo: true, visibilitySeconds: 30, maxReceiveCount: 5 });
    const render = await emu.createQueue('answered-render');
    vi.resetModules();
    const fn = await importHandler(() => import('../functions/apply'), {
      SPIDER_BUCKET: BUCKET,
      SPIDER_DEAD_LETTER_QUEUE_URL: apply.dlqUrl,
      SPIDER_MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT),
      SPIDER_LEARN_QUEUE_URL: learn.url,
      SPIDER_RENDER_QUEUE_URL: render.url,
    });

    // Two rendered pages: the first's article is yet to be written; the second's was written before its message was sent.
    const answered = 'https://news.example/2026/11/28/answered.html';
    const older = 'https://news.example/2026/11/28/older.html';
    for (const [n, url] of [answered, older].entries()) {
      await store.put(keys.snapshot(siteOf(url), pageIdOf(url)), snapshot(n, url));
    }
    // extracted just before its message is sent (in the same second, as S3's LastModified would say)
    await store.put(keys.article(siteOf(older), pageIdOf(older)), JSON.stringify({ pageId: pageIdOf(older), extractedAt: new Date().toISOString() }));
    const olderArticle = await store.get(keys.article(siteOf(older), pageIdOf(older)));
    await new Promise((resolve) => setTimeout(resolve, 5));

    // answered: the first receive dies before the handler, the second (its last) after the handler answered;
    // older: both die before the handler
    const deaths: Record<string, (receive: number) => Death> = {
      [pageIdOf(answered)]: (receive) => (receive === 1 ? 'before' : receive === MAX_RECEIVE_COUNT ? 'after' : undefined),
      [pageIdOf(older)]: (receive) => (receive <= MAX_RECEIVE_COUNT ? 'before' : undefined),
    };
    const deathOf = (r: SQSRecord): Death => deaths[(JSON.parse(r.body) as ApplyMessage).pageId]?.(Number(r.attributes.ApproximateReceiveCount));
    const seen: [string, number][] = [];
    const handler: SqsHandler = async (event: SQSEvent, context) => {
      for (const r of event.Records) seen.push([(JSON.parse(r.body) as ApplyMessage).pageId, Number(r.attributes.ApproximateReceiveCount)]);
      if (event.Records.some((r) => deathOf(r) === 'before')) throw new Error('Runtime.OutOfMemory: the invocation died');
      const response = await fn.handler(event, context);
      if (event.Records.some((r) => deathOf(r) === 'after')) throw new Error('Task timed out after 60.00 seconds');
      return response;
    };
    const poller = new LambdaPoller({ name: 'answered-apply', sqs: emu.sqs, queueUrl: apply.url, queueArn: apply.arn, handler, batchSize: 1, timeoutMs: 60_000 });
    const messages: ApplyMessage[] = [answered, older].map((url) => ({ v: 1, site: siteOf(url), pageId: pageIdOf(url), reason: 'rendered', url }));
    expect(await new SqsQueueSender<ApplyMessage>({ queueUrl: apply.url, client: emu.sqs }).sendBatch(messages.map((body) => ({ body })))).toEqual({ sent: 2, failed: [] });

    await runUntilIdle([poller], { timeoutMs: 60_000 });

    // each received once beyond its count (the third time)
    for (const url of [answered, older]) expect(seen.filter(([id]) => id === pageIdOf(url)).map(([, receive]) => receive)).toEqual([1, 2, 3]);
    // the answered page's article, written on its last receive, and no dead letter for it
    const article = await store.get(keys.article(siteOf(answered), pageIdOf(answered)));
    expect(JSON.parse(article!.body.toString()).pageId).toBe(pageIdOf(answered));
    const dead = await emu.drain(apply.dlqUrl);
    expect(dead.map((m) => (JSON.parse(m.Body!) as ApplyMessage).pageId)).toEqual([pageIdOf(older)]);
    expect(dead[0].MessageAttributes?.['spider.error']?.StringValue).toMatch(/^received 2 times and never answered on its last receive: /);
    // the older page's article was never replaced: no apply of it ran
    expect((await store.get(keys.article(siteOf(older), pageIdOf(older))))?.etag).toBe(olderArticle?.etag);
    expect(await queueDepth(emu.sqs, apply.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  }, 120_000);
});


describe('pageOutcome (the render and fetch functions: the URL\'s article, extracted since the message was sent)', () => {
  it('finds the article at the URL\'s place or its landing page\'s when extracted since, and nothing older', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const own = 'https://outcome.example/2026/11/28/own.html';
    const short = 'https://short.example/abc';
    const landing = 'https://landing.example/2026/11/28/story.html';
    const stale = 'https://outcome.example/2026/11/28/stale.html';
    const article = (url: string) => JSON.stringify({ pageId: pageIdOf(url), extractedAt: new Date().toISOString(), pageStoredAt: new Date().toISOString() });
    await store.put(keys.article(siteOf(stale), pageIdOf(stale)), article(stale));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await pageOutcome({ url: own }, store, since)).toBeUndefined();
    expect(await pageOutcome({ url: stale }, store, since)).toBeUndefined();

    await store.put(keys.article(siteOf(own), pageIdOf(own)), article(own));
    await recordRedirect(store, pageRefOf(short), pageRefOf(landing));
    expect(await pageOutcome({ url: short }, store, since)).toBeUndefined();
    await store.put(keys.article(siteOf(landing), pageIdOf(landing)), article(landing));

    expect(await pageOutcome({ url: own }, store, since)).toBe(keys.article(siteOf(own), pageIdOf(own)));
    expect(await pageOutcome({ url: short }, store, since)).toBe(keys.article(siteOf(landing), pageIdOf(landing)));
    expect(await pageOutcome({ url: stale }, store, since)).toBeUndefined();
  });

  it('is no article extracted since from a page stored before the message was sent (a relearn\'s re-extraction): the URL was not rendered or fetched again', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const url = 'https://relearned.example/2026/11/28/story.html';
    const [site, pageId] = [siteOf(url), pageIdOf(url)];
    const sender = <T>(): QueueSender<T> => ({ send: async () => undefined });
    const ctx: StepContext = { store, queues: { render: sender(), learn: sender(), apply: sender() }, config: loadConfig({}, {}), logger: silentLogger };
    // the page as rendered before
    await store.put(keys.snapshot(site, pageId), snapshot(7, url));
    const stored = (await store.get(keys.snapshot(site, pageId)))!.lastModified;
    // the URL submitted again in a later second (S3 keeps whole seconds)
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
    const since = new Date();
    expect(since.getTime()).toBeGreaterThan(stored.getTime() + 1_000);
    // its renders die; meanwhile a relearn extracts the page stored before again
    await applyStep({ v: 1, site, pageId, reason: 'relearned', url }, ctx);
    const article = JSON.parse((await store.get(keys.article(site, pageId)))!.body.toString()) as { extractedAt: string; pageStoredAt: string };
    expect(Date.parse(article.extractedAt)).toBeGreaterThanOrEqual(since.getTime());
    expect(Date.parse(article.pageStoredAt)).toBeLessThan(since.getTime());

    expect(await pageOutcome({ url }, store, since)).toBeUndefined();
    // rendered since, and extracted: done
    await store.put(keys.snapshot(site, pageId), snapshot(7, url));
    await applyStep({ v: 1, site, pageId, reason: 'rendered', url }, ctx);
    expect(await pageOutcome({ url }, store, since)).toBe(keys.article(site, pageId));
  });
});
