import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { S3Config } from '../config';
import { StorageUnavailableError } from '../db/unavailable';
import {
  contentTypeOfKey,
  imageUrl,
  keyOf,
  STORAGE_KEY,
  type OpenedFile,
  type Storage,
  type StoredEntry,
  type StoredFile,
} from './storage';

/** Objects live under this prefix, so the bucket can hold other things beside them. */
export const S3_PREFIX = 'images/';

/** How images are cached wherever they are served from: the app, a public bucket or a CDN in front of it. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Bounds that make a bucket that is down fail fast (docs/decisions.md "Images in object storage"): a connection
 * must open within CONNECT_MS, an answer must begin within SILENCE_MS and a socket silent that long is given up, and
 * a request is tried at most twice.
 * A bucket that hangs costs an upload about 2 × 3 s, inside the database's 7 s transaction (config.ts), which the
 * upload's file write is part of; a refused connection fails at once. Nothing is remembered between requests, so the
 * first request after the bucket is back succeeds.
 */
const CONNECT_MS = 1_500;
const SILENCE_MS = 3_000;
const MAX_ATTEMPTS = 2;

export interface S3StorageOptions {
  /** Keys asked for per ListObjectsV2 page (1000, S3's most, by default; tests page with fewer). */
  pageSize?: number;
}

/** The S3 client for the configured bucket, with the bounds above. */
export function s3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: CONNECT_MS,
      // Until the answer's headers; without throwOnRequestTimeout the handler would only warn.
      requestTimeout: SILENCE_MS,
      throwOnRequestTimeout: true,
      // A socket silent this long is given up, also while an image's bytes stream in.
      socketTimeout: SILENCE_MS,
      httpAgent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
      httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 64 }),
    }),
    // Checksums only where the API requires them: S3-compatible servers (MinIO's older releases, test servers) do
    // not all understand the SDK's newer default trailers, and the key is already the content's SHA-256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (err: unknown) => (err as SdkError).$metadata?.httpStatusCode;
const isNotFound = (err: unknown) => {
  const { name } = err as SdkError;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
};

/**
 * The bucket being away (no answer: refused, reset, timed out; or a server error or throttling) becomes
 * StorageUnavailableError, which answers 503 (db/unavailable.ts); a client error (wrong credentials, no such
 * bucket) is a configuration mistake and stays a 500 with its message in the log.
 */
function unavailableOr(err: unknown, doing: string): unknown {
  const status = statusOf(err);
  if (status === undefined || status >= 500 || status === 429) {
    const reason = err instanceof Error ? err.message || err.name : String(err);
    return new StorageUnavailableError(`image storage unavailable (${doing}): ${reason}`, { cause: err });
  }
  return err;
}

/** Images as objects `images/<key>` in an S3 bucket (AWS, MinIO or any S3-compatible server), shared by every instance. */
export class S3Storage implements Storage {
  private readonly pageSize: number;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    options: S3StorageOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 1000;
  }

  private async call<T>(doing: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw unavailableOr(err, doing);
    }
  }

  async put(name: string, bytes: Buffer, contentType: string): Promise<string> {
    const key = keyOf(name, contentType);
    // A PUT is atomic: a reader sees the old object or the new one, never half. Written again when present, so its
    // LastModified is fresh and the cleanup job sees the file is in use, as on disk.
    await this.call('put', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: S3_PREFIX + key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          CacheControl: IMMUTABLE,
        }),
      ),
    );
    return key;
  }

  async get(key: string): Promise<StoredFile | undefined> {
    const opened = await this.open(key);
    if (!opened) return undefined;
    const body = opened.body as Readable;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (err) {
      throw unavailableOr(err, 'get');
    }
    return { bytes: Buffer.concat(chunks), contentType: opened.contentType };
  }

  async open(key: string): Promise<OpenedFile | undefined> {
    if (!STORAGE_KEY.test(key)) return undefined;
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: S3_PREFIX + key }));
      return {
        body: answer.Body as Readable,
        // The key says what it is; an object copied in by hand may carry a generic type.
        contentType: contentTypeOfKey(key),
        length: answer.ContentLength,
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailableOr(err, 'get');
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.lastModified(key)) !== undefined;
  }

  private async lastModified(key: string): Promise<Date | undefined> {
    if (!STORAGE_KEY.test(key)) return undefined;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: S3_PREFIX + key }));
      return head.LastModified ?? new Date(0);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailableOr(err, 'head');
    }
  }

  url(key: string): string {
    return imageUrl(key);
  }

  async *list(): AsyncIterable<StoredEntry> {
    const pages = paginateListObjectsV2(
      { client: this.client, pageSize: this.pageSize },
      { Bucket: this.bucket, Prefix: S3_PREFIX },
    );
    try {
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(S3_PREFIX.length) ?? '';
          if (!STORAGE_KEY.test(key)) continue; // something else put under the prefix
          yield { key, modifiedAt: object.LastModified ?? new Date(0) };
        }
      }
    } catch (err) {
      throw unavailableOr(err, 'list');
    }
  }

  /** A PUT is atomic, so no write leaves a partial object behind. */
  async removePartialsOlder(_before: Date): Promise<number> {
    return 0;
  }

  async removeIfOlder(key: string, before: Date): Promise<boolean> {
    const modifiedAt = await this.lastModified(key);
    if (modifiedAt === undefined || modifiedAt.getTime() >= before.getTime()) return false;
    // A race remains, unlike on disk (local-disk.ts moves the file aside first): an upload that writes this same
    // content again between the HEAD above and the DELETE below loses its object. It needs an upload of exactly
    // this image, whose previous copy nobody has used for the job's grace hour, within those milliseconds; a
    // conditional delete would close it, and not every S3-compatible server has one (docs/decisions.md
    // "Images in object storage").
    await this.call('delete', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: S3_PREFIX + key })),
    );
    return true;
  }

  close(): void {
    this.client.destroy();
  }
}

export function s3StorageFor(config: S3Config, options?: S3StorageOptions): S3Storage {
  return new S3Storage(s3Client(config), config.bucket, options);
}
