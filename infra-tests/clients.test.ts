/**
 * The S3 and SQS clients' timeouts (lib/aws/clients.ts), through the real AWS SDK against servers on
 * 127.0.0.1 that take the connection and then hang: one that never answers, one that trickles its
 * status line forever (the socket is never idle: only the request timeout ends it), one that stops in
 * the middle of a response body. Each call must fail with the SDK's TimeoutError instead of waiting
 * for ever. The tests' timeouts are a fraction of a second; the SDK's retries are off (maxAttempts 1).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUTS, LONG_POLL_SECONDS, s3ClientConfig, sqsClientConfig, type ClientTimeouts } from '../lib/aws/clients';

const TIMEOUTS: ClientTimeouts = { connectionMs: 300, requestMs: 800, socketIdleMs: 400 };
const SDK = { region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 };

/** What a hung server does with each connection it takes, once the request has come. */
type Hang = (socket: net.Socket) => void;

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
const timers = new Set<NodeJS.Timeout>();

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server on 127.0.0.1 that accepts every connection and reads the request; `hang` says what it answers. */
async function hungServer(hang: Hang): Promise<string> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => hang(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const silent: Hang = () => undefined;

/** Starts a status line and sends one more byte of a header every 100 ms, never ending the headers. */
const trickle: Hang = (socket) => {
  socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
  const timer = setInterval(() => socket.write('a'), 100);
  timers.add(timer);
  socket.on('close', () => clearInterval(timer));
};

/** Headers of a 100-byte body, 10 bytes of it, then nothing. */
const stalledBody: Hang = (socket) => {
  socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\nETag: "e"\r\n\r\n0123456789');
};

/** Fails the test, instead of letting it hang, when the call has not settled long after every timeout. */
function settledWithin<T>(call: Promise<T>, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the call never settled (still waiting after ${ms} ms)`)), ms);
  });
  return Promise.race([call, stuck]).finally(() => clearTimeout(timer));
}

async function failure(call: Promise<unknown>): Promise<Error> {
  const outcome = await settledWithin(call.then(() => undefined, (error: unknown) => error));
  expect(outcome, 'the call should fail').toBeInstanceOf(Error);
  return outcome as Error;
}

const s3 = (endpoint: string) => new S3Client({ ...s3ClientConfig({ AWS_ENDPOINT_URL: endpoint }, TIMEOUTS), ...SDK });
const sqs = (endpoint: string) => new SQSClient({ ...sqsClientConfig({ AWS_ENDPOINT_URL: endpoint }, TIMEOUTS), ...SDK });

describe('S3 and SQS client timeouts (lib/aws/clients.ts)', () => {
  it('an S3 request to a server that takes the connection and never answers fails with a TimeoutError', async () => {
    const endpoint = await hungServer(silent);
    const error = await failure(s3(endpoint).send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x' })));
    expect(error.name).toBe('TimeoutError');
  });

  it('an SQS request to a server that takes the connection and never answers fails with a TimeoutError', async () => {
    const endpoint = await hungServer(silent);
    const error = await failure(sqs(endpoint).send(new SendMessageCommand({ QueueUrl: `${endpoint}/000000000000/q`, MessageBody: '{}' })));
    expect(error.name).toBe('TimeoutError');
  });

  it('a response whose headers trickle in for ever (the socket never idle) fails on the request timeout', async () => {
    const endpoint = await hungServer(trickle);
    for (const call of [
      () => s3(endpoint).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })),
      () => sqs(endpoint).send(new SendMessageCommand({ QueueUrl: `${endpoint}/000000000000/q`, MessageBody: '{}' })),
    ]) {
      const error = await failure(call());
      expect(error.name).toBe('TimeoutError');
      expect(error.message).toMatch(/exceeded the configured 800 ms requestTimeout/);
    }
  });

  it('an S3 object whose body stops coming after its headers fails on the socket idle timeout', async () => {
    const endpoint = await hungServer(stalledBody);
    const got = await settledWithin(s3(endpoint).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));
    const error = await failure(got.Body!.transformToByteArray());
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toMatch(/timed out after 400 ms of inactivity/);
  });

  it('the connection timeout reaches the request handler; the timeouts outlast the longest long poll', async () => {
    const endpoint = await hungServer(stalledBody);
    const client = s3(endpoint);
    await settledWithin(client.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));
    const handler = client.config.requestHandler as unknown as { httpHandlerConfigs(): Record<string, unknown> };
    expect(handler.httpHandlerConfigs()).toMatchObject({ connectionTimeout: 300, requestTimeout: 800, throwOnRequestTimeout: true, socketTimeout: 400 });
    expect(CLIENT_TIMEOUTS.requestMs).toBeGreaterThan(LONG_POLL_SECONDS * 1000);
    expect(CLIENT_TIMEOUTS.socketIdleMs).toBeGreaterThan(LONG_POLL_SECONDS * 1000);
    // the clients the functions use get them by default
    expect(s3ClientConfig({}).requestHandler).toEqual({ connectionTimeout: 3_000, requestTimeout: 30_000, throwOnRequestTimeout: true, socketTimeout: 10_000 });
    expect(sqsClientConfig({}).requestHandler).toEqual(s3ClientConfig({}).requestHandler);
  });
});
