/**
 * The store on AWS: one S3 bucket with the same key layout as the embedded data folder (./keys.ts).
 *
 * - get: undefined when there is no object (NoSuchKey / 404). On AWS a missing key only reads as 404
 *   when the caller may s3:ListBucket the bucket; without it S3 answers 403, which is thrown.
 * - put: through the upload client (lib/aws/clients.ts uploadTimeouts: its socket idle timeout no
 *   shorter than its request timeout, as a body crossing a slow link leaves the socket silent). A body
 *   over MULTIPART_PART_BYTES without a condition goes in parts of that size (lib-storage's Upload: a
 *   multipart upload, aborted if a part fails), each its own request with its own request timeout,
 *   where one PutObject had to carry the whole body within one. A conditional put stays one PutObject
 *   whatever its size: S3 takes If-Match / If-None-Match on CompleteMultipartUpload too, but the
 *   emulator the tests run against does not, and the conditional writes are small documents (rules,
 *   articles, rate-limit slots), never a snapshot or archived HTML.
 * - S3 writes are atomic. Conditional writes use S3's If-Match / If-None-Match; a lost race
 *   (412 Precondition Failed; 409 ConditionalRequestConflict when two conditional writes overlap;
 *   404 NoSuchKey for If-Match on a missing key) becomes PreconditionFailedError, as in the fs store.
 *   But a refusal on the SDK's second or later attempt of the put may be of its own first attempt,
 *   which landed and whose answer was lost (a connection reset, a client timeout: lib/aws/clients.ts):
 *   when the object then holds the very bytes this put wrote, the put succeeded and returns its etag.
 *   (Taken for a lost race, it would make a learn say another learn wrote its rules first and skip
 *   extracting the site's pages again.)
 * - list: every key under the prefix, all pages, in key order (S3 lists in UTF-8 binary order); with
 *   `max`, the first `max` keys, in pages of at most that many (`max` up to 1,000: one request).
 * Etags are S3's ETag without its quotes; pass them back as `ifMatch` unchanged.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { s3Client, s3UploadClient } from './clients';
import { PreconditionFailedError, type ListedObject, type ListOptions, type PutOptions, type Store, type StoredObject } from '../store/store';

/**
 * Size of the parts an unconditional put of a larger body is sent in (bytes): S3's least part size
 * (5 MiB), so that each request carries as little as S3 allows. Its request timeout (30 s,
 * CLIENT_TIMEOUTS) then asks an uplink of 175 KB/s (1.4 Mbit/s), where one PutObject of 10 MiB of
 * archived HTML (DeployedStack's cap) asked 350 KB/s. Parts go one at a time: side by side they
 * would share a slow link, each taking as long as the whole.
 */
export const MULTIPART_PART_BYTES = 5 * 1024 * 1024;

export interface S3StoreOptions {
  readonly bucket: string;
  /** For reads, lists and deletes; defaults to the process's shared client (lib/aws/clients.ts). */
  readonly client?: S3Client;
  /** For puts; defaults to `client` when one is given, else the process's upload client (s3UploadClient). */
  readonly uploadClient?: S3Client;
  /** Optional key prefix inside the bucket, e.g. `staging/`; the store's keys stay unprefixed. */
  readonly prefix?: string;
}

export class S3Store implements Store {
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly uploadClient: S3Client;
  private readonly prefix: string;

  constructor(options: S3StoreOptions) {
    if (!options.bucket) throw new Error('S3Store needs a bucket name');
    this.bucket = options.bucket;
    this.client = options.client ?? s3Client();
    this.uploadClient = options.uploadClient ?? options.client ?? s3UploadClient();
    this.prefix = options.prefix ?? '';
    if (this.prefix && !this.prefix.endsWith('/')) throw new Error(`S3Store prefix must end with "/": ${this.prefix}`);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const body = Buffer.from(await out.Body!.transformToByteArray());
      return { body, etag: unquote(out.ETag), lastModified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async put(key: string, body: Buffer | string, options: PutOptions = {}): Promise<string> {
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    const params = { Bucket: this.bucket, Key: this.objectKey(key), Body: data, ContentType: options.contentType ?? contentTypeOf(key) };
    const conditional = options.ifMatch !== undefined || options.ifNoneMatch !== undefined;
    if (!conditional && data.length > MULTIPART_PART_BYTES) {
      const upload = new Upload({ client: this.uploadClient, params, partSize: MULTIPART_PART_BYTES, queueSize: 1 });
      return unquote((await upload.done()).ETag);
    }
    try {
      const out = await this.uploadClient.send(
        new PutObjectCommand({
          ...params,
          ...(options.ifMatch !== undefined ? { IfMatch: quote(options.ifMatch) } : {}),
          ...(options.ifNoneMatch !== undefined ? { IfNoneMatch: options.ifNoneMatch } : {}),
        }),
      );
      return unquote(out.ETag);
    } catch (error) {
      // If-Match on a key that has no object: S3 answers 404 NoSuchKey; the fs store calls it a lost race too.
      if (!isPreconditionFailure(error) && !(options.ifMatch !== undefined && isNotFound(error))) throw error;
      if (attemptsOf(error) > 1) {
        const now = await this.get(key);
        if (now?.body.equals(data)) return now.etag;
      }
      throw new PreconditionFailedError(key);
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    const max = options.max ?? Infinity;
    const out: ListedObject[] = [];
    if (max <= 0) return out;
    // With a limit, S3 is asked for no more keys than are wanted (MaxKeys), and no further page once they are in.
    const pageSize = max === Infinity ? undefined : Math.min(max, 1000);
    const pages = paginateListObjectsV2({ client: this.client, ...(pageSize ? { pageSize } : {}) }, { Bucket: this.bucket, Prefix: this.objectKey(prefix, true) });
    for await (const page of pages) {
      for (const obj of page.Contents ?? []) {
        if (!obj.Key || out.length >= max) continue;
        out.push({
          key: obj.Key.slice(this.prefix.length),
          etag: unquote(obj.ETag),
          lastModified: obj.LastModified ?? new Date(0),
          size: obj.Size ?? 0,
        });
      }
      if (out.length >= max) break;
    }
    // S3 already lists in binary key order; sort anyway so emulators and S3 agree with the fs store.
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private objectKey(key: string, isPrefix = false): string {
    if (!isPrefix && (key === '' || key.startsWith('/'))) throw new Error(`invalid store key: ${JSON.stringify(key)}`);
    return this.prefix + key;
  }
}

function unquote(etag: string | undefined): string {
  return (etag ?? '').replace(/^(W\/)?"(.*)"$/, '$2');
}

function quote(etag: string): string {
  return etag === '*' || etag.startsWith('"') ? etag : `"${etag}"`;
}

/** The SDK's attempts at the request that failed (its retries included). */
function attemptsOf(error: unknown): number {
  return (error as { $metadata?: { attempts?: number } })?.$metadata?.attempts ?? 1;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || (error instanceof S3ServiceException && statusOf(error) === 404 && error.name !== 'NoSuchBucket');
}

function isPreconditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = statusOf(error);
  return error.name === 'PreconditionFailed' || error.name === 'ConditionalRequestConflict' || status === 412 || status === 409;
}

function contentTypeOf(key: string): string {
  if (key.endsWith('.json')) return 'application/json';
  if (key.endsWith('.html')) return 'text/html; charset=utf-8';
  return 'application/octet-stream';
}
