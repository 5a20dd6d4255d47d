/**
 * The S3 store and SQS sender against the emulator, through the real AWS SDK: the same contract as
 * the filesystem store and in-process queues (test/store, test/queue).
 */
import { CreateBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFallbackModel } from '../lib/apply/fallback';
import { s3ClientConfig, sqsClientConfig } from '../lib/aws/clients';
import { createAwsContext } from '../lib/aws/aws-context';
import { DeployedStack } from '../lib/aws/deployed-stack';
import { awsTargetFromEnv, awsTargetFromOutputs } from '../lib/aws/stack-outputs';
import { generateSite, pageHtml, pagesOf } from '../lib/demo';
import { silentLogger } from '../lib/step/context';
import { keys } from '../lib/store/keys';
import { SqsQueueSender, sqsDeduplicationId } from '../lib/aws/sqs-queue';
import { S3Store } from '../lib/aws/s3-store';
import { PreconditionFailedError, getJson, putJson } from '../lib/store/store';
import { REGION, startEmulator, type Emulator } from './emulator';
import { CLI_COMMAND, spiderArgs } from '../test/helpers/spider-cli';

let emu: Emulator;
const BUCKET = 'spider-adapters';

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  await emu?.stop();
});

async function receiveAll(queueUrl: string, max = 100): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const res = await emu.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], WaitTimeSeconds: 0 }),
    );
    if (!res.Messages?.length || out.length >= max) return out;
    out.push(...res.Messages);
  }
}

describe('S3Store', () => {
  it('puts, gets, lists by prefix in key order, deletes', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const etag = await store.put('pages/a.com/2/features.json', '{"b":1}');
    await store.put('pages/a.com/1/features.json', '{"a":1}');
    await store.put('pages/b.com/1/features.json', '{}');
    const got = await store.get('pages/a.com/2/features.json');
    expect(got?.body.toString()).toBe('{"b":1}');
    expect(got?.etag).toBe(etag);
    expect(got?.etag).not.toMatch(/"/);
    expect(got?.lastModified).toBeInstanceOf(Date);
    expect(await store.get('nope/x.json')).toBeUndefined();
    const listed = await store.list('pages/a.com/');
    expect(listed.map((o) => o.key)).toEqual(['pages/a.com/1/features.json', 'pages/a.com/2/features.json']);
    expect(listed[1]).toMatchObject({ etag, size: 7 });
    expect(await store.list('pages/')).toHaveLength(3);
    await store.delete('pages/a.com/1/features.json');
    await store.delete('pages/never-there.json');
    expect((await store.list('pages/a.com/')).map((o) => o.key)).toEqual(['pages/a.com/2/features.json']);
  });

  it('lists past one page of results (ListObjectsV2 continuation)', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const keys = Array.from({ length: 1001 }, (_, i) => `many/${String(i).padStart(4, '0')}.json`);
    for (let i = 0; i < keys.length; i += 100) await Promise.all(keys.slice(i, i + 100).map((k) => store.put(k, '{}')));
    const listed = await store.list('many/');
    expect(listed.map((o) => o.key)).toEqual(keys);
  });

  it('lists at most `max` keys, the first in key order, in one ListObjectsV2 request (MaxKeys)', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const keys = Array.from({ length: 1002 }, (_, i) => `limited/${String(i).padStart(4, '0')}.json`);
    for (let i = 0; i < keys.length; i += 100) await Promise.all(keys.slice(i, i + 100).map((k) => store.put(k, '{}')));
    const lists: (number | undefined)[] = [];
    emu.s3.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ListObjectsV2Command') lists.push((args.input as { MaxKeys?: number }).MaxKeys);
        return next(args);
      },
      { step: 'initialize', name: 'countLists' },
    );
    try {
      expect((await store.list('limited/', { max: 1 })).map((o) => o.key)).toEqual(['limited/0000.json']);
      expect(lists).toEqual([1]);
      expect((await store.list('limited/', { max: 3 })).map((o) => o.key)).toEqual(keys.slice(0, 3));
      expect(await store.list('nothing-here/', { max: 1 })).toEqual([]);
      lists.length = 0;
      // more than one page of S3's (1,000 keys): a second request for the rest, no more
      expect((await store.list('limited/', { max: 1001 })).map((o) => o.key)).toEqual(keys.slice(0, 1001));
      expect(lists).toEqual([1000, 1000]);
    } finally {
      emu.s3.middlewareStack.remove('countLists');
    }
  });

  it('stores JSON with its content type, whatever the key ends with, and reads it back', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    // the type comes from putJson, not from the key's extension (S3Store's guess for a key of none is application/octet-stream)
    for (const key of ['rules/json.com.json', 'rules/json.com']) {
      await putJson(store, key, { site: 'json.com', n: 1 });
      const head = await emu.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(head.ContentType, key).toBe('application/json');
      expect(await getJson(store, key, (v) => v)).toEqual({ site: 'json.com', n: 1 });
    }
  });

  it('conditional writes: If-None-Match and If-Match lose to a concurrent writer (412 → PreconditionFailedError)', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const refusedBefore = emu.refusedConditionalPuts;
    const etag = await store.put('rules/a.com.json', 'v1', { ifNoneMatch: '*' });
    await expect(store.put('rules/a.com.json', 'v1b', { ifNoneMatch: '*' })).rejects.toBeInstanceOf(PreconditionFailedError);
    const etag2 = await store.put('rules/a.com.json', 'v2', { ifMatch: etag });
    expect(etag2).not.toBe(etag);
    await expect(store.put('rules/a.com.json', 'v3', { ifMatch: etag })).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(store.put('rules/missing.com.json', 'v1', { ifMatch: etag })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect((await store.get('rules/a.com.json'))?.body.toString()).toBe('v2');
    expect(emu.refusedConditionalPuts - refusedBefore).toBe(3);
  });

  it('of racing compare-and-swap writers exactly one wins', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    const etag = await store.put('rules/race.com.json', 'v0');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => store.put('rules/race.com.json', `w${i}`, { ifMatch: etag })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof PreconditionFailedError)).toBe(true);
  });

  it('a conditional write whose answer is lost after it landed is not taken for a lost race when the SDK retries it', async () => {
    // The proxy forwards the first PutObject to the emulator (it lands) and then drops the connection
    // instead of answering, as a reset or a client timeout (lib/aws/clients.ts) does: the SDK sends
    // it again, and S3 refuses that second attempt (412, 404), the first one having written the object.
    let dropped = 0;
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const out = http.request(new URL(req.url ?? '/', emu.endpoint), { method: req.method, headers: req.headers }, (up) => {
          if (req.method === 'PUT' && dropped === 0) {
            dropped++;
            up.resume();
            up.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        out.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const client = new S3Client({ ...s3ClientConfig({ AWS_ENDPOINT_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }), region: REGION, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    try {
      const store = new S3Store({ bucket: BUCKET, client });
      const etag = await store.put('rules/lost-answer.com.json', 'v1', { ifNoneMatch: '*' });
      expect(dropped).toBe(1);
      expect(etag).toBe((await store.get('rules/lost-answer.com.json'))?.etag);
      dropped = 0;
      const etag2 = await store.put('rules/lost-answer.com.json', 'v2', { ifMatch: etag });
      expect(dropped).toBe(1);
      const stored = await store.get('rules/lost-answer.com.json');
      expect(stored?.body.toString()).toBe('v2');
      expect(etag2).toBe(stored?.etag);
      // a write that did not land is still a lost race, retried or not
      dropped = 0;
      await expect(store.put('rules/lost-answer.com.json', 'v3', { ifMatch: etag })).rejects.toBeInstanceOf(PreconditionFailedError);
    } finally {
      client.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('keeps keys inside an optional bucket prefix', async () => {
    const store = new S3Store({ bucket: BUCKET, client: emu.s3, prefix: 'staging/' });
    await store.put('articles/p.com/1.json', '{}');
    expect((await store.list('articles/')).map((o) => o.key)).toEqual(['articles/p.com/1.json']);
    const raw = new S3Store({ bucket: BUCKET, client: emu.s3 });
    expect(await raw.get('staging/articles/p.com/1.json')).toBeDefined();
    expect(() => new S3Store({ bucket: BUCKET, client: emu.s3, prefix: 'nope' })).toThrow(/end with/);
  });

  it('reads objects written by other tools, binary included', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    await emu.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'archive/bin.com/x.html', Body: bytes }));
    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    expect((await store.get('archive/bin.com/x.html'))?.body).toEqual(bytes);
  });

  it('throws for errors that are not "missing" (no such bucket)', async () => {
    const store = new S3Store({ bucket: 'no-such-bucket', client: emu.s3 });
    await expect(store.get('a.json')).rejects.toThrow();
  });
});

describe('SqsQueueSender', () => {
  it('sends JSON bodies to a standard queue, with a per-message delay', async () => {
    const { url } = await emu.createQueue('adapters-standard');
    const sender = new SqsQueueSender<{ v: number; url: string }>({ queueUrl: url, client: emu.sqs });
    expect(sender.fifo).toBe(false);
    await sender.send({ v: 1, url: 'https://a.com/1' });
    await sender.send({ v: 1, url: 'https://a.com/2' }, { delaySeconds: 1 });
    const now = await receiveAll(url);
    expect(now.map((m) => JSON.parse(m.Body!))).toEqual([{ v: 1, url: 'https://a.com/1' }]);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await receiveAll(url)).map((m) => JSON.parse(m.Body!).url)).toEqual(['https://a.com/2']);
    await expect(sender.send({ v: 1, url: 'x' }, { delaySeconds: 901 })).rejects.toThrow(/0 to 900/);
  });

  it('FIFO: requires a group, sends MessageGroupId, drops duplicates by deduplication id', async () => {
    const { url } = await emu.createQueue('adapters-learn.fifo', { FifoQueue: 'true', ContentBasedDeduplication: 'true' });
    const sender = new SqsQueueSender<{ v: 1; site: string; force: boolean }>({ queueUrl: url, client: emu.sqs });
    expect(sender.fifo).toBe(true);
    await expect(sender.send({ v: 1, site: 'a.com', force: false })).rejects.toThrow(/groupId/);
    await sender.send({ v: 1, site: 'a.com', force: false }, { groupId: 'a.com', deduplicationId: 'a.com:p1' });
    await sender.send({ v: 1, site: 'a.com', force: true }, { groupId: 'a.com', deduplicationId: 'a.com:p1' }); // duplicate id: dropped
    await sender.send({ v: 1, site: 'b.com', force: false }, { groupId: 'b.com', deduplicationId: 'b.com:p1', delaySeconds: 5 }); // delay ignored on FIFO
    const got = await receiveAll(url);
    expect(got.map((m) => [m.Attributes?.MessageGroupId, JSON.parse(m.Body!).force])).toEqual([
      ['a.com', false],
      ['b.com', false],
    ]);
  });

  it('refuses a body over 256 KiB before sending', async () => {
    const { url } = await emu.createQueue('adapters-big');
    const sender = new SqsQueueSender<{ html: string }>({ queueUrl: url, client: emu.sqs });
    await expect(sender.send({ html: 'x'.repeat(300 * 1024) })).rejects.toThrow(/carry store keys/);
  });

  it('sendBatch: chunks of 10, every entry sent once, rejected entries returned with their reason', async () => {
    const { url } = await emu.createQueue('adapters-batch');
    const sender = new SqsQueueSender<{ v: 1; url: string } | { html: string }>({ queueUrl: url, client: emu.sqs });
    const entries = Array.from({ length: 23 }, (_, i) => ({ body: { v: 1 as const, url: `https://a.com/${i}` } }));
    const withBad = [...entries.slice(0, 5), { body: { html: 'x'.repeat(300 * 1024) } }, ...entries.slice(5)];
    const result = await sender.sendBatch(withBad);
    expect(result.sent).toBe(23);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]).toMatchObject({ index: 5, senderFault: true });
    const got = await receiveAll(url);
    expect(got.map((m) => JSON.parse(m.Body!).url).sort()).toEqual(entries.map((e) => e.body.url).sort());
  });

  it('sendBatch reports entries of a failed call (no such queue) instead of throwing', async () => {
    const sender = new SqsQueueSender<{ v: 1 }>({ queueUrl: `${emu.endpoint}/000000000000/no-such-queue`, client: emu.sqs });
    const result = await sender.sendBatch([{ body: { v: 1 } }, { body: { v: 1 } }]);
    expect(result.sent).toBe(0);
    expect(result.failed.map((f) => f.index)).toEqual([0, 1]);
  });

  it('keeps valid deduplication ids and hashes the rest', () => {
    expect(sqsDeduplicationId('a.com:123')).toBe('a.com:123');
    expect(sqsDeduplicationId('x'.repeat(200))).toMatch(/^[0-9a-f]{64}$/);
    // SQS takes printable ASCII only: anything else is hashed, the same id to the same hash
    expect(sqsDeduplicationId('é')).toMatch(/^[0-9a-f]{64}$/);
    expect(sqsDeduplicationId('é')).toBe(sqsDeduplicationId('é'));
    expect(sqsDeduplicationId('é')).not.toBe(sqsDeduplicationId('e'));
  });
});

describe('AWS context and configuration', () => {
  it('builds a StepContext from SPIDER_* variables; unwired queues refuse with a clear message', async () => {
    const { url } = await emu.createQueue('adapters-apply');
    const target = awsTargetFromEnv({ SPIDER_BUCKET: BUCKET, SPIDER_APPLY_QUEUE_URL: url });
    expect(target).toEqual({ bucket: BUCKET, applyQueueUrl: url, renderQueueUrl: undefined, learnQueueUrl: undefined, deadLetterQueueUrl: undefined });
    const ctx = createAwsContext({ target, s3: emu.s3, sqs: emu.sqs });
    await ctx.queues.apply.send({ v: 1, site: 'a.com', pageId: 'p1', reason: 'rendered' });
    expect((await receiveAll(url)).map((m) => JSON.parse(m.Body!))).toEqual([{ v: 1, site: 'a.com', pageId: 'p1', reason: 'rendered' }]);
    await expect(ctx.queues.render.send({ v: 1, url: 'https://a.com/' })).rejects.toThrow(/SPIDER_RENDER_QUEUE_URL is not set/);
    await ctx.store.put('articles/a.com/p1.json', '{}');
    expect(await ctx.store.get('articles/a.com/p1.json')).toBeDefined();
    expect(awsTargetFromEnv({})).toBeUndefined();
    expect(() => createAwsContext({ target: undefined })).toThrow();
  });

  it('reads a deployed stack from cdk-outputs.json', () => {
    const outputs = { Spider: { BucketName: 'b', RenderQueueUrl: 'r', LearnQueueUrl: 'l.fifo', ApplyQueueUrl: 'a' } };
    expect(awsTargetFromOutputs(outputs)).toEqual({ bucket: 'b', renderQueueUrl: 'r', learnQueueUrl: 'l.fifo', applyQueueUrl: 'a' });
    expect(() => awsTargetFromOutputs({ A: {}, B: {} })).toThrow(/no stack named Spider/);
    expect(() => awsTargetFromOutputs({ Spider: {} })).toThrow(/no BucketName/);
  });

  it('points clients at AWS_ENDPOINT_URL with path-style S3 for emulators (their timeouts: infra-tests/clients.test.ts)', () => {
    const requestHandler = expect.objectContaining({ requestTimeout: expect.any(Number) });
    expect(s3ClientConfig({})).toEqual({ forcePathStyle: false, requestHandler });
    expect(s3ClientConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' })).toEqual({ endpoint: 'http://127.0.0.1:4566', forcePathStyle: true, requestHandler });
    expect(s3ClientConfig({ AWS_ENDPOINT_URL_S3: 'http://s3.local', SPIDER_S3_FORCE_PATH_STYLE: 'false' })).toEqual({ endpoint: 'http://s3.local', forcePathStyle: false, requestHandler });
    expect(sqsClientConfig({})).toEqual({ requestHandler });
    expect(sqsClientConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:4566' })).toEqual({ endpoint: 'http://127.0.0.1:4566', useQueueUrlAsEndpoint: false, requestHandler });
  });
});

describe('DeployedStack (the CLI against AWS)', () => {
  it('submits in batches, stores archived HTML first, and names every rejected URL with its reason', async () => {
    const render = await emu.createQueue('cli-render');
    const learn = await emu.createQueue('cli-learn.fifo', { FifoQueue: 'true', ContentBasedDeduplication: 'true' });
    const stack = new DeployedStack({ bucket: BUCKET, renderQueueUrl: render.url, learnQueueUrl: learn.url }, { s3: emu.s3, sqs: emu.sqs, maxHtmlBytes: 1000 });
    const urls = Array.from({ length: 12 }, (_, i) => ({ url: `https://news.example/${i}` }));
    const result = await stack.submit([
      ...urls,
      { url: 'not a url' },
      { url: 'ftp://news.example/x' },
      { url: 'https://news.example/archived', html: '<html><body><p>kept</p></body></html>' },
      { url: 'https://news.example/huge', html: 'x'.repeat(2000) },
    ]);
    expect(result.sent).toBe(13);
    expect(result.rejected.map((r) => r.url)).toEqual(['not a url', 'ftp://news.example/x', 'https://news.example/huge']);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/not a valid absolute URL/),
      expect.stringMatching(/only http and https/),
      expect.stringMatching(/over the 1000-byte cap/),
    ]);
    const messages = (await receiveAll(render.url)).map((m) => JSON.parse(m.Body!));
    expect(messages).toHaveLength(13);
    const archived = messages.find((m) => m.url === 'https://news.example/archived');
    expect(archived.archiveKey).toMatch(/^archive\/news\.example\/[0-9a-f]{20}\.html$/);
    expect((await stack.store.get(archived.archiveKey))?.body.toString()).toContain('kept');

    await stack.relearn('news.example');
    const learnMessages = await receiveAll(learn.url);
    expect(learnMessages.map((m) => [JSON.parse(m.Body!), m.Attributes?.MessageGroupId])).toEqual([[{ v: 1, site: 'news.example', force: true }, 'news.example']]);
  });

  it('refuses to submit without a render queue', async () => {
    await expect(new DeployedStack({ bucket: BUCKET }, { s3: emu.s3, sqs: emu.sqs }).submit([{ url: 'https://a.com/' }])).rejects.toThrow(/SPIDER_RENDER_QUEUE_URL/);
  });
});

describe('spider train against a deployed bucket', () => {
  it('trains from the bucket\'s learned articles and stores the model where apply reads it', { timeout: 120_000 }, async () => {
    const bucket = 'spider-train';
    await emu.s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const store = new S3Store({ bucket, client: emu.s3 });
    for (const host of ['one.example', 'two.example']) {
      const site = generateSite({ seed: `aws-train-${host}`, pagesPerTemplate: 2, templates: 2 });
      for (const [i, p] of pagesOf(site, { kind: 'article' }).entries()) {
        await putJson(store, keys.article(host, `p${i}`), {
          version: 1, pageId: `p${i}`, url: `http://${host}${p.path}`, site: host, title: p.title, text: p.bodyText, html: '',
          wordCount: p.wordCount, method: 'rules', rulesVersion: 1, extractedAt: '2026-03-14T00:00:00.000Z', elapsedMs: 1,
        });
        await store.put(keys.snapshot(host, `p${i}`), pageHtml(site, p.path, `http://${host}`));
      }
    }

    const { stdout } = await promisify(execFile)(CLI_COMMAND, spiderArgs('train', '--no-generated', '--holdout', '0'), {
      env: { ...process.env, ...emu.env(), CI: 'true', SPIDER_STACK_OUTPUTS: '', SPIDER_BUCKET: bucket },
      timeout: 100_000,
    });
    expect(stdout).toContain('trained on 8 pages of 2 learned sites:');
    expect(stdout).toContain(`wrote s3://${bucket}/models/fallback.json`);
    const model = await loadFallbackModel({ store, logger: silentLogger });
    expect(model?.sites).toEqual({ 'one.example': 4, 'two.example': 4 });
  });
});
