/**
 * Lambda's SQS event source mapping, in miniature, for driving the real handlers against the emulator:
 * receive a batch (with the system attributes Lambda asks for), build the SQSEvent Lambda would send,
 * invoke the handler with a Context whose remaining time counts down from the function timeout, then
 *
 * - handler returned `{ batchItemFailures }`: delete every other record; failed ones stay in flight
 *   and come back after the visibility timeout (SQS moves them to the DLQ after maxReceiveCount);
 * - handler threw, timed out, or reported an identifier that is not in the batch: delete nothing
 *   (Lambda treats the whole batch as failed).
 *
 * One poller is one warm Lambda container: it invokes its handler one batch at a time.
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface LambdaPollerOptions {
  readonly name: string;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly handler: SqsHandler;
  readonly batchSize: number;
  /** The function timeout: getRemainingTimeInMillis counts down from it; past it the batch fails. */
  readonly timeoutMs: number;
  readonly region?: string;
}

export interface PollResult {
  readonly received: number;
  readonly deleted: number;
  readonly failed: number;
  /** Set when the whole batch failed: the handler threw, timed out or answered invalid ids. */
  readonly batchError?: string;
}

export class LambdaPoller {
  readonly invocations: { records: number; failed: number; batchError?: string }[] = [];

  constructor(readonly options: LambdaPollerOptions) {}

  /** One receive and, if anything came, one invocation. */
  async pollOnce(): Promise<PollResult> {
    const { sqs, queueUrl, batchSize } = this.options;
    const res = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: batchSize,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = res.Messages ?? [];
    if (messages.length === 0) return { received: 0, deleted: 0, failed: 0 };

    const event: SQSEvent = { Records: messages.map((m) => this.record(m)) };
    const byId = new Map(messages.map((m) => [m.MessageId!, m]));
    let failedIds: Set<string>;
    let batchError: string | undefined;
    try {
      const response = await this.invoke(event);
      const items = response?.batchItemFailures ?? [];
      const unknown = items.filter((i) => !i.itemIdentifier || !byId.has(i.itemIdentifier));
      if (unknown.length) {
        batchError = `invalid batchItemFailures identifiers: ${JSON.stringify(unknown)}`;
        failedIds = new Set(byId.keys());
      } else {
        failedIds = new Set(items.map((i) => i.itemIdentifier));
      }
    } catch (error) {
      batchError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      failedIds = new Set(byId.keys());
    }

    const done = messages.filter((m) => !failedIds.has(m.MessageId!));
    for (let i = 0; i < done.length; i += 10) {
      const chunk = done.slice(i, i + 10);
      const out = await sqs.send(
        new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })) }),
      );
      if (out.Failed?.length) throw new Error(`${this.options.name}: delete failed: ${JSON.stringify(out.Failed)}`);
    }
    this.invocations.push({ records: messages.length, failed: failedIds.size, batchError });
    return { received: messages.length, deleted: done.length, failed: failedIds.size, batchError };
  }

  private async invoke(event: SQSEvent): Promise<SQSBatchResponse | void> {
    const { timeoutMs, name } = this.options;
    const deadline = Date.now() + timeoutMs;
    const context: Context = {
      callbackWaitsForEmptyEventLoop: false,
      functionName: name,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${this.options.region ?? 'us-east-1'}:000000000000:function:${name}`,
      memoryLimitInMB: '1024',
      awsRequestId: randomUUID(),
      logGroupName: `/aws/lambda/${name}`,
      logStreamName: 'emulator',
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
    });
    try {
      return await Promise.race([this.options.handler(event, context), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The record Lambda builds from a received message. */
  private record(m: Message): SQSRecord {
    const a = m.Attributes ?? {};
    const attributes: SQSRecord['attributes'] = {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? 'AIDAEMULATOR',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
      ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
      ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
    };
    const messageAttributes: SQSRecord['messageAttributes'] = {};
    for (const [k, v] of Object.entries(m.MessageAttributes ?? {})) {
      messageAttributes[k] = {
        dataType: v.DataType as SQSRecord['messageAttributes'][string]['dataType'],
        stringValue: v.StringValue,
        binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
        stringListValues: [],
        binaryListValues: [],
      };
    }
    return {
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes,
      messageAttributes,
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: this.options.queueArn,
      awsRegion: this.options.region ?? 'us-east-1',
    };
  }
}

/** Messages visible, in flight and delayed in a queue. */
export async function queueDepth(sqs: SQSClient, queueUrl: string): Promise<{ visible: number; inFlight: number; delayed: number }> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  const n = (k: string) => Number(out.Attributes?.[k as keyof typeof out.Attributes] ?? 0);
  return { visible: n('ApproximateNumberOfMessages'), inFlight: n('ApproximateNumberOfMessagesNotVisible'), delayed: n('ApproximateNumberOfMessagesDelayed') };
}

/**
 * Polls every poller until all their queues are empty (nothing visible, in flight or delayed),
 * like Lambda's pollers running side by side. Pollers run concurrently, each one batch at a time.
 */
export async function runUntilIdle(pollers: readonly LambdaPoller[], options: { timeoutMs: number; idleSleepMs?: number }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const idleSleep = options.idleSleepMs ?? 100;
  const busy = new Set<LambdaPoller>();
  const loops = pollers.map(async (poller) => {
    while (Date.now() < deadline) {
      const result = await poller.pollOnce();
      if (result.received > 0) {
        busy.add(poller);
        continue;
      }
      busy.delete(poller);
      const depths = await Promise.all(pollers.map((p) => queueDepth(p.options.sqs, p.options.queueUrl)));
      if (busy.size === 0 && depths.every((d) => d.visible + d.inFlight + d.delayed === 0)) return;
      await new Promise((r) => setTimeout(r, idleSleep));
    }
    throw new Error(`${poller.options.name}: queues not drained within ${options.timeoutMs} ms`);
  });
  await Promise.all(loops);
}

/**
 * Imports a handler module with the environment its Lambda function gets from the stack (a module
 * reads its per-function settings when it loads), then takes those variables away again.
 */
export async function importHandler<M>(load: () => Promise<M>, env: Record<string, string>): Promise<M> {
  Object.assign(process.env, env);
  try {
    return await load();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}
