/**
 * Fault injection on the emulator path: the real handlers, driven as Lambda drives them, against
 * fauxqs; the same URLs run twice, once fault-free and once with the store failing 10% of its writes
 * (S3 503 SlowDown on PutObject, conditional writes included; the SDK's own retries are off, so the
 * queue's redelivery is what recovers). The end states must be identical: the same pages, the same
 * articles (to the word), the same rules, the same dead letters with the same reasons, nothing lost.
 *
 * The site's pages link no feeds: feed refresh is a best-effort cache refreshed at most hourly and
 * never fails a render, so a lost feed write is by design not redone at once.
 */
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../lib/demo/index';
import { SqsQueueSender } from '../lib/aws/sqs-queue';
import type { RenderMessage } from '../lib/types/messages';
import { startEmulator, type Emulator } from './emulator';
import { LambdaPoller, importHandler, queueDepth, runUntilIdle, type SqsHandler } from './lambda-poller';

/**
 * A render try writes about 4 objects, so at a 10% write-fault rate a third of tries fail: 10
 * receives lost a page in about 1 run of 7,000 (0.344^10 a page, 6 pages); 20 make that 1 in 10^8.
 */
const MAX_RECEIVE_COUNT = 20;
const VISIBILITY_SECONDS = 2;
const site = generateSite({ seed: 'fault-injection', pagesPerTemplate: 6, templates: 2 });
const pages = articlesOf(site, 'blog'); // a template whose pages link no feeds

let emu: Emulator;
let served: ServedSite;
const savedEnv = { ...process.env };

beforeAll(async () => {
  emu = await startEmulator();
  served = await serveSite(site);
  Object.assign(process.env, {
    ...emu.env(),
    AWS_MAX_ATTEMPTS: '1', // failures reach the handlers; redelivery recovers
    POWERTOOLS_LOG_LEVEL: process.env.SPIDER_TEST_LOGS ? 'DEBUG' : 'SILENT',
    SPIDER_NAVIGATION_TIMEOUT_MS: '15000',
    SPIDER_RENDER_TIMEOUT_MS: '30000',
    SPIDER_LEARN_MIN_PAGES: String(pages.length),
  });
}, 60_000);

afterAll(async () => {
  await served?.close();
  await emu?.stop();
  process.env = savedEnv;
});

interface EndState {
  keys: string[];
  objects: Record<string, unknown>;
  renderDeadLetters: { url: string; reason?: string }[];
}

/**
 * Drops what differs between any two runs by nature: times and durations, and in rules the order in
 * which pages were seen (learnedFrom, and each cluster's sample text, taken from the newest page).
 */
function stable(key: string, body: string): unknown {
  if (!key.endsWith('.json')) return body;
  const drop = new Set(['extractedAt', 'pageStoredAt', 'elapsedMs', 'renderedAt', 'learnedAt', 'checkedAt', 'sample']);
  return JSON.parse(body, (k, v) => (drop.has(k) ? undefined : k === 'learnedFrom' && Array.isArray(v) ? [...v].sort() : v));
}

async function run(name: string, faultRate: number): Promise<EndState & { injected: number }> {
  const bucket = `spider-${name}`;
  await emu.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const queue = (step: string, fifo: boolean) =>
    emu.createStepQueues(`${name}-${step}`, { fifo, visibilitySeconds: VISIBILITY_SECONDS, maxReceiveCount: MAX_RECEIVE_COUNT });
  const queues = { render: await queue('render', false), learn: await queue('learn', true), apply: await queue('apply', false) };

  // Fresh handler modules (their clients, browser and caches) for this run's bucket and queues.
  vi.resetModules();
  process.env.SPIDER_BUCKET = bucket;
  // As the stack gives every function: its queue's maxReceiveCount (the handler dead-letters the last receive).
  const receives = { SPIDER_MAX_RECEIVE_COUNT: String(MAX_RECEIVE_COUNT) };
  const render = await importHandler(() => import('../functions/render'), {
    ...receives,
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.render.dlqUrl,
    SPIDER_QUEUE_URL: queues.render.url,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
  });
  const learn = await importHandler(() => import('../functions/learn'), { ...receives, SPIDER_DEAD_LETTER_QUEUE_URL: queues.learn.dlqUrl, SPIDER_APPLY_QUEUE_URL: queues.apply.url });
  const apply = await importHandler(() => import('../functions/apply'), { ...receives, SPIDER_DEAD_LETTER_QUEUE_URL: queues.apply.dlqUrl });
  const poller = (step: keyof typeof queues, handler: SqsHandler, batchSize: number, timeoutMs: number) =>
    new LambdaPoller({ name: `${name}-${step}`, sqs: emu.sqs, queueUrl: queues[step].url, queueArn: queues[step].arn, handler, batchSize, timeoutMs });
  const pollers = [poller('render', render.handler, 1, 120_000), poller('learn', learn.handler, 1, 120_000), poller('apply', apply.handler, 10, 60_000)];

  const before = emu.injectedWriteFailures;
  try {
    const urls = [...pages.map((p) => served.url(p.path)), served.url('/no-such-page.html')];
    const sender = new SqsQueueSender<RenderMessage>({ queueUrl: queues.render.url, client: emu.sqs });
    await sender.sendBatch(urls.map((url) => ({ body: { v: 1, url } })));
    if (faultRate > 0) emu.failWrites(bucket, faultRate, 7);
    await runUntilIdle(pollers, { timeoutMs: 240_000 });
  } finally {
    emu.failWrites(bucket, 0);
    await render.closeBrowser();
  }
  for (const q of Object.values(queues)) expect(await queueDepth(emu.sqs, q.url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });

  const listed = await emu.s3.send(new ListObjectsV2Command({ Bucket: bucket }));
  const keys = (listed.Contents ?? []).map((o) => o.Key!).filter((k) => !k.startsWith('politeness/')).sort();
  const objects: Record<string, unknown> = {};
  for (const key of keys) {
    if (key.startsWith('archive/')) continue;
    const obj = await emu.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    objects[key] = stable(key, await obj.Body!.transformToString());
  }
  const dead = await emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: queues.render.dlqUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }));
  const renderDeadLetters = (dead.Messages ?? []).map((m) => ({ url: JSON.parse(m.Body!).url as string, reason: m.MessageAttributes?.['spider.error']?.StringValue }));
  for (const q of [queues.learn, queues.apply]) {
    const other = await emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: q.dlqUrl, MaxNumberOfMessages: 10 }));
    expect(other.Messages ?? []).toEqual([]);
  }
  return { keys, objects, renderDeadLetters, injected: emu.injectedWriteFailures - before };
}

describe('fault injection on the emulator path', () => {
  it('the store failing 10% of writes, the queues redelivering: the same end state as a fault-free run', async () => {
    const clean = await run('clean', 0);
    const faulty = await run('faulty', 0.1);
    expect(clean.injected).toBe(0);
    expect(faulty.injected).toBeGreaterThan(0); // faults did happen, and were recovered from
    console.info(`fault injection: ${faulty.injected} store writes failed on purpose; end state identical to the fault-free run`);

    // Every page rendered, extracted and learned from; the broken URL a dead letter, with its reason.
    expect(clean.keys.filter((k) => k.startsWith('articles/'))).toHaveLength(pages.length);
    expect(clean.keys.some((k) => k.startsWith('rules/'))).toBe(true);
    expect(clean.renderDeadLetters).toEqual([{ url: served.url('/no-such-page.html'), reason: expect.stringMatching(/HTTP 404/) }]);

    expect(faulty.keys).toEqual(clean.keys);
    expect(faulty.renderDeadLetters).toEqual(clean.renderDeadLetters);
    for (const key of clean.keys) expect(faulty.objects[key], key).toEqual(clean.objects[key]);
  }, 600_000);
});
