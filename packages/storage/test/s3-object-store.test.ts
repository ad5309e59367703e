import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore, createS3ObjectStore, type S3ObjectStoreOptions } from '../src/index';
import { S3RVER_CREDENTIALS as CREDENTIALS, startS3rver as startLocalS3 } from '../src/testing';
import { describeObjectStoreContract } from './object-store-contract';

async function startS3rver(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'storage-s3-'));
  const s3 = await startLocalS3(directory);
  return {
    endpoint: s3.endpoint,
    async close() {
      await s3.close();
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

  it('presigns download links for the public endpoint, with a signature of that host', async () => {
    // Unreachable from here on purpose: presigning with a region needs no request.
    const publicEndpoint = 'https://files.renamer.example:9443';
    const store = createS3ObjectStore({ ...CREDENTIALS, endpoint: s3.endpoint, publicEndpoint, bucket: 'links' });
    const { url } = await store.downloadUrl('users/u1/images/i1', {
      expiresInSeconds: 900,
      filename: 'łódź.jpg',
    });
    const link = new URL(url);
    expect(link.origin).toBe(publicEndpoint);
    expect(link.pathname).toBe('/links/users/u1/images/i1');
    expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(link.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(link.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(link.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="__d_.jpg"; filename*=UTF-8''%C5%82%C3%B3d%C5%BA.jpg`,
    );

    // Signed at the same instant for the internal endpoint, the link differs by host and signature: the host is
    // signed, so rewriting a link's host would break it on a store that checks signatures.
    const signedAt = new Date();
    const options = { ...CREDENTIALS, endpoint: s3.endpoint, bucket: 'links', now: () => signedAt };
    const [forPublic, forInternal] = await Promise.all(
      [createS3ObjectStore({ ...options, publicEndpoint }), createS3ObjectStore(options)].map(
        async (store) => new URL((await store.downloadUrl('a/1', { expiresInSeconds: 60 })).url),
      ),
    );
    expect(forInternal!.origin).toBe(s3.endpoint);
    expect(forPublic!.searchParams.get('X-Amz-Date')).toBe(forInternal!.searchParams.get('X-Amz-Date'));
    expect(forPublic!.searchParams.get('X-Amz-Signature')).not.toBe(forInternal!.searchParams.get('X-Amz-Signature'));
  });

  it('refuses an endpoint with a path', () => {
    expect(() => createS3ObjectStore({ ...CREDENTIALS, endpoint: `${s3.endpoint}/prefix`, bucket: 'any' })).toThrow(
      /path/,
    );
  });
});
