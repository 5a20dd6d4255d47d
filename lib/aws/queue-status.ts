/**
 * `spider status` on a deployed stack: each queue's messages from SQS GetQueueAttributes (visible,
 * in flight, delayed; its dead-letter queue's count), the age of its oldest message from CloudWatch
 * (SQS publishes `ApproximateAgeOfOldestMessage` as a metric only, once a minute; GetQueueAttributes
 * has no such attribute), and what the bucket holds (lib/store/summary.ts).
 */
import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { GetQueueAttributesCommand, GetQueueUrlCommand, type QueueAttributeName, type SQSClient } from '@aws-sdk/client-sqs';
import type { S3Client } from '@aws-sdk/client-s3';
import type { QueueCounts, QueueName, SpiderStatus, StatusQueueName } from '../queue/status';
import { summarizeStore } from '../store/summary';
import { describeError } from '../util/errors';
import { cloudWatchClientConfig, sqsClient } from './clients';
import { S3Store } from './s3-store';
import type { AwsTarget } from './stack-outputs';

const WORK_ATTRIBUTES: QueueAttributeName[] = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'RedrivePolicy',
  'QueueArn',
];

/**
 * A work queue's counts from its GetQueueAttributes answer and its dead-letter queue's, and the age
 * of its oldest message (null: unknown, `ageNote` says why).
 */
export function summarizeStatus(
  attributes: Readonly<Record<string, string | undefined>>,
  deadLetterAttributes: Readonly<Record<string, string | undefined>> | undefined,
  age: { readonly seconds: number | null; readonly note?: string },
): QueueCounts {
  const n = (attrs: Readonly<Record<string, string | undefined>> | undefined, name: string) => Number(attrs?.[name] ?? 0) || 0;
  const pending = n(attributes, 'ApproximateNumberOfMessages') + n(attributes, 'ApproximateNumberOfMessagesDelayed');
  const deadLettered = deadLetterAttributes
    ? n(deadLetterAttributes, 'ApproximateNumberOfMessages') + n(deadLetterAttributes, 'ApproximateNumberOfMessagesNotVisible')
    : 0;
  // Nothing pending: nothing old, whatever CloudWatch last saw.
  const oldestPendingAgeSeconds = pending === 0 ? 0 : age.seconds;
  const notes = [
    ...(pending > 0 && age.seconds === null && age.note ? [age.note] : []),
    ...(deadLetterAttributes ? [] : ['no dead-letter queue found (no RedrivePolicy)']),
  ];
  return {
    pending,
    inFlight: n(attributes, 'ApproximateNumberOfMessagesNotVisible'),
    deadLettered,
    oldestPendingAgeSeconds,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

export interface DeployedStatusOptions {
  readonly sqs?: SQSClient;
  readonly s3?: S3Client;
  readonly cloudWatch?: CloudWatchClient;
}

const queueNameOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** The ages CloudWatch last recorded for these queues (its Maximum over the last 10 minutes). */
async function oldestAges(client: CloudWatchClient, queueNames: readonly string[]): Promise<{ ages: Map<string, number>; error?: string }> {
  const end = new Date();
  const start = new Date(end.getTime() - 10 * 60_000);
  try {
    const out = await client.send(
      new GetMetricDataCommand({
        StartTime: start,
        EndTime: end,
        ScanBy: 'TimestampDescending',
        MetricDataQueries: queueNames.map((name, i) => ({
          Id: `q${i}`,
          MetricStat: {
            Metric: { Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage', Dimensions: [{ Name: 'QueueName', Value: name }] },
            Period: 60,
            Stat: 'Maximum',
          },
        })),
      }),
      { abortSignal: AbortSignal.timeout(10_000) },
    );
    const ages = new Map<string, number>();
    for (const r of out.MetricDataResults ?? []) {
      const i = Number(r.Id?.slice(1));
      if (r.Values?.length) ages.set(queueNames[i], r.Values[0]);
    }
    return { ages };
  } catch (error) {
    return { ages: new Map(), error: describeError(error) };
  }
}

/** Queue counts and store summary of a deployed stack. */
export async function deployedStatus(target: AwsTarget, options: DeployedStatusOptions = {}): Promise<SpiderStatus> {
  const sqs = options.sqs ?? sqsClient();
  // The fetch queue only when the stack has one (older stacks take URLs on the render queue).
  const urls: Partial<Record<StatusQueueName, string>> = { ...(target.fetchQueueUrl ? { fetch: target.fetchQueueUrl } : {}), render: target.renderQueueUrl, learn: target.learnQueueUrl, apply: target.applyQueueUrl };
  const cloudWatch = options.cloudWatch ?? new CloudWatchClient({ ...cloudWatchClientConfig(), maxAttempts: 1 });
  const names = Object.values(urls).filter((u): u is string => Boolean(u)).map(queueNameOf);
  const [cw, store, ...perQueue] = await Promise.all([
    oldestAges(cloudWatch, names),
    summarizeStore(new S3Store({ bucket: target.bucket, client: options.s3 })),
    ...(Object.keys(urls) as StatusQueueName[]).map(async (q) => {
      const url = urls[q];
      if (!url) return [q, undefined] as const;
      const attrs = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: WORK_ATTRIBUTES }))).Attributes ?? {};
      const dlqUrl = target.deadLetterQueueUrls?.[q] ?? (await deadLetterQueueOf(sqs, attrs.RedrivePolicy));
      const dlq = dlqUrl
        ? ((await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes ?? {})
        : undefined;
      return [q, { attrs, dlq, name: queueNameOf(url) }] as const;
    }),
  ]);
  if (!options.cloudWatch) cloudWatch.destroy();
  const queues = {} as Record<QueueName, QueueCounts> & Partial<Record<'fetch', QueueCounts>>;
  for (const [q, got] of perQueue) {
    if (!got) {
      queues[q] = { pending: 0, inFlight: 0, deadLettered: 0, oldestPendingAgeSeconds: null, note: 'no queue URL configured' };
      continue;
    }
    const seconds = cw.ages.get(got.name);
    const note = cw.error ? `age of oldest message unknown: CloudWatch answered ${cw.error}` : 'age of oldest message unknown: no CloudWatch datapoint in the last 10 minutes';
    queues[q] = summarizeStatus(got.attrs, got.dlq, { seconds: seconds ?? null, note });
  }
  return { where: 'aws', location: `s3://${target.bucket}`, at: new Date().toISOString(), queues, store };
}

/** The URL of the dead-letter queue a RedrivePolicy names (by ARN), if any. */
export async function deadLetterQueueOf(sqs: SQSClient, redrivePolicy: string | undefined): Promise<string | undefined> {
  if (!redrivePolicy) return undefined;
  const arn = (JSON.parse(redrivePolicy) as { deadLetterTargetArn?: string }).deadLetterTargetArn;
  if (!arn) return undefined;
  const [, , , , account, name] = arn.split(':');
  const out = await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }));
  return out.QueueUrl;
}
