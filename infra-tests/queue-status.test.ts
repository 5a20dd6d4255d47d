/**
 * `spider status` on a deployed stack, against the emulator through the real AWS SDK: queue counts
 * from GetQueueAttributes (dead-letter queues found from the redrive policy or named by the stack
 * outputs), the age of the oldest message from CloudWatch (which the emulator does not have: the
 * status says so), and what the bucket holds.
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatStatus } from '../lib/cli/status';
import { deployedStatus, summarizeStatus } from '../lib/aws/queue-status';
import { S3Store } from '../lib/aws/s3-store';
import { keys } from '../lib/store/keys';
import { putJson } from '../lib/store/store';
import { RULES_DOCUMENT_VERSION, type RulesDocument } from '../lib/types/rules-document';
import { startEmulator, type Emulator } from './emulator';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';

let emu: Emulator;
const BUCKET = 'spider-status';

function rules(site: string, rulesVersion: number): RulesDocument {
  return {
    version: RULES_DOCUMENT_VERSION,
    site,
    rulesVersion,
    learnedAt: '2026-03-14T10:00:00.000Z',
    learnedFrom: ['p1'],
    content: { selectors: ['article'], clean: [] },
    clusters: [],
    selfCheck: { pages: 1, recall: 1, precision: 1, adjusted: [] },
    params: {},
  };
}

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(async () => {
  await emu?.stop();
});

describe('summarizeStatus', () => {
  it('counts pending (delayed included), in flight and dead letters; the age only matters when something is pending', () => {
    const counts = summarizeStatus(
      { ApproximateNumberOfMessages: '5', ApproximateNumberOfMessagesDelayed: '2', ApproximateNumberOfMessagesNotVisible: '3' },
      { ApproximateNumberOfMessages: '4', ApproximateNumberOfMessagesNotVisible: '1' },
      { seconds: 95 },
    );
    expect(counts).toEqual({ pending: 7, inFlight: 3, deadLettered: 5, oldestPendingAgeSeconds: 95 });
    expect(summarizeStatus({ ApproximateNumberOfMessages: '0' }, {}, { seconds: null, note: 'x' })).toEqual({ pending: 0, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: 0 });
    const unknown = summarizeStatus({ ApproximateNumberOfMessages: '1' }, undefined, { seconds: null, note: 'no datapoint' });
    expect(unknown.oldestPendingAgeSeconds).toBeNull();
    expect(unknown.note).toContain('no datapoint');
    expect(unknown.note).toContain('no dead-letter queue');
  });
});

describe('deployedStatus against the emulator', () => {
  it('reads pending, in flight and dead-lettered per queue, and learned sites, waiting sites and articles from the bucket', { timeout: 60_000 }, async () => {
    const dlq = (name: string, fifo = false) => emu.createQueue(name, fifo ? { FifoQueue: 'true' } : {});
    const renderDlq = await dlq('status-render-dlq');
    const learnDlq = await dlq('status-learn-dlq.fifo', true);
    const applyDlq = await dlq('status-apply-dlq');
    const redrive = (arn: string) => ({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: 3 }) });
    const render = await emu.createQueue('status-render', redrive(renderDlq.arn));
    const learn = await emu.createQueue('status-learn.fifo', { FifoQueue: 'true', ContentBasedDeduplication: 'true', ...redrive(learnDlq.arn) });
    const apply = await emu.createQueue('status-apply', redrive(applyDlq.arn));

    for (let i = 0; i < 5; i++) await emu.sqs.send(new SendMessageCommand({ QueueUrl: render.url, MessageBody: JSON.stringify({ v: 1, url: `https://a.example/${i}` }) }));
    // Two received and not deleted: in flight.
    const got = await emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: render.url, MaxNumberOfMessages: 2, VisibilityTimeout: 300 }));
    expect(got.Messages).toHaveLength(2);
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: learn.url, MessageBody: '{"v":1,"site":"b.example"}', MessageGroupId: 'b.example' }));
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: renderDlq.url, MessageBody: '{"v":1,"url":"https://a.example/x"}' }));
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: applyDlq.url, MessageBody: '{}' }));
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: applyDlq.url, MessageBody: '{"v":1}' }));

    const store = new S3Store({ bucket: BUCKET, client: emu.s3 });
    await putJson(store, keys.rules('a.example'), rules('a.example', 3));
    for (const [site, n] of [['a.example', 3], ['b.example', 2]] as const) {
      for (let i = 0; i < n; i++) {
        await store.put(keys.features(site, `p${i}`), '{}');
        await store.put(keys.snapshot(site, `p${i}`), '<html></html>');
      }
    }
    await store.put(keys.article('a.example', 'p0'), '{}');
    await store.put(keys.article('a.example', 'p1'), '{}');

    const cloudWatch = new CloudWatchClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
    const status = await deployedStatus(
      { bucket: BUCKET, renderQueueUrl: render.url, learnQueueUrl: learn.url, applyQueueUrl: apply.url },
      { sqs: emu.sqs, s3: emu.s3, cloudWatch },
    );
    cloudWatch.destroy();
    expect(status.where).toBe('aws');
    expect(status.location).toBe(`s3://${BUCKET}`);
    expect(status.queues.render).toMatchObject({ pending: 3, inFlight: 2, deadLettered: 1 });
    expect(status.queues.learn).toMatchObject({ pending: 1, inFlight: 0, deadLettered: 0 });
    expect(status.queues.apply).toEqual({ pending: 0, inFlight: 0, deadLettered: 2, oldestPendingAgeSeconds: 0 });
    // fauxqs has no CloudWatch: the age of a non-empty queue is unknown, and the status says why.
    expect(status.queues.render.oldestPendingAgeSeconds).toBeNull();
    expect(status.queues.render.note).toMatch(/age of oldest message unknown: CloudWatch/);
    expect(status.store.learned).toEqual([{ site: 'a.example', rulesVersion: 3, learnedAt: '2026-03-14T10:00:00.000Z', pages: 3, articles: 2 }]);
    expect(status.store.waitingToLearn).toEqual([{ site: 'b.example', pages: 2 }]);
    expect(status.store).toMatchObject({ pages: 5, articles: 2 });

    // Dead-letter queues named by the stack outputs are used as given.
    const named = await deployedStatus(
      { bucket: BUCKET, renderQueueUrl: render.url, deadLetterQueueUrls: { render: applyDlq.url } },
      { sqs: emu.sqs, s3: emu.s3, cloudWatch: new CloudWatchClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 }) },
    );
    expect(named.queues.render.deadLettered).toBe(2);
    expect(named.queues.learn.note).toBe('no queue URL configured');
    // A stack without a fetch queue (older ones) shows none; with one, it is counted like the others.
    expect(named.queues.fetch).toBeUndefined();
    const fetchDlq = await dlq('status-fetch-dlq');
    const fetchQueue = await emu.createQueue('status-fetch', redrive(fetchDlq.arn));
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: fetchQueue.url, MessageBody: '{"v":1,"url":"https://a.example/f"}' }));
    const withFetch = await deployedStatus(
      { bucket: BUCKET, fetchQueueUrl: fetchQueue.url, renderQueueUrl: render.url },
      { sqs: emu.sqs, s3: emu.s3, cloudWatch: new CloudWatchClient({ endpoint: emu.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 }) },
    );
    expect(withFetch.queues.fetch).toMatchObject({ pending: 1, inFlight: 0, deadLettered: 0 });
    expect(formatStatus(withFetch)).toMatch(/^fetch +1 +0 +0 /m);
  });
});
