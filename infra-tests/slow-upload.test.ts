/**
 * Uploads over a slow link, through the real AWS SDK against the emulator behind a proxy on 127.0.0.1
 * that reads what the client sends at 2 MiB/s (and passes the answers back at once): a user's uplink,
 * scaled with the clients' timeouts (a tenth of a second to seconds here, seconds in
 * CLIENT_TIMEOUTS). What it showed: a PutObject whose body is still flowing fails on the socket idle
 * timeout, well before its request timeout: the bytes the kernel took but the link has not carried
 * leave the socket silent to Node. S3Store now puts through a client whose idle timeout is its request
 * timeout (uploadTimeouts), and a large body in parts (MULTIPART_PART_BYTES), each of which must fit
 * in the request timeout, where the whole body had to.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig, uploadTimeouts, type ClientTimeouts } from '../lib/aws/clients';
import { DeployedStack } from '../lib/aws/deployed-stack';
import { MULTIPART_PART_BYTES, S3Store } from '../lib/aws/s3-store';
import { keys, pageIdOf, siteOf } from '../lib/store/keys';
import { REGION, startEmulator, type Emulator } from './emulator';

const BUCKET = 'spider-slow-upload';
/** What the proxy reads of a request body, a second. */
const BYTES_PER_SECOND = 2 * 1024 * 1024;
/**
 * The clients' timeouts, scaled: the whole 10 MiB takes 5 s at that rate, more than the request
 * timeout; a 5 MiB part 2.5 s, less (halfway between, for room on a loaded machine).
 */
const TIMEOUTS: ClientTimeouts = { connectionMs: 1_000, requestMs: 3_750, socketIdleMs: 500 };
const BODY_BYTES = 10 * 1024 * 1024;
const SDK = { region: REGION, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 };

let emu: Emulator;
let proxy: net.Server;
let endpoint: string;
/** Request bytes the proxy has passed on. */
let forwarded = 0;

beforeAll(async () => {
  emu = await startEmulator();
  await emu.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const upstream = new URL(emu.endpoint);
  proxy = net.createServer((client) => {
    const server = net.connect(Number(upstream.port), upstream.hostname);
    server.pipe(client);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.on('end', () => server.end());
    client.on('data', (chunk) => {
      forwarded += chunk.length;
      server.write(chunk);
      // reads no more until the link would have carried this chunk
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / BYTES_PER_SECOND) * 1000);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await emu?.stop();
});

const client = (timeouts: ClientTimeouts) => new S3Client({ ...s3ClientConfig({ AWS_ENDPOINT_URL: endpoint }, timeouts), ...SDK });

describe('uploads over a slow link', () => {
  it('one PutObject of 10 MiB fails on the socket idle timeout while its body is still being read, its request timeout far off', async () => {
    const before = forwarded;
    const error = await client({ ...TIMEOUTS, requestMs: 30_000 })
      .send(new PutObjectCommand({ Bucket: BUCKET, Key: 'probe/one-put.html', Body: Buffer.alloc(BODY_BYTES, 'a') }))
      .then(() => undefined, (e: unknown) => e as Error);
    expect(error?.name).toBe('TimeoutError');
    expect(error?.message).toMatch(/timed out after 500 ms of inactivity/);
    // the link was carrying it: more than a MiB had gone through, not the whole body
    expect(forwarded - before).toBeGreaterThan(1024 * 1024);
    expect(forwarded - before).toBeLessThan(BODY_BYTES);
  });

  it('DeployedStack.submit stores 10 MiB of archived HTML over that link, in 5 MiB parts', async () => {
    const queue = await emu.createQueue('slow-upload-intake');
    const stack = new DeployedStack({ bucket: BUCKET, fetchQueueUrl: queue.url }, { s3: client(TIMEOUTS), s3Upload: client(uploadTimeouts(TIMEOUTS)), sqs: emu.sqs });
    const url = 'https://news.example/2026/11/28/a-long-page.html';
    const html = `<html><body><p>${'word '.repeat((BODY_BYTES - 100) / 5)}</p></body></html>`;
    expect(Buffer.byteLength(html)).toBeGreaterThan(MULTIPART_PART_BYTES);

    const result = await stack.submit([{ url, html }]);

    expect(result.rejected).toEqual([]);
    expect(result.sent).toBe(1);
    const stored = await new S3Store({ bucket: BUCKET, client: emu.s3 }).get(keys.archive(siteOf(url), pageIdOf(url)));
    expect(stored?.body.toString()).toBe(html);
    // a multipart upload's ETag counts its parts
    expect(stored?.etag).toMatch(/-2$/);
  });
});
