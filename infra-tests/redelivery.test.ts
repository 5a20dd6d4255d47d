/**
 * Redelivery on the emulator path: the real render handler, driven as Lambda drives it, against fauxqs,
 * with the environment the stack gives it (SPIDER_MAX_RECEIVE_COUNT = the receives it tries a message on,
 * SPIDER_QUEUE_URL = its own queue).
 *
 * - A page that fails retryably on every receive ends in the dead-letter queue after maxReceiveCount
 *   receives with a reason (`spider.error`), put there by the handler on the last receive, not by the
 *   redrive policy (which carries none).
 * - A page whose host's turn has not come (HostBusyError) is sent again to its queue with a delay and
 *   spends no receive: on a queue that redrives after one receive it still ends rendered.
 * - A page whose invocations die (crash, out of memory, timeout) on every receive it is tried on comes
 *   back once more, as the stack's redrive policy counts one receive more, and the handler puts it in
 *   the dead-letter queue with a reason that says so, without rendering it.
 * - A page whose render is not started for lack of time in its invocation is sent again a second later
 *   and spends no receive; a function that never has the time ends it as a dead letter that says so.
 */
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3Store } from '../lib/aws/s3-store';
import { SqsQueueSender } from '../lib/aws/sqs-queue';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import { redriveReceiveCount } from '../cdk/queue-consumer';
import type { RenderMessage } from '../lib/types/messages';
import { serveRoutes, type TestServer } from '../test/helpers/http-server';
import { startEmulator, type Emulator, type StepQueues } from './emulator';
import { LambdaPoller, importHandler, queueDepth, runUntilIdle, type SqsHandler } from './lambda-poller';

/** Short visibility timeouts so that a failed record comes back within the test (the stack uses 6x the timeout). */
const VISIBILITY_SECONDS = 1;

let emu: Emulator;
let site: TestServer;
const closers: (() => Promise<void>)[] = [];
const savedEnv = { ...process.env };

const article = (n: number) => `<!doctype html><html><head><title>Story ${n}</title></head><body><article><h1>Story ${n}</h1>
${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of story ${n}: the council met on Tuesday and agreed the budget for the new library after a long debate.</p>`).join('\n')}
</article></body></html>`;

beforeAll(async () => {
  emu = await startEmulator();
  site = await serveRoutes({
    '/always-503.html': { status: 503, body: 'busy' },
    '/story-1.html': { body: article(1) },
    '/story-2.html': { body: article(2) },
    '/story-3.html': { body: article(3) },
    '/story-4.html': { body: article(4) },
  });
  Object.assign(process.env, {
    ...emu.env(),
    POWERTOOLS_LOG_LEVEL: process.env.SPIDER_TEST_LOGS ? 'DEBUG' : 'SILENT',
    SPIDER_NAVIGATION_TIMEOUT_MS: '15000',
    SPIDER_RENDER_TIMEOUT_MS: '30000',
  });
}, 60_000);

afterAll(async () => {
  for (const close of closers) await close();
  await site?.close();
  await emu?.stop();
  process.env = savedEnv;
});

interface Seen {
  readonly url: string;
  readonly receiveCount: number;
  readonly deferrals?: string;
  readonly notStarted?: string;
  readonly at: number;
}

interface RenderFunctionOptions {
  readonly env?: Record<string, string>;
  /** The render queue's redrive policy's count (default: maxReceiveCount, stricter than the stack's). */
  readonly redriveReceiveCount?: number;
  /** Invocations given this record die before the handler answers (as a crash, out of memory or a timeout). */
  readonly dies?: (record: SQSRecord) => boolean;
  /** The function's timeout (ms; default 120 s). */
  readonly timeoutMs?: number;
}

/**
 * A render function as the stack makes it, on queues of its own: a bucket, the render queue with its
 * DLQ and redrive after `maxReceiveCount` receives (or as `redriveReceiveCount` says), the apply and
 * learn queues it sends to (not consumed here). Returns its poller and every record it was given.
 */
async function renderFunction(name: string, maxReceiveCount: number, options: RenderFunctionOptions = {}) {
  const { env = {}, dies } = options;
  const bucket = `spider-${name}`;
  await emu.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const render: StepQueues = await emu.createStepQueues(`${name}-render`, { visibilitySeconds: VISIBILITY_SECONDS, maxReceiveCount: options.redriveReceiveCount ?? maxReceiveCount });
  const apply = await emu.createQueue(`${name}-apply`);
  const learn = await emu.createStepQueues(`${name}-learn`, { fifo: true, visibilitySeconds: 30, maxReceiveCount: 5 });
  vi.resetModules();
  const fn = await importHandler(() => import('../functions/render'), {
    SPIDER_BUCKET: bucket,
    SPIDER_DEAD_LETTER_QUEUE_URL: render.dlqUrl,
    SPIDER_QUEUE_URL: render.url,
    SPIDER_MAX_RECEIVE_COUNT: String(maxReceiveCount),
    SPIDER_APPLY_QUEUE_URL: apply.url,
    SPIDER_LEARN_QUEUE_URL: learn.url,
    ...env,
  });
  closers.push(fn.closeBrowser);
  const seen: Seen[] = [];
  const handler: SqsHandler = async (event: SQSEvent, context) => {
    for (const r of event.Records) {
      seen.push({ url: JSON.parse(r.body).url, receiveCount: Number(r.attributes.ApproximateReceiveCount), deferrals: r.messageAttributes['spider.deferrals']?.stringValue, notStarted: r.messageAttributes['spider.notStarted']?.stringValue, at: Date.now() });
    }
    if (dies && event.Records.some(dies)) throw new Error('Runtime.OutOfMemory: the invocation died');
    return fn.handler(event, context);
  };
  const poller = new LambdaPoller({ name: `${name}-render`, sqs: emu.sqs, queueUrl: render.url, queueArn: render.arn, handler, batchSize: 1, timeoutMs: options.timeoutMs ?? 120_000 });
  const submit = (urls: string[]) => new SqsQueueSender<RenderMessage>({ queueUrl: render.url, client: emu.sqs }).sendBatch(urls.map((url) => ({ body: { v: 1, url } })));
  return { bucket, queues: { render, apply }, poller, seen, submit };
}

describe('redelivery on AWS: the last receive, and a busy host', () => {
  it('a page that fails retryably on every receive ends in the DLQ after maxReceiveCount receives, with a spider.error that says why', async () => {
    const fn = await renderFunction('exhausted', 4);
    const url = `${site.origin}/always-503.html`;
    expect(await fn.submit([url])).toEqual({ sent: 1, failed: [] });

    await runUntilIdle([fn.poller], { timeoutMs: 90_000 });

    const dead = await emu.drain(fn.queues.render.dlqUrl);
    expect(dead.map((m) => JSON.parse(m.Body!).url)).toEqual([url]);
    const attrs = dead[0].MessageAttributes ?? {};
    expect(attrs['spider.error']?.StringValue).toMatch(/^failed 4 times; last error: .*HTTP 503/);
    expect(attrs['spider.receiveCount']?.StringValue).toBe('4');
    expect(attrs['spider.sourceQueue']?.StringValue).toBe(fn.queues.render.arn);
    // Four receives, four requests to the site: three failed records, then the handler's dead letter.
    expect(fn.seen.map((s) => s.receiveCount)).toEqual([1, 2, 3, 4]);
    expect(site.hits.get('/always-503.html')).toBe(4);
    expect(fn.poller.invocations.map((i) => i.failed)).toEqual([1, 1, 1, 0]);
    expect(await queueDepth(emu.sqs, fn.queues.render.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  }, 120_000);

  it('a page whose host\'s turn has not come is sent again with a delay, spends no receive, and ends rendered', async () => {
    // No waiting in-process for the host's turn, and a queue that redrives after a single receive:
    // a deferral that spent the receive would end in the DLQ.
    const fn = await renderFunction('busy-host', 1, { env: { SPIDER_POLITENESS_MAX_WAIT_MS: '0' } });
    const urls = [`${site.origin}/story-1.html`, `${site.origin}/story-2.html`];
    // The host held back for 3 s (as after a 429 with Retry-After), in its shared rate-limit slot.
    const pausedUntil = Date.now() + 3_000;
    await emu.s3.send(new PutObjectCommand({ Bucket: fn.bucket, Key: keys.hostState('127.0.0.1'), Body: JSON.stringify({ last: 0, pausedUntil }), ContentType: 'application/json' }));
    const hitsBefore = (site.hits.get('/story-1.html') ?? 0) + (site.hits.get('/story-2.html') ?? 0);
    expect(await fn.submit(urls)).toEqual({ sent: 2, failed: [] });

    await runUntilIdle([fn.poller], { timeoutMs: 60_000 });

    // Each page: received once and put back (no request to the site), received again after the pause as
    // a new message (receive count 1, one deferral) and rendered.
    for (const url of urls) {
      const receives = fn.seen.filter((s) => s.url === url);
      expect(receives.map((s) => [s.receiveCount, s.deferrals])).toEqual([
        [1, undefined],
        [1, '1'],
      ]);
      expect(receives[0].at).toBeLessThan(pausedUntil);
      expect(receives[1].at).toBeGreaterThanOrEqual(pausedUntil);
    }
    expect((site.hits.get('/story-1.html') ?? 0) + (site.hits.get('/story-2.html') ?? 0) - hitsBefore).toBe(2);
    expect(fn.poller.invocations.every((i) => i.failed === 0 && !i.batchError)).toBe(true);
    expect(await emu.drain(fn.queues.render.dlqUrl)).toEqual([]);
    expect(await queueDepth(emu.sqs, fn.queues.render.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });

    // Rendered: the feature document and the snapshot of each page, and each handed on to apply.
    const store = new S3Store({ bucket: fn.bucket, client: emu.s3 });
    for (const url of urls) {
      const siteName = siteOf(url);
      expect(await store.get(keys.features(siteName, pageIdOf(url))), url).toBeDefined();
      expect(await store.get(keys.snapshot(siteName, pageIdOf(url))), url).toBeDefined();
    }
    expect((await emu.drain(fn.queues.apply.url)).map((m) => JSON.parse(m.Body!).pageId).sort()).toEqual(urls.map(pageIdOf).sort());
  }, 120_000);

  it('a page whose invocation dies on each receive it is tried on comes back once more, as the stack\'s redrive counts, and is a dead letter that says so, not rendered', async () => {
    const maxReceiveCount = 2;
    const fn = await renderFunction('never-answered', maxReceiveCount, {
      redriveReceiveCount: redriveReceiveCount(maxReceiveCount),
      dies: (r) => Number(r.attributes.ApproximateReceiveCount) <= maxReceiveCount,
    });
    const url = `${site.origin}/story-3.html`;
    expect(await fn.submit([url])).toEqual({ sent: 1, failed: [] });

    await runUntilIdle([fn.poller], { timeoutMs: 60_000 });

    // Two invocations died with it; the third receive is answered: a dead letter, with the reason.
    expect(fn.seen.map((s) => s.receiveCount)).toEqual([1, 2, 3]);
    expect(fn.poller.invocations.map((i) => [i.failed, i.batchError !== undefined])).toEqual([
      [1, true],
      [1, true],
      [0, false],
    ]);
    const dead = await emu.drain(fn.queues.render.dlqUrl);
    expect(dead.map((m) => JSON.parse(m.Body!).url)).toEqual([url]);
    const attrs = dead[0].MessageAttributes ?? {};
    expect(attrs['spider.error']?.StringValue).toMatch(/^received 2 times and never answered on its last receive: the Lambda invocation handling it timed out, ran out of memory, crashed or was throttled/);
    expect(attrs['spider.receiveCount']?.StringValue).toBe('3');
    // not rendered on that last receive: no request to the site, nothing stored
    expect(site.hits.get('/story-3.html') ?? 0).toBe(0);
    const store = new S3Store({ bucket: fn.bucket, client: emu.s3 });
    expect(await store.get(keys.features(siteOf(url), pageIdOf(url)))).toBeUndefined();
    expect(await queueDepth(emu.sqs, fn.queues.render.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  }, 120_000);

  it('a page not started for lack of time in its invocation is sent again a second later, spends no receive, and ends a dead letter that says so when no invocation ever has the time', async () => {
    // A function whose 12 s timeout, less the render's 10 s margin, leaves less than the 5 s a render
    // needs to start, on a queue that redrives after a single receive: a deferral that spent the
    // receive would end there without a reason, or as a failure.
    const fn = await renderFunction('no-time', 1, { timeoutMs: 12_000, env: { SPIDER_MAX_DEFERRALS: '2' } });
    const url = `${site.origin}/story-4.html`;
    expect(await fn.submit([url])).toEqual({ sent: 1, failed: [] });

    await runUntilIdle([fn.poller], { timeoutMs: 60_000 });

    expect(fn.seen.map((s) => [s.receiveCount, s.notStarted, s.deferrals])).toEqual([
      [1, undefined, undefined],
      [1, '1', '0'],
      [1, '2', '0'],
    ]);
    expect(fn.seen[1].at - fn.seen[0].at).toBeGreaterThanOrEqual(1_000);
    expect(fn.poller.invocations.every((i) => i.failed === 0 && !i.batchError)).toBe(true);
    const dead = await emu.drain(fn.queues.render.dlqUrl);
    expect(dead.map((m) => JSON.parse(m.Body!).url)).toEqual([url]);
    expect(dead[0].MessageAttributes?.['spider.error']?.StringValue).toMatch(
      /^not started 2 times, its invocations never had the time left for it; last: only \d+ ms left in this invocation; not starting a render$/,
    );
    expect(site.hits.get('/story-4.html') ?? 0).toBe(0);
    expect(await queueDepth(emu.sqs, fn.queues.render.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  }, 120_000);
});
