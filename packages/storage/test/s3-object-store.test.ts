import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore, createS3ObjectStore, type S3ObjectStoreOptions } from '../src/index';
import { describeObjectStoreContract } from './object-store-contract';

// s3rver knows one account; it checks the access key but not V4 signatures.
const CREDENTIALS = { region: 'us-east-1', accessKey: 'S3RVER', secretKey: 'S3RVER' };

async function startS3rver(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'storage-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeObjectStoreContract('s3 (s3rver)', async () => {
  const s3 = await startS3rver();
  const options: S3ObjectStoreOptions = { ...CREDENTIALS, endpoint: s3.endpoint, bucket: 'contract' };
  return {
    store: createS3ObjectStore(options),
    storeAt: (now) => createS3ObjectStore({ ...options, now: () => now }),
    unreachable: createS3ObjectStore({ ...options, endpoint: `http://127.0.0.1:${await closedPort()}` }),
    expiredLinkStatus: 403,
    close: s3.close,
  };
});

describe('s3 driver', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver();
  });
  afterAll(() => s3?.close());

  it('creates its bucket on init(), idempotently', async () => {
    const store = createObjectStore({
      driver: 's3',
      ...CREDENTIALS,
      endpoint: s3.endpoint,
      bucket: `b-${randomUUID()}`,
    });
    await expect(store.check()).rejects.toThrow(/does not exist/);
    await store.init();
    await store.init();
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('fails check() with credentials the server does not know', async () => {
    const store = createS3ObjectStore({ ...CREDENTIALS, accessKey: 'NOBODY', endpoint: s3.endpoint, bucket: 'any' });
    await expect(store.check()).rejects.toThrow();
  });

  it('presigns the filename and content type into the link', async () => {
    const store = createS3ObjectStore({ ...CREDENTIALS, endpoint: s3.endpoint, bucket: 'links' });
    const { url } = await store.downloadUrl('a/1', {
      expiresInSeconds: 60,
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    });
    const query = new URL(url).searchParams;
    expect(query.get('response-content-disposition')).toBe('attachment; filename="x.jpg"');
    expect(query.get('response-content-type')).toBe('image/jpeg');
    expect(query.get('X-Amz-Expires')).toBe('60');
  });

  it('refuses an endpoint with a path', () => {
    expect(() => createS3ObjectStore({ ...CREDENTIALS, endpoint: `${s3.endpoint}/prefix`, bucket: 'any' })).toThrow(
      /path/,
    );
  });
});
