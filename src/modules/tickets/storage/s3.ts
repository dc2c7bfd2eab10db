// Attachments in an S3-protocol bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2…), chosen by
// STORAGE_URL=s3://bucket[/prefix]. An upload still goes to a local temporary file first (the
// file-type check reads the bytes, and the size is then known); keep() sends it with one PutObject
// of a file stream and its Content-Length: no multipart upload, nothing held in memory. Objects are
// named <prefix>/<xx>/<key> like the disk layout, so the sweep lists exactly the objects this
// service wrote. A server that is down, slow or answering 5xx raises StorageUnavailableError (503).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { s3Location, type Config } from '../../../config.js';
import {
  StorageError,
  StorageUnavailableError,
  attachmentsDir,
  type AttachmentStorage,
  type ListedFile,
  type StorageLog,
  type TempFile,
} from './index.js';
import { TempFiles } from './temp-files.js';

const KEY = /^[a-f0-9]{32}$/;
const STORED = /^([a-f0-9]{2})\/([a-f0-9]{32})$/;
/** Failures without an HTTP answer that mean the server is down or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** The SDK never retries a request whose body is a stream; keep() does, reopening the file. */
const PUT_ATTEMPTS = 3;
// Connect within 5 s, answer (headers) within 60 s: a 10 MB PutObject takes far less on any link a
// deployment would use. A download's body is not timed: a slow client holds its socket, hence the
// pool of 256 sockets rather than the SDK's 50.
const HANDLER = { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true };
const AGENT = { keepAlive: true, maxSockets: 256 };

/** Down, unreachable, timed out or failing (5xx): worth a retry later. Other errors (403 AccessDenied, NoSuchBucket) are configuration problems (500). */
function isOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (typeof status === 'number') return status >= 500;
  const code = (error as { code?: unknown }).code;
  return error.name === 'TimeoutError' || (typeof code === 'string' && NETWORK_CODES.has(code));
}

/** Errors of the S3 exchange as the storage's own; others (reading the local file) stay as they are. */
function translated(error: unknown): unknown {
  if (isOutage(error))
    return new StorageUnavailableError(`attachment storage unavailable: ${(error as Error).message}`, { cause: error });
  if (error instanceof S3ServiceException)
    return new StorageError(`attachment storage refused the request: ${error.name}: ${error.message}`, {
      cause: error,
    });
  return error;
}

/** The object is not there (not: the bucket is not there, which is a configuration problem). */
const isMissing = (error: unknown) => error instanceof NoSuchKey || (error as { name?: string }).name === 'NotFound';

const ignore = () => undefined;

export class S3Storage implements AttachmentStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  /** '' or 'some/prefix/'. */
  private readonly prefix: string;
  private readonly temps: TempFiles;

  constructor(config: Config, log?: StorageLog) {
    const location = s3Location(config.STORAGE_URL ?? '');
    if (!location) throw new Error('S3Storage needs STORAGE_URL=s3://bucket[/prefix]');
    this.bucket = location.bucket;
    this.prefix = location.prefix ? `${location.prefix}/` : '';
    this.temps = new TempFiles(path.join(attachmentsDir(config.DATA_DIR), '.tmp'));
    this.client = new S3Client({
      region: config.S3_REGION,
      // A server of one's own (MinIO, Ceph RGW…): path-style addresses (http://host/bucket/key)
      // need no wildcard DNS or certificate for bucket subdomains.
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT, forcePathStyle: true } : {}),
      // Checksums only where S3 requires them: by default the SDK sends a stream as aws-chunked with a
      // trailing CRC32, which some S3-protocol servers store as part of the object (s3rver did).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      requestHandler: { ...HANDLER, httpAgent: AGENT, httpsAgent: AGENT },
      // Only the SDK's warnings; its per-request info and error lines would repeat what the error handler logs.
      logger: {
        trace: ignore,
        debug: ignore,
        info: ignore,
        error: ignore,
        warn: (...args: unknown[]) => log?.warn({ s3: args }, 'S3 client warning'),
      },
    });
  }

  private objectKey(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${key.slice(0, 40)}`);
    return `${this.prefix}${key.slice(0, 2)}/${key}`;
  }

  /** The storage key of an object this service wrote, else undefined. */
  private keyOf(objectKey: string): string | undefined {
    if (!objectKey.startsWith(this.prefix)) return undefined;
    const match = STORED.exec(objectKey.slice(this.prefix.length));
    return match && match[2]!.startsWith(match[1]!) ? match[2] : undefined;
  }

  writeTemp(source: Readable): Promise<TempFile> {
    return this.temps.write(source);
  }

  async keep(temp: TempFile): Promise<string> {
    const key = randomBytes(16).toString('hex');
    try {
      for (let attempt = 1; ; attempt++) {
        const body = fs.createReadStream(temp.path);
        try {
          await this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: this.objectKey(key),
              Body: body,
              ContentLength: temp.size,
              ContentType: 'application/octet-stream',
            }),
          );
          return key;
        } catch (error) {
          if (attempt >= PUT_ATTEMPTS || !isOutage(error)) throw translated(error);
          await delay(100 * 4 ** (attempt - 1));
        } finally {
          body.destroy();
        }
      }
    } finally {
      // Kept or not, the local copy has served its purpose (a failed upload is answered 503).
      await this.temps.discard(temp);
    }
  }

  discardTemp(temp: TempFile): Promise<void> {
    return this.temps.discard(temp);
  }

  async remove(key: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }))
      .catch((error: unknown) => {
        throw translated(error);
      });
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    let response: GetObjectCommandOutput;
    try {
      response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw translated(error);
    }
    const body = response.Body;
    if (!(body instanceof Readable) || response.ContentLength === undefined) {
      if (body instanceof Readable) body.destroy();
      throw new Error('the attachment storage answered GetObject without a body stream or a Content-Length');
    }
    return { stream: body, size: response.ContentLength };
  }

  /** The local temporary files, then one batch per ListObjectsV2 page (1000 objects). */
  async *list(): AsyncIterable<ListedFile[]> {
    yield await this.temps.list();
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }))
        .catch((error: unknown) => {
          throw translated(error);
        });
      const batch: ListedFile[] = [];
      for (const object of page.Contents ?? []) {
        const key = object.Key === undefined ? undefined : this.keyOf(object.Key);
        // An object without a date counts as just written, so it is never removed on a guess.
        if (key)
          batch.push({
            file: object.Key!,
            key,
            size: object.Size ?? 0,
            modifiedMs: object.LastModified?.getTime() ?? Date.now(),
          });
      }
      yield batch;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** S3 answers a delete of a missing object as a success, so an object is reported removed either way. */
  async removeListed(file: ListedFile): Promise<boolean> {
    if (file.key === undefined) return this.temps.remove(file);
    await this.remove(file.key);
    return true;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
