/**
 * What a page costs on AWS, measured: the real handlers of functions/ (fetch, render, learn, apply)
 * with the S3 and SQS adapters and the AWS SDK, against the fauxqs emulator (infra-tests/emulator.ts),
 * real Chromium, and generated sites served on 127.0.0.1, driven one batch at a time as Lambda's event
 * source mappings drive them (infra-tests/lambda-poller.ts).
 *
 *   npx tsx scripts/aws-cost-bench.ts [--sites 3] [--render-pages 10] [--fetch-pages 20] [--delay-ms 0] [--json out.json]
 *   npx tsx scripts/aws-cost-bench.ts --from out.json      # the cost table again from a saved run
 *
 * Three kinds of page, per site:
 *   unknown        the site's first 5 pages, submitted to the intake (the fetch queue): forwarded to
 *                  render, rendered, applied with the fallback, learned (the learn that writes the rules
 *                  and the re-extraction of the 5 pages it asks for are counted here);
 *   learned-render `--render-pages` more pages sent to the render queue (as the intake forwards a page in
 *                  the render sample or after a drift), rendered and extracted with the rules; the
 *                  intake's forwarding cost per page (measured on the unknown pages) is added;
 *   learned-fetch  `--fetch-pages` more pages outside the render sample, submitted to the intake: fetched
 *                  and extracted with the rules, no browser.
 *
 * Per kind and function: invocations, records, wall time and Node CPU time of the handler, and the S3
 * and SQS requests the handlers make (counted by command on the SDK clients), plus the event source's
 * ReceiveMessage and DeleteMessageBatch and the submitter's SendMessageBatch. The handlers run one at a
 * time, so CPU time is the handler's own. Politeness waits are left out (SPIDER_HOST_INTERVAL_MS=0).
 * `--delay-ms` delays every response of the sites (a remote site's latency; render's subresources too).
 *
 * Then prints the cost per 1,000 pages of each kind (`costTable`, docs/aws.md#cost-per-1000-pages) from
 * AWS's published us-east-1 list prices (PRICES, with their date). A handler's Lambda duration is its
 * wall time here, its Node CPU time stretched by the share of a vCPU its memory buys (1,769 MB = 1 vCPU:
 * a 512 MB function gets 0.29 of one, so its CPU-bound part takes 3.5 times as long); render's Chromium
 * runs in other processes and is taken at its wall time here.
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { writeFile } from 'node:fs/promises';
import { startEmulator, type Emulator, type StepQueues } from '../infra-tests/emulator';
import { LambdaPoller, importHandler, queueDepth, type SqsHandler } from '../infra-tests/lambda-poller';
import { s3Client, sqsClient } from '../lib/aws/clients';
import { DeployedStack } from '../lib/aws/deployed-stack';
import { SqsQueueSender } from '../lib/aws/sqs-queue';
import { scriptArgs } from '../lib/util/script-args';
import { PRICES } from './aws-prices';
import { articlesOf, generateSite, serveSite, type ServedSite } from '../lib/demo/index';
import { TEMPLATE_IDS } from '../lib/demo/site-generator';
import { inRenderSample } from '../lib/step/route';
import { pageIdOf } from '../lib/store/keys';
import type { RenderMessage } from '../lib/types/messages';

const { values: args } = scriptArgs(
  {
    options: {
      sites: { type: 'string', default: '3' },
      'render-pages': { type: 'string', default: '10' },
      'fetch-pages': { type: 'string', default: '20' },
      'delay-ms': { type: 'string', default: '0' },
      json: { type: 'string' },
      from: { type: 'string' },
    },
  },
  'usage: npx tsx scripts/aws-cost-bench.ts [--sites 3] [--render-pages 10] [--fetch-pages 20] [--delay-ms 0] [--json out.json]\n' +
    '       npx tsx scripts/aws-cost-bench.ts --from out.json      # the cost table again from a saved run',
);
const SITES = Number(args.sites);
const RENDER_PAGES = Number(args['render-pages']);
const FETCH_PAGES = Number(args['fetch-pages']);
const DELAY_MS = Number(args['delay-ms']);
const TRAIN = 5;
const SAMPLE_RATE = 0.05;
const say = (line: string) => process.stderr.write(line + '\n');

type Fn = 'fetch' | 'render' | 'learn' | 'apply';
type Kind = 'unknown' | 'learned-render' | 'learned-fetch';
/** Memory and architecture as deployed (cdk/settings.ts defaults). */
const FUNCTIONS: Record<Fn, { memoryMb: number; arch: 'arm64' | 'x86_64'; batchSize: number; timeoutMs: number; fifo: boolean }> = {
  fetch: { memoryMb: 512, arch: 'arm64', batchSize: 10, timeoutMs: 120_000, fifo: false },
  render: { memoryMb: 2048, arch: 'x86_64', batchSize: 1, timeoutMs: 120_000, fifo: false },
  learn: { memoryMb: 1024, arch: 'arm64', batchSize: 1, timeoutMs: 120_000, fifo: true },
  apply: { memoryMb: 512, arch: 'arm64', batchSize: 10, timeoutMs: 60_000, fifo: false },
};

interface FnStats {
  invocations: number;
  records: number;
  wallMs: number;
  cpuMs: number;
  /** Requests by the handler, by `<service>:<command>`. */
  requests: Record<string, number>;
  /** Event source: ReceiveMessage with messages, DeleteMessageBatch. */
  esmRequests: number;
}
const emptyStats = (): FnStats => ({ invocations: 0, records: 0, wallMs: 0, cpuMs: 0, requests: {}, esmRequests: 0 });
let stats: Record<Fn, FnStats>;
let current: Fn | undefined;
/** Requests made outside a handler (the submitter). */
let outside: Record<string, number> = {};

function countRequests(service: 'S3' | 'SQS', client: { middlewareStack: { add: (...a: never[]) => void } }): void {
  const add = client.middlewareStack.add as unknown as (mw: unknown, opts: unknown) => void;
  add(
    (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => async (a: unknown) => {
      const key = `${service}:${context.commandName ?? 'unknown'}`;
      const into = current ? stats[current].requests : outside;
      into[key] = (into[key] ?? 0) + 1;
      return next(a);
    },
    { step: 'initialize', name: `spiderBenchCount${service}` },
  );
}

function timed(fn: Fn, handler: SqsHandler): SqsHandler {
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse | void> => {
    current = fn;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    try {
      return await handler(event, context);
    } finally {
      const cpu = process.cpuUsage(c0);
      const s = stats[fn];
      s.invocations++;
      s.records += event.Records.length;
      s.wallMs += performance.now() - t0;
      s.cpuMs += (cpu.user + cpu.system) / 1000;
      current = undefined;
    }
  };
}

const VCPU_MB = 1769;

interface PhaseResult {
  pages: number;
  wallSeconds: number;
  submitBatches: number;
  functions: Record<Fn, FnStats>;
}

/** Per page of a kind: GB-seconds by architecture, Lambda requests, SQS requests, S3 requests, and dollars. */
export function perPage(result: PhaseResult, intake?: { result: PhaseResult }) {
  const acc = { gbSecondsX86: 0, gbSecondsArm: 0, lambdaRequests: 0, sqsRequests: result.submitBatches, s3Put: 0, s3Get: 0, durationMs: {} as Record<string, number> };
  const addFn = (fn: Fn, s: FnStats, share: number) => {
    if (s.invocations === 0) return;
    const spec = FUNCTIONS[fn];
    const stretch = Math.max(1, VCPU_MB / spec.memoryMb);
    const ms = s.wallMs + s.cpuMs * (stretch - 1);
    const gbs = ((ms / 1000) * spec.memoryMb) / 1024;
    if (spec.arch === 'x86_64') acc.gbSecondsX86 += gbs * share;
    else acc.gbSecondsArm += gbs * share;
    acc.durationMs[fn] = (acc.durationMs[fn] ?? 0) + (ms / Math.max(1, s.records)) * (share === 1 ? 1 : 1);
    acc.lambdaRequests += s.invocations * share;
    acc.sqsRequests += s.esmRequests * share;
    for (const [k, n] of Object.entries(s.requests)) {
      if (k.startsWith('SQS:')) acc.sqsRequests += n * share;
      else if (/PutObject|ListObjects|CopyObject/.test(k)) acc.s3Put += n * share;
      else if (!/DeleteObject/.test(k)) acc.s3Get += n * share;
    }
  };
  for (const fn of Object.keys(result.functions) as Fn[]) addFn(fn, result.functions[fn], 1);
  // The intake's forwarding of a page to render (measured where every page was forwarded), per page.
  if (intake) {
    const f = intake.result.functions.fetch;
    addFn('fetch', f, result.pages / Math.max(1, f.records));
    acc.sqsRequests += intake.result.submitBatches * (result.pages / intake.result.pages);
  }
  const n = result.pages;
  const per = {
    gbSecondsX86: acc.gbSecondsX86 / n,
    gbSecondsArm: acc.gbSecondsArm / n,
    lambdaRequests: acc.lambdaRequests / n,
    sqsRequests: acc.sqsRequests / n,
    s3Put: acc.s3Put / n,
    s3Get: acc.s3Get / n,
  };
  const dollars = {
    lambdaCompute: per.gbSecondsX86 * PRICES.lambdaGbSecond.x86_64 + per.gbSecondsArm * PRICES.lambdaGbSecond.arm64,
    lambdaRequests: per.lambdaRequests * PRICES.lambdaRequest,
    sqs: per.sqsRequests * PRICES.sqsRequest,
    s3: per.s3Put * PRICES.s3Put + per.s3Get * PRICES.s3Get,
  };
  return { ...per, dollars: { ...dollars, total: dollars.lambdaCompute + dollars.lambdaRequests + dollars.sqs + dollars.s3 } };
}

export function costTable(results: Record<Kind, PhaseResult>): string {
  const rows: [string, ReturnType<typeof perPage>][] = [
    ['unknown site', perPage(results.unknown)],
    ['learned site, render path', perPage(results['learned-render'], { result: results.unknown })],
    ['learned site, fetch path', perPage(results['learned-fetch'])],
  ];
  const k = (x: number, d = 2) => (x * 1000).toFixed(d);
  const usd = (x: number) => `$${(x * 1000).toFixed(4)}`;
  const lines = [
    '| per 1,000 pages | Lambda GB-s x86_64 | Lambda GB-s arm64 | Lambda requests | SQS requests | S3 PUT/LIST | S3 GET | Lambda compute | Lambda requests | SQS | S3 | total |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(([name, r]) =>
      `| ${name} | ${k(r.gbSecondsX86, 0)} | ${k(r.gbSecondsArm, 1)} | ${k(r.lambdaRequests, 0)} | ${k(r.sqsRequests, 0)} | ${k(r.s3Put, 0)} | ${k(r.s3Get, 0)} | ${usd(r.dollars.lambdaCompute)} | ${usd(r.dollars.lambdaRequests)} | ${usd(r.dollars.sqs)} | ${usd(r.dollars.s3)} | **${usd(r.dollars.total)}** |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (args.from) {
    const saved = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile(args.from!, 'utf8')));
    process.stdout.write(costTable(saved.results) + '\n');
    return;
  }
  const emu: Emulator = await startEmulator();
  const bucket = 'spider-cost-bench';
  await emu.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const queues = {} as Record<Fn, StepQueues>;
  for (const fn of Object.keys(FUNCTIONS) as Fn[]) {
    queues[fn] = await emu.createStepQueues(`spider-${fn}`, { fifo: FUNCTIONS[fn].fifo, visibilitySeconds: 5, maxReceiveCount: 3 });
  }

  const served: ServedSite[] = [];
  const sites = Array.from({ length: SITES }, (_, i) => generateSite({ seed: `cost-bench-${i}`, pagesPerTemplate: TRAIN + RENDER_PAGES + 2 * FETCH_PAGES, templates: 1 }));
  for (const [i, site] of sites.entries()) served.push(await serveSite(site, { hostname: `${TEMPLATE_IDS[i % TEMPLATE_IDS.length]}-${i}.localhost`, delayMs: DELAY_MS }));

  Object.assign(process.env, {
    ...emu.env(),
    SPIDER_BUCKET: bucket,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    SPIDER_ALLOW_HOSTS: '127.0.0.1,localhost,*.localhost',
    SPIDER_HOST_INTERVAL_MS: '0',
    SPIDER_RENDER_SAMPLE_RATE: String(SAMPLE_RATE),
    SPIDER_RELEARN_AFTER: '1000',
  });
  // The handlers' EMF metric lines are not wanted here.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    String(chunk).includes('"_aws"') ? true : (write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  stats = { fetch: emptyStats(), render: emptyStats(), learn: emptyStats(), apply: emptyStats() };
  countRequests('S3', s3Client() as never);
  countRequests('SQS', sqsClient() as never);

  const handlers: Record<Fn, SqsHandler> = {
    fetch: (await importHandler(() => import('../functions/fetch'), { SPIDER_DEAD_LETTER_QUEUE_URL: queues.fetch.dlqUrl, SPIDER_RENDER_QUEUE_URL: queues.render.url, SPIDER_APPLY_QUEUE_URL: queues.apply.url })).handler,
    render: undefined as unknown as SqsHandler,
    learn: (await importHandler(() => import('../functions/learn'), { SPIDER_DEAD_LETTER_QUEUE_URL: queues.learn.dlqUrl, SPIDER_APPLY_QUEUE_URL: queues.apply.url })).handler,
    apply: (await importHandler(() => import('../functions/apply'), { SPIDER_DEAD_LETTER_QUEUE_URL: queues.apply.dlqUrl, SPIDER_LEARN_QUEUE_URL: queues.learn.url, SPIDER_RENDER_QUEUE_URL: queues.render.url })).handler,
  };
  const renderModule = await importHandler(() => import('../functions/render'), {
    SPIDER_DEAD_LETTER_QUEUE_URL: queues.render.dlqUrl,
    SPIDER_APPLY_QUEUE_URL: queues.apply.url,
    SPIDER_LEARN_QUEUE_URL: queues.learn.url,
    SPIDER_FETCH_PATH: 'false',
  });
  handlers.render = renderModule.handler;
  const pollers = (Object.keys(FUNCTIONS) as Fn[]).map(
    (fn) =>
      [fn, new LambdaPoller({ name: `spider-${fn}`, sqs: emu.sqs, queueUrl: queues[fn].url, queueArn: queues[fn].arn, handler: timed(fn, handlers[fn]), batchSize: FUNCTIONS[fn].batchSize, timeoutMs: FUNCTIONS[fn].timeoutMs })] as const,
  );

  /** Polls each function in turn, one batch at a time, until every queue is empty. */
  const drain = async () => {
    for (;;) {
      let any = false;
      for (const [fn, p] of pollers) {
        const before = p.invocations.length;
        const r = await p.pollOnce();
        if (r.received > 0) {
          any = true;
          stats[fn].esmRequests += 1 + (r.deleted > 0 ? Math.ceil(r.deleted / 10) : 0);
        } else if (p.invocations.length !== before) throw new Error('unexpected');
      }
      if (any) continue;
      const depths = await Promise.all(pollers.map(([, p]) => queueDepth(emu.sqs, p.options.queueUrl)));
      if (depths.every((d) => d.visible + d.inFlight + d.delayed === 0)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const stack = new DeployedStack({ bucket, fetchQueueUrl: queues.fetch.url, renderQueueUrl: queues.render.url }, { s3: emu.s3, sqs: emu.sqs });
  const renderQueue = new SqsQueueSender<RenderMessage>({ queueUrl: queues.render.url, client: emu.sqs });
  const urls = sites.map((site, i) => articlesOf(site).map((p) => served[i].url(p.path)));
  const results: Record<string, unknown> = {};

  const phase = async (kind: Kind, pages: string[], submit: (pages: string[]) => Promise<void>) => {
    stats = { fetch: emptyStats(), render: emptyStats(), learn: emptyStats(), apply: emptyStats() };
    outside = {};
    const t0 = performance.now();
    await submit(pages);
    const submitBatches = Math.ceil(pages.length / 10);
    await drain();
    results[kind] = { pages: pages.length, wallSeconds: (performance.now() - t0) / 1000, submitBatches, functions: stats };
    say(`${kind}: ${pages.length} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const toIntake = async (pages: string[]) => {
    for (let i = 0; i < pages.length; i += 10) {
      const r = await stack.submit(pages.slice(i, i + 10).map((url) => ({ url })));
      if (r.rejected.length) throw new Error(JSON.stringify(r.rejected));
    }
  };
  const toRender = async (pages: string[]) => {
    const r = await renderQueue.sendBatch(pages.map((url) => ({ body: { v: 1, url } })));
    if (r.failed.length) throw new Error(JSON.stringify(r.failed));
  };

  await phase('unknown', urls.flatMap((u) => u.slice(0, TRAIN)), toIntake);
  await phase('learned-render', urls.flatMap((u) => u.slice(TRAIN, TRAIN + RENDER_PAGES)), toRender);
  await phase('learned-fetch', urls.flatMap((u) => u.slice(TRAIN + RENDER_PAGES).filter((url) => !inRenderSample(pageIdOf(url), SAMPLE_RATE)).slice(0, FETCH_PAGES)), toIntake);

  await renderModule.closeBrowser();
  for (const s of served) await s.close();
  await emu.stop();
  process.stdout.write = write;

  const out = { date: new Date().toISOString(), sites: SITES, delayMs: DELAY_MS, functions: FUNCTIONS, prices: PRICES, results };
  if (args.json) await writeFile(args.json, JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(costTable(results as Record<Kind, PhaseResult>) + '\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
