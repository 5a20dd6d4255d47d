/**
 * A deployed Spider stack as the CLI sees it (`spider submit | relearn | articles | article | rules`
 * against AWS): the same operations as the embedded pipeline's submit/relearn, on SQS and S3.
 *
 *   const target = loadAwsTarget();            // SPIDER_BUCKET... or SPIDER_STACK_OUTPUTS=cdk-outputs.json
 *   if (target) { const stack = new DeployedStack(target); await stack.submit([{ url }]); stack.store... }
 *
 * Submission sends render messages with SendMessageBatch (10 a call) to the stack's intake: the fetch
 * queue (its function routes each page: fetched, or sent on to render; docs/aws.md), or the render
 * queue of a stack without one. Every URL that is not sent comes
 * back with a reason: invalid URL, archived HTML too large or not stored, or SQS's rejection.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { SqsQueueSender } from './sqs-queue';
import { keys, pageIdOf, siteOf } from '../store/keys';
import { S3Store } from './s3-store';
import { LearnMessageSchema, RenderMessageSchema, type LearnMessage, type RenderMessage } from '../types/messages';
import { describeError } from '../util/errors';
import { AWS_ENV, type AwsTarget } from './stack-outputs';

export interface Submission {
  readonly url: string;
  /** Archived HTML of the page: stored under archive/ and answered at the page's own URL by render. */
  readonly html?: string;
}

export interface Rejection {
  readonly url: string;
  readonly reason: string;
}

export interface SubmitResult {
  readonly sent: number;
  readonly rejected: Rejection[];
}

export interface DeployedStackOptions {
  readonly s3?: S3Client;
  /** For puts (archived HTML); defaults to `s3` when given, else the process's upload client (S3Store). */
  readonly s3Upload?: S3Client;
  readonly sqs?: SQSClient;
  /** Largest archived HTML accepted (bytes); render refuses larger ones anyway (SPIDER_MAX_HTML_BYTES). */
  readonly maxHtmlBytes?: number;
}

export class DeployedStack {
  readonly store: S3Store;
  /** Where submissions go: the fetch queue, else the render queue. */
  private readonly intake?: SqsQueueSender<RenderMessage>;
  private readonly learn?: SqsQueueSender<LearnMessage>;
  private readonly maxHtmlBytes: number;

  constructor(
    readonly target: AwsTarget,
    options: DeployedStackOptions = {},
  ) {
    this.store = new S3Store({ bucket: target.bucket, client: options.s3, uploadClient: options.s3Upload });
    const intake = target.fetchQueueUrl ?? target.renderQueueUrl;
    if (intake) this.intake = new SqsQueueSender({ queueUrl: intake, client: options.sqs });
    if (target.learnQueueUrl) this.learn = new SqsQueueSender({ queueUrl: target.learnQueueUrl, client: options.sqs });
    this.maxHtmlBytes = options.maxHtmlBytes ?? 10 * 1024 * 1024;
  }

  /** The queue submissions go to (the fetch queue, else the render queue), if any. */
  get intakeQueueUrl(): string | undefined {
    return this.intake?.queueUrl;
  }

  /** Queues URLs for extraction; returns how many were sent and every one that was not, with why. */
  async submit(submissions: readonly Submission[]): Promise<SubmitResult> {
    if (!this.intake) throw new Error(`no intake queue URL (${AWS_ENV.fetchQueueUrl} or ${AWS_ENV.renderQueueUrl}, or the FetchQueueUrl or RenderQueueUrl stack output)`);
    const rejected: Rejection[] = [];
    const entries: { url: string; message: RenderMessage }[] = [];
    const submittedAt = new Date().toISOString();
    for (const s of submissions) {
      if (!URL.canParse(s.url)) {
        rejected.push({ url: s.url, reason: 'not a valid absolute URL' });
        continue;
      }
      const parsed = RenderMessageSchema.safeParse({ v: 1, url: s.url, submittedAt });
      if (!parsed.success) {
        rejected.push({ url: s.url, reason: parsed.error.issues.map((i) => i.message).join('; ') });
        continue;
      }
      const message = parsed.data;
      if (s.html !== undefined) {
        const bytes = Buffer.byteLength(s.html);
        if (bytes > this.maxHtmlBytes) {
          rejected.push({ url: s.url, reason: `archived HTML of ${bytes} bytes is over the ${this.maxHtmlBytes}-byte cap` });
          continue;
        }
        let archiveKey: string;
        try {
          archiveKey = keys.archive(siteOf(s.url), pageIdOf(s.url));
          await this.store.put(archiveKey, s.html, { contentType: 'text/html; charset=utf-8' });
        } catch (error) {
          rejected.push({ url: s.url, reason: `archived HTML not stored: ${describeError(error)}` });
          continue;
        }
        message.archiveKey = archiveKey;
      }
      entries.push({ url: s.url, message });
    }
    const result = await this.intake.sendBatch(entries.map((e) => ({ body: e.message })));
    for (const f of result.failed) rejected.push({ url: entries[f.index].url, reason: `${f.code}: ${f.message}` });
    return { sent: result.sent, rejected };
  }

  /** Asks for a site to be learned now, whatever its count of new pages. */
  async relearn(site: string): Promise<void> {
    if (!this.learn) throw new Error(`no learn queue URL (${AWS_ENV.learnQueueUrl} or the LearnQueueUrl stack output)`);
    const message = LearnMessageSchema.parse({ v: 1, site, force: true });
    await this.learn.send(message, { groupId: site, deduplicationId: `${site}:force:${Date.now()}` });
  }
}
