/**
 * A deployed stack's dead letters, read without taking them: `spider dead-letters`, and `spider
 * article <url>` saying why a URL has no article, as on the embedded store.
 *
 * SQS has no "peek". Each step's dead-letter queue (named by the stack outputs, or found from its
 * queue's redrive policy, as `spider status` finds it) is received from until it answers nothing,
 * each message hidden for a short while so that the next receive gets the others; then every
 * message received is made visible again at once (ChangeMessageVisibility 0). Nothing is deleted: the
 * dead letters stay in their queues, for `start-message-move-task` or a later read. Should this process
 * die in between, they come back by themselves when the hiding ends (HOLD_SECONDS). The dead-letter
 * queues have no redrive policy of their own, so the receives this read adds move nothing.
 *
 * On a FIFO dead-letter queue (the learn step's) that cannot list them all: a message group's
 * messages in flight hold back the rest of the group, so while this read hides a group's first batch
 * (up to 10 in one receive on AWS; one on the fauxqs emulator) SQS returns nothing more of it, and
 * making them visible again gives the same first ones back. Nothing short of deleting reads further.
 * So each queue's ApproximateNumberOfMessages is read first, and a note says how many were not listed
 * (on a standard queue too, should it ever answer empty early).
 *
 * A dead letter says why when the handler put it there (message attribute `spider.error`,
 * lib/aws/sqs-records.ts); one SQS moved after its receives ran out carries no reason, and says so
 * and where to look (the step's function's log: its failures under the message id, or an invocation
 * that timed out or ran out of memory; docs/aws.md). SQS marks what it moved with the system attribute
 * `DeadLetterQueueSourceArn`: such a message that also carries a `spider.error` is an older dead letter
 * moved back to its queue that failed again, and its `spider.error` is an earlier reason, not this one.
 *
 * Times and receives, from what SQS keeps: SentTimestamp is when the message was sent to the queue it
 * is on. For the handler's dead letters that is when they died (`deadAt`; their first send is not
 * carried: `firstSentAt` ''). SQS keeps a standard queue's message's SentTimestamp through the move, so
 * for those it is the first send (`firstSentAt`; for one moved back to its queue before, the send of its
 * last redrive: a redriven message is a new message, with a new message id and send time) and the time of
 * death is unknown (`deadAt` ''); AWS resets a FIFO queue's enqueue time at the move, so on the learn
 * queue neither is known. Receives: the handler's `spider.receiveCount`, or for a message SQS moved its
 * ApproximateReceiveCount less this read's own receive (earlier reads of the dead-letter queue count in
 * it too). The listing is ordered by SentTimestamp, oldest first, so a dead letter SQS moved stands at
 * its first send, before letters that died earlier than it did.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DeadLetter } from '../queue/memory-queue';
import type { StatusQueueName } from '../queue/status';
import { plural } from '../text/plural';
import { LONG_POLL_SECONDS, sqsClient } from './clients';
import { deadLetterQueueOf } from './queue-status';
import { MESSAGE_ATTRIBUTES as ATTRIBUTES } from './sqs-records';
import type { AwsTarget } from './stack-outputs';

/** Seconds a received dead letter stays hidden while the read goes on (made visible again at its end). */
const HOLD_SECONDS = 60;
/** Most dead letters read from one queue. */
const MAX_PER_QUEUE = 1000;

export interface DeployedDeadLetters {
  /** By SentTimestamp, oldest first (a dead letter SQS moved at its first send, not its death); '' for a time not known. */
  readonly letters: DeadLetter[];
  /** Why some could not be read, or not all of them (a queue without a dead-letter queue, the cap). */
  readonly notes: string[];
}

/** Every dead letter of the stack's queues (fetch, render, learn, apply), left where it is. */
export async function deployedDeadLetters(target: AwsTarget, options: { sqs?: SQSClient } = {}): Promise<DeployedDeadLetters> {
  const sqs = options.sqs ?? sqsClient();
  const urls: Partial<Record<StatusQueueName, string>> = { fetch: target.fetchQueueUrl, render: target.renderQueueUrl, learn: target.learnQueueUrl, apply: target.applyQueueUrl };
  const notes: string[] = [];
  const perQueue = await Promise.all(
    (Object.keys(urls) as StatusQueueName[]).map(async (queue) => {
      const url = urls[queue];
      if (!url) return [];
      const dlqUrl = target.deadLetterQueueUrls?.[queue] ?? (await redriveTarget(sqs, url));
      if (!dlqUrl) {
        notes.push(`${queue}: no dead-letter queue found (no RedrivePolicy)`);
        return [];
      }
      const before = await depthOf(sqs, dlqUrl);
      const { messages, capped } = await peek(sqs, dlqUrl);
      if (capped) notes.push(`${queue}: the first ${MAX_PER_QUEUE} dead letters read, there are more`);
      else if (messages.length < before.visible) notes.push(unlisted(queue, dlqUrl, messages.length, before.visible));
      if (before.inFlight > 0) notes.push(`${queue}: ${plural(before.inFlight, 'more dead letter')} ${before.inFlight === 1 ? 'was' : 'were'} in flight (being received by someone else) and not listed`);
      return messages.map((m) => ({ sent: Number(m.Attributes?.SentTimestamp) || 0, letter: deadLetterOf(queue, m, dlqUrl.endsWith('.fifo')) }));
    }),
  );
  const letters = perQueue
    .flat()
    .sort((a, b) => a.sent - b.sent)
    .map((d) => d.letter);
  return { letters, notes };
}

/** The queue's counts before the read: visible (ApproximateNumberOfMessages) and in flight. */
async function depthOf(sqs: SQSClient, queueUrl: string): Promise<{ visible: number; inFlight: number }> {
  const attrs =
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes ?? {};
  return { visible: Number(attrs.ApproximateNumberOfMessages) || 0, inFlight: Number(attrs.ApproximateNumberOfMessagesNotVisible) || 0 };
}

/** Why fewer dead letters were listed than the queue holds. */
function unlisted(queue: StatusQueueName, queueUrl: string, listed: number, held: number): string {
  const why = queueUrl.endsWith('.fifo')
    ? 'a FIFO queue returns no more of a message group while its first messages are held, so only the first of each group are listed'
    : 'the queue answered nothing before all were received';
  return `${queue}: ${listed} of about ${plural(held, 'dead letter')} listed, ${held - listed} not: ${why} (they stay in the queue; SQS returns them only once those before them are deleted or moved)`;
}

async function redriveTarget(sqs: SQSClient, queueUrl: string): Promise<string | undefined> {
  const attrs = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['RedrivePolicy'] }))).Attributes ?? {};
  return deadLetterQueueOf(sqs, attrs.RedrivePolicy);
}

/** The queue's messages, each received once and made visible again before returning. */
async function peek(sqs: SQSClient, queueUrl: string): Promise<{ messages: Message[]; capped: boolean }> {
  const messages = new Map<string, Message>();
  const handles: string[] = [];
  let capped = false;
  try {
    for (;;) {
      if (messages.size >= MAX_PER_QUEUE) {
        capped = true;
        break;
      }
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: HOLD_SECONDS,
          // long polling asks every SQS server: a short poll may answer nothing while messages remain
          WaitTimeSeconds: LONG_POLL_SECONDS,
          MessageAttributeNames: ['All'],
          MessageSystemAttributeNames: ['All'],
        }),
      );
      if (!out.Messages?.length) break;
      for (const m of out.Messages) {
        if (m.ReceiptHandle) handles.push(m.ReceiptHandle);
        if (m.MessageId && !messages.has(m.MessageId)) messages.set(m.MessageId, m);
      }
    }
  } finally {
    // visible again at once: the dead letters stay in their queue as they were
    for (let i = 0; i < handles.length; i += 10) {
      const batch = handles.slice(i, i + 10);
      await sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((ReceiptHandle, k) => ({ Id: String(k), ReceiptHandle, VisibilityTimeout: 0 })),
        }),
      );
    }
  }
  return { messages: [...messages.values()], capped };
}

/**
 * A dead letter of the deployed stack in the embedded store's shape (what `dead-letters` and `article`
 * read), from a message received with all its message and system attributes (once: its own receive
 * is taken off ApproximateReceiveCount). `fifo`: whether the dead-letter queue is FIFO, from its URL (a
 * `.fifo` name), as elsewhere: a message's MessageGroupId does not tell, a standard queue's messages
 * carry one too on SQS fair queues.
 */
export function deadLetterOf(queue: StatusQueueName, m: Message, fifo: boolean): DeadLetter {
  const attr = (name: string) => m.MessageAttributes?.[name]?.StringValue;
  const sent = Number(m.Attributes?.SentTimestamp);
  const sentAt = Number.isFinite(sent) && sent > 0 ? new Date(sent).toISOString() : '';
  const messageId = attr(ATTRIBUTES.messageId) ?? m.MessageId ?? '';
  const error = attr(ATTRIBUTES.error);
  const sourceArn = m.Attributes?.DeadLetterQueueSourceArn;
  if (error !== undefined && sourceArn === undefined) {
    // the handler sent it here when it failed for good, with the reason and its receives
    return { id: messageId, queue, body: parseBody(m.Body ?? ''), reason: error, receiveCount: Number(attr(ATTRIBUTES.receiveCount) ?? 0) || 0, firstSentAt: '', deadAt: sentAt, errors: [] };
  }
  // SQS's redrive moved it after its receives ran out: no handler said why this time. Its failures are
  // logged under the id it had on the step's queue, which the move keeps (a spider.messageId is older)
  const id = m.MessageId ?? messageId;
  const from = sourceArn ? ` from ${sourceArn.split(':').pop()}` : '';
  const moved =
    `moved here by SQS${from} after its receives ran out, with no reason recorded (message id ${id}): ` +
    `the ${queue} function's log has its failures, or an invocation that timed out or ran out of memory`;
  const received = Number(m.Attributes?.ApproximateReceiveCount);
  return {
    id,
    queue,
    body: parseBody(m.Body ?? ''),
    // a spider.error on a message SQS moved is from an earlier death, before it was moved back
    reason: error === undefined ? moved : `${moved}; an earlier reason, before it was moved back to its queue: ${error}`,
    receiveCount: Number.isFinite(received) && received > 0 ? received - 1 : 0,
    firstSentAt: fifo ? '' : sentAt,
    deadAt: '',
    errors: [],
  };
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
