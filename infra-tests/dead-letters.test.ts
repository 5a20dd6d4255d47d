/**
 * A deployed stack's dead letters, against the emulator through the real AWS SDK: `spider article
 * <url>` of a dead-lettered URL says why, as on the embedded store, and `spider dead-letters` lists
 * them, both reading the dead-letter queues without taking anything from them. The dead letters are
 * made as on AWS: by the handlers' own sender (with the reason) and by the redrive policy after the
 * receives ran out (without one).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetterOf, deployedDeadLetters } from '../lib/aws/dead-letters';
import { SqsDeadLetterSender } from '../lib/aws/sqs-records';
import { startEmulator, type Emulator, type StepQueues } from './emulator';
import { CLI_COMMAND, spiderArgs } from '../test/helpers/spider-cli';

const BUCKET = 'spider-dead-letters';
const MAX_RECEIVE_COUNT = 2;

let emu: Emulator;
let queues: Record<'render' | 'learn' | 'apply', StepQueues>;

/** An SQS record as Lambda hands it to a handler. */
function record(body: unknown, queueArn: string, groupId?: string): SQSRecord {
  const id = `m-${Math.random().toString(36).slice(2)}`;
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
      ...(groupId ? { MessageGroupId: groupId, MessageDeduplicationId: id, SequenceNumber: '1' } : {}),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}

/** The `spider` command against the emulated stack (its queues named by the environment, their DLQs found from the redrive policy). */
async function spider(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(CLI_COMMAND, spiderArgs(...args), {
      env: {
        ...process.env,
        ...emu.env(),
        CI: 'true',
        SPIDER_STACK_OUTPUTS: '',
        SPIDER_BUCKET: BUCKET,
        SPIDER_RENDER_QUEUE_URL: queues.render.url,
        SPIDER_LEARN_QUEUE_URL: queues.learn.url,
        SPIDER_APPLY_QUEUE_URL: queues.apply.url,
      },
      timeout: 60_000,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function depth(url: string): Promise<{ visible: number; inFlight: number }> {
  const a = (await emu.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes ?? {};
  return { visible: Number(a.ApproximateNumberOfMessages), inFlight: Number(a.ApproximateNumberOfMessagesNotVisible) };
}

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const step = (name: string, fifo = false) => emu.createStepQueues(name, { fifo, visibilitySeconds: 1, maxReceiveCount: MAX_RECEIVE_COUNT });
  queues = { render: await step('dl-render'), learn: await step('dl-learn', true), apply: await step('dl-apply') };
});
afterAll(async () => {
  await emu?.stop();
});

describe('dead letters of a deployed stack', () => {
  it('article <url> says why a dead-lettered URL has no article, dead-letters lists them, and they all stay in their queues', { timeout: 120_000 }, async () => {
    const gone = 'https://news.example/gone.html';
    const busy = 'https://news.example/busy.html';
    // As the render handler dead-letters a page that can never succeed: body unchanged, reason attached.
    await new SqsDeadLetterSender(queues.render.dlqUrl, emu.sqs).send(record({ v: 1, url: gone, submittedAt: '2026-03-14T10:00:00.000Z' }, queues.render.arn), `HTTP 404 for ${gone}`);
    await new SqsDeadLetterSender(queues.learn.dlqUrl, emu.sqs).send(record({ v: 1, site: 'news.example' }, queues.learn.arn, 'news.example'), 'invalid message: force: expected boolean');
    // A page that failed every time: SQS moves it once its receives run out, with no reason.
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: queues.render.url, MessageBody: JSON.stringify({ v: 1, url: busy, submittedAt: '2026-03-14T10:00:00.000Z' }) }));
    for (let i = 0; i < 20 && (await depth(queues.render.dlqUrl)).visible < 2; i++) {
      await emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: queues.render.url, MaxNumberOfMessages: 1, VisibilityTimeout: 0 }));
    }
    const before = { render: await depth(queues.render.dlqUrl), learn: await depth(queues.learn.dlqUrl) };
    expect(before).toEqual({ render: { visible: 2, inFlight: 0 }, learn: { visible: 1, inFlight: 0 } });

    const missing = await spider('article', gone);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no article for ${gone}: it ended as a dead letter of the render queue: HTTP 404 for ${gone}`);
    const moved = await spider('article', busy);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toMatch(
      new RegExp(`^no article for ${busy.replace(/\./g, '\\.')}: it ended as a dead letter of the render queue: moved here by SQS after its receives ran out, with no reason recorded \\(message id \\S+\\): the render function's log has its failures`, 'm'),
    );
    // a URL that is no dead letter: no reason to give
    const unknown = await spider('article', 'https://news.example/never-submitted.html');
    expect(unknown.stderr.trim()).toBe('no article for https://news.example/never-submitted.html');

    const listed = await spider('dead-letters');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^3 dead letters /);
    expect(lines.slice(1).sort()).toEqual([
      'learn   news.example  invalid message: force: expected boolean',
      expect.stringMatching(new RegExp(`^render  ${busy.replace(/\./g, '\\.')}  moved here by SQS after its receives ran out`)),
      `render  ${gone}  HTTP 404 for ${gone}`,
    ]);

    // Read again in this process: the same dead letters, none taken.
    const target = { bucket: BUCKET, renderQueueUrl: queues.render.url, learnQueueUrl: queues.learn.url, applyQueueUrl: queues.apply.url };
    const read = await deployedDeadLetters(target, { sqs: emu.sqs });
    expect(read.notes).toEqual([]);
    expect(read.letters.map((d) => [d.queue, (d.body as { url?: string; site?: string }).url ?? (d.body as { site: string }).site]).sort()).toEqual([
      ['learn', 'news.example'],
      ['render', busy],
      ['render', gone],
    ]);
    // every dead letter still in its queue, visible at once (nothing held in flight)
    expect({ render: await depth(queues.render.dlqUrl), learn: await depth(queues.learn.dlqUrl) }).toEqual(before);
    const drained = await emu.drain(queues.render.dlqUrl);
    expect(drained.map((m) => JSON.parse(m.Body!).url).sort()).toEqual([busy, gone]);
    expect(drained.find((m) => JSON.parse(m.Body!).url === gone)?.MessageAttributes?.['spider.error']?.StringValue).toBe(`HTTP 404 for ${gone}`);
  });

  it('gives a dead letter SQS moved its receives and its first send, and the time it died as unknown', { timeout: 60_000 }, async () => {
    const render = await emu.createStepQueues('dl-render-times', { visibilitySeconds: 1, maxReceiveCount: MAX_RECEIVE_COUNT });
    const failing = 'https://news.example/failing.html';
    const dead = 'https://news.example/dead.html';
    await emu.sqs.send(new SendMessageCommand({ QueueUrl: render.url, MessageBody: JSON.stringify({ v: 1, url: failing, submittedAt: '2026-03-14T10:00:00.000Z' }) }));
    const firstSent = Date.now();
    for (let i = 0; i < 20 && (await depth(render.dlqUrl)).visible < 1; i++) {
      await emu.sqs.send(new ReceiveMessageCommand({ QueueUrl: render.url, MaxNumberOfMessages: 1, VisibilityTimeout: 0 }));
    }
    await new Promise((r) => setTimeout(r, 20));
    const handlerSent = Date.now();
    await new SqsDeadLetterSender(render.dlqUrl, emu.sqs).send(record({ v: 1, url: dead, submittedAt: '2026-03-14T10:00:00.000Z' }, render.arn), `HTTP 404 for ${dead}`);
    const target = { bucket: BUCKET, renderQueueUrl: render.url, learnQueueUrl: queues.learn.url, applyQueueUrl: queues.apply.url, deadLetterQueueUrls: { render: render.dlqUrl } };

    const read = await deployedDeadLetters(target, { sqs: emu.sqs });
    const letters = read.letters.filter((d) => d.queue === 'render');
    // ordered by SentTimestamp: the moved one at its first send, before the one the handler sent later
    expect(letters.map((d) => (d.body as { url: string }).url)).toEqual([failing, dead]);
    const [moved, sent] = letters;
    // its receives on the render queue (the emulator carries them through the move), less this read's own
    expect(moved.receiveCount).toBeGreaterThanOrEqual(MAX_RECEIVE_COUNT);
    expect(moved.deadAt).toBe('');
    expect(Math.abs(Date.parse(moved.firstSentAt) - firstSent)).toBeLessThan(2000);
    // the handler's: it died when it was sent here; its receives are the handler's count
    expect(sent).toMatchObject({ reason: `HTTP 404 for ${dead}`, receiveCount: 1, firstSentAt: '' });
    expect(Date.parse(sent.deadAt)).toBeGreaterThanOrEqual(handlerSent - 5);
    // a second read adds its own receive to SQS's count, and takes it off again
    const again = (await deployedDeadLetters(target, { sqs: emu.sqs })).letters.filter((d) => d.queue === 'render');
    expect(again[0].receiveCount).toBe(moved.receiveCount + 1);
  });

  it('a dead letter SQS moved back after an earlier death says the move is why, and its spider.error is an earlier reason', () => {
    // fauxqs (2.4) sets no DeadLetterQueueSourceArn on what its redrive moves, so the message is the one
    // SQS hands out: an old dead letter of the handler, moved back with its attributes, moved here again.
    const sourceArn = 'arn:aws:sqs:us-east-1:123456789012:spider-render';
    const letter = deadLetterOf('render', {
      MessageId: 'sqs-id',
      Body: JSON.stringify({ v: 1, url: 'https://news.example/again.html' }),
      Attributes: { SentTimestamp: '1773482400000', ApproximateReceiveCount: '9', DeadLetterQueueSourceArn: sourceArn },
      MessageAttributes: {
        'spider.error': { DataType: 'String', StringValue: 'HTTP 503 for https://news.example/again.html' },
        'spider.messageId': { DataType: 'String', StringValue: 'old-id' },
        'spider.receiveCount': { DataType: 'Number', StringValue: '5' },
      },
    }, false);
    expect(letter.reason).toMatch(/^moved here by SQS from spider-render after its receives ran out, with no reason recorded \(message id sqs-id\): the render function's log/);
    expect(letter.reason).toMatch(/; an earlier reason, before it was moved back to its queue: HTTP 503 for https:\/\/news\.example\/again\.html$/);
    expect(letter).toMatchObject({ id: 'sqs-id', receiveCount: 8, firstSentAt: '2026-03-14T10:00:00.000Z', deadAt: '' });
    // without the SQS mark, a spider.error is the handler's reason
    const own = deadLetterOf('render', { MessageId: 'm', Body: '{}', Attributes: { SentTimestamp: '1773482400000' }, MessageAttributes: { 'spider.error': { DataType: 'String', StringValue: 'HTTP 404' } } }, false);
    expect(own).toMatchObject({ reason: 'HTTP 404', deadAt: '2026-03-14T10:00:00.000Z', firstSentAt: '' });
  });

  it('a dead letter SQS moved keeps its first send on a standard queue, whose messages may carry a MessageGroupId, and not on a FIFO one', () => {
    // SQS fair queues: a standard queue's messages may carry a MessageGroupId; only the queue's URL tells FIFO
    const moved = { MessageId: 'sqs-id', Body: '{}', Attributes: { SentTimestamp: '1773482400000', ApproximateReceiveCount: '3', MessageGroupId: 'news.example' } };
    expect(deadLetterOf('render', moved, false)).toMatchObject({ firstSentAt: '2026-03-14T10:00:00.000Z', deadAt: '' });
    expect(deadLetterOf('learn', moved, true)).toMatchObject({ firstSentAt: '', deadAt: '' });
  });

  it('says one dead letter not listed, or in flight, in the singular', async () => {
    // an SQS that counts one dead letter visible and one in flight, and returns none
    const sqs = {
      send: async (command: unknown) =>
        command instanceof GetQueueAttributesCommand ? { Attributes: { ApproximateNumberOfMessages: '1', ApproximateNumberOfMessagesNotVisible: '1' } } : {},
    } as unknown as SQSClient;
    const target = { bucket: BUCKET, renderQueueUrl: 'https://sqs.example/render', deadLetterQueueUrls: { render: 'https://sqs.example/render-dlq' } };
    const read = await deployedDeadLetters(target, { sqs });
    expect(read.notes).toEqual([
      expect.stringMatching(/^render: 0 of about 1 dead letter listed, 1 not: the queue answered nothing before all were received/),
      'render: 1 more dead letter was in flight (being received by someone else) and not listed',
    ]);
  });

  it('on a FIFO dead-letter queue, says how many dead letters of a message group it could not list, and leaves them all', { timeout: 60_000 }, async () => {
    // A FIFO queue returns no more of a group while some of it is in flight (AWS: up to 10 in one
    // receive, then nothing; fauxqs: one, then nothing), and the read holds what it received.
    const learn = await emu.createStepQueues('dl-learn-group', { fifo: true, visibilitySeconds: 1, maxReceiveCount: MAX_RECEIVE_COUNT });
    const sender = new SqsDeadLetterSender(learn.dlqUrl, emu.sqs);
    const DEAD = 12;
    for (let i = 0; i < DEAD; i++) await sender.send(record({ v: 1, site: 'many.example', n: i }, learn.arn, 'many.example'), `failure ${i}`);
    await sender.send(record({ v: 1, site: 'other.example' }, learn.arn, 'other.example'), 'failure of another group');
    const before = await depth(learn.dlqUrl);
    expect(before).toEqual({ visible: DEAD + 1, inFlight: 0 });

    const target = { bucket: BUCKET, renderQueueUrl: queues.render.url, learnQueueUrl: learn.url, applyQueueUrl: queues.apply.url, deadLetterQueueUrls: { learn: learn.dlqUrl } };
    const read = await deployedDeadLetters(target, { sqs: emu.sqs });
    const listed = read.letters.filter((d) => d.queue === 'learn').length;
    // every group shows its first; the emulator holds the group back after one
    expect(listed).toBeGreaterThanOrEqual(2);
    expect(listed).toBeLessThan(DEAD + 1);
    // (the render dead-letter queue is the first test's, drained: its note is not this test's)
    expect(read.notes.filter((n) => n.startsWith('learn:'))).toEqual([expect.stringMatching(new RegExp(`^learn: ${listed} of about ${DEAD + 1} dead letters listed, ${DEAD + 1 - listed} not: a FIFO queue returns no more of a message group while its first messages are held`))]);
    // nothing taken: all still visible, and a second read lists the same first ones
    expect(await depth(learn.dlqUrl)).toEqual(before);
    const again = await deployedDeadLetters(target, { sqs: emu.sqs });
    expect(again.letters.map((d) => d.body)).toEqual(read.letters.map((d) => d.body));
  });
});
