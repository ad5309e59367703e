import type { BucketItem } from 'minio';
import { Client } from 'minio';
import { assertByteRange, assertObjectSize, linkExpiry } from './arguments';
import { contentDisposition } from './content-disposition';
import { InvalidRangeError, ObjectNotFoundError } from './errors';
import { putToPresignedUrl } from './http-put';
import { assertObjectKey, assertObjectPrefix, isValidObjectKey } from './keys';
import type { ObjectStore } from './object-store';
import { putFileByStream } from './put-file-stream';

export interface S3ObjectStoreOptions {
  /** `http(s)://host[:port]`; https turns TLS on. */
  endpoint: string;
  /**
   * The same store as the browser reaches it (`endpoint` when absent), for presigned download links: SigV4
   * signs the host, so they are signed by a client of their own on this endpoint, never rewritten.
   */
  publicEndpoint?: string;
  region: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** Clock used to presign download links. */
  now?: () => Date;
}

/** Long enough for a slow upload to start; S3 checks a presigned URL's expiry when the request arrives. */
const PUT_URL_EXPIRY_SECONDS = 15 * 60;
/** The most keys one S3 DeleteObjects request accepts. */
const DELETE_BATCH = 1000;

export function createS3ObjectStore(options: S3ObjectStoreOptions): ObjectStore {
  const { bucket } = options;
  const client = s3Client(options.endpoint, options);
  // Never connects: with its region given, the client presigns locally.
  const linkClient = options.publicEndpoint ? s3Client(options.publicEndpoint, options) : client;
  const now = options.now ?? (() => new Date());

  async function deleteKeys(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const failures = (await client.removeObjects(bucket, [...keys])).filter(Boolean);
    if (failures.length > 0) {
      throw new Error(`S3 did not delete ${failures.length} of ${keys.length} objects: ${JSON.stringify(failures[0])}`);
    }
  }

  const store: ObjectStore = {
    async init() {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, options.region);
      } catch (error) {
        // Another instance may have created it since we looked.
        if (await client.bucketExists(bucket)) return;
        throw error;
      }
    },

    async check() {
      if (!(await client.bucketExists(bucket))) throw new Error(`bucket "${bucket}" does not exist`);
    },

    // Streamed through a presigned PUT: the client's putObject reads objects up to its part size into
    // memory and goes multipart above it.
    async put(key, stream, { size, contentType }) {
      assertObjectKey(key);
      assertObjectSize(size);
      const url = await client.presignedPutObject(bucket, key, PUT_URL_EXPIRY_SECONDS);
      const etag = await putToPresignedUrl(url, stream, size, contentType);
      return { key, size, etag };
    },

    async putFile(key, path, options) {
      return putFileByStream(store, key, path, options);
    },

    async get(key, range) {
      assertObjectKey(key);
      if (range) assertByteRange(range);
      try {
        return range
          ? await client.getPartialObject(bucket, key, range.offset, range.length)
          : await client.getObject(bucket, key);
      } catch (error) {
        if (isMissing(error)) throw new ObjectNotFoundError(key);
        if (range && hasS3Code(error, 'InvalidRange')) {
          throw new InvalidRangeError(key, range.offset);
        }
        throw error;
      }
    },

    async stat(key) {
      assertObjectKey(key);
      try {
        const info = await client.statObject(bucket, key);
        const contentType: unknown = info.metaData['content-type'];
        return {
          key,
          size: info.size,
          contentType: typeof contentType === 'string' ? contentType : undefined,
          lastModified: info.lastModified,
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertObjectKey(key);
      await client.removeObject(bucket, key);
    },

    async deleteMany(keys) {
      for (const key of keys) assertObjectKey(key);
      await deleteKeys(keys);
    },

    async deletePrefix(prefix) {
      assertObjectKey(prefix);
      let batch: string[] = [];
      for await (const { key } of store.list(prefix)) {
        batch.push(key);
        if (batch.length === DELETE_BATCH) {
          await deleteKeys(batch);
          batch = [];
        }
      }
      await deleteKeys(batch);
    },

    async *list(prefix) {
      assertObjectPrefix(prefix);
      const items = client.listObjectsV2(bucket, prefix === '' ? '' : `${prefix}/`, true);
      for await (const item of items as AsyncIterable<BucketItem>) {
        // Objects written by other tools may break the key rules; list only what get() can read.
        if (item.name !== undefined && isValidObjectKey(item.name)) {
          yield { key: item.name, size: item.size, lastModified: item.lastModified };
        }
      }
    },

    async downloadUrl(key, { expiresInSeconds, filename, contentType }) {
      assertObjectKey(key);
      const signedAt = now();
      const expiresAt = linkExpiry(signedAt, expiresInSeconds);
      const responseHeaders: Record<string, string> = {};
      if (filename !== undefined) responseHeaders['response-content-disposition'] = contentDisposition(filename);
      if (contentType !== undefined) responseHeaders['response-content-type'] = contentType;
      const url = await linkClient.presignedGetObject(bucket, key, expiresInSeconds, responseHeaders, signedAt);
      return { url, expiresAt };
    },
  };
  return store;
}

function s3Client(origin: string, options: Pick<S3ObjectStoreOptions, 'region' | 'accessKey' | 'secretKey'>): Client {
  const endpoint = new URL(origin);
  if (endpoint.pathname !== '/' || endpoint.search) throw new Error('S3 endpoint must not have a path or query');
  return new Client({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    useSSL: endpoint.protocol === 'https:',
    region: options.region,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
  });
}

function isMissing(error: unknown): boolean {
  return hasS3Code(error, 'NoSuchKey', 'NotFound');
}

function hasS3Code(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}
