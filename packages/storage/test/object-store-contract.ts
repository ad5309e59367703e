import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidObjectKeyError,
  InvalidRangeError,
  type ListedObject,
  ObjectNotFoundError,
  ObjectSizeMismatchError,
  type ObjectStore,
} from '../src/index';
import { bufferStream, failingStream, randomStream, readAll, sha256Of, untouchedStream } from './streams';

export interface ContractHarness {
  store: ObjectStore;
  /** A store on the same backend whose clock reads `now` when it signs links. */
  storeAt(now: Date): ObjectStore;
  /** The same driver pointed at a backend that cannot be reached. */
  unreachable: ObjectStore;
  /** The status a fetch of an expired download link gets. */
  expiredLinkStatus: number;
  close(): Promise<void>;
}

const TRAVERSAL_KEYS = ['../x', 'a/../../b', '/abs', 'a//b', 'a\\b', '%2e%2e/x', 'a/./b', 'a/', '', 'a\0b'];

async function collect(items: AsyncIterable<ListedObject>): Promise<ListedObject[]> {
  const listed: ListedObject[] = [];
  for await (const item of items) listed.push(item);
  return listed.sort((a, b) => (a.key < b.key ? -1 : 1));
}

export function describeObjectStoreContract(name: string, setup: () => Promise<ContractHarness>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let harness: ContractHarness;
    let store: ObjectStore;
    // Each test works under its own prefix so tests cannot see each other's objects.
    const scope = () => `t/${randomUUID()}`;
    const put = (key: string, bytes: Buffer, contentType?: string) =>
      store.put(key, bufferStream(bytes), { size: bytes.length, contentType });

    beforeAll(async () => {
      harness = await setup();
      store = harness.store;
      await store.init();
    });
    afterAll(() => harness?.close());

    it('round-trips binary data byte for byte', async () => {
      const key = `${scope()}/all-bytes.bin`;
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from([0, 0xff, 0])]);
      const result = await put(key, bytes, 'application/octet-stream');
      expect(result).toMatchObject({ key, size: bytes.length });
      expect(await readAll(await store.get(key))).toEqual(bytes);
    });

    it('stores a local file, which stays in place and may then go without taking the object', async () => {
      const key = `${scope()}/from-file.bin`;
      const dir = await mkdtemp(join(tmpdir(), 'renamer-put-file-'));
      const path = join(dir, 'source');
      const bytes = randomBytes(100_000);
      await writeFile(path, bytes);
      try {
        expect(await store.putFile(key, path, { size: bytes.length, contentType: 'image/jpeg' })).toMatchObject({
          key,
          size: bytes.length,
        });
        expect(await readFile(path)).toEqual(bytes);
        await rm(path);
        expect(await readAll(await store.get(key))).toEqual(bytes);
        expect(await store.stat(key)).toMatchObject({ size: bytes.length, contentType: 'image/jpeg' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('streams a multi-megabyte object in and out', async () => {
      const key = `${scope()}/big.bin`;
      const size = 8 * 1024 * 1024 + 123;
      const source = randomStream(size);
      await store.put(key, source.stream, { size });
      expect(await sha256Of(await store.get(key))).toBe(source.sha256());
      expect((await store.stat(key))?.size).toBe(size);
    });

    it('stores an empty object', async () => {
      const key = `${scope()}/empty`;
      await put(key, Buffer.alloc(0));
      expect((await readAll(await store.get(key))).length).toBe(0);
    });

    it('reads a byte range', async () => {
      const key = `${scope()}/range.txt`;
      await put(key, Buffer.from('0123456789'));
      expect((await readAll(await store.get(key, { offset: 2, length: 3 }))).toString()).toBe('234');
      expect((await readAll(await store.get(key, { offset: 7 }))).toString()).toBe('789');
      await expect(store.get(key, { offset: 10 })).rejects.toBeInstanceOf(InvalidRangeError);
    });

    it('stats an object', async () => {
      const key = `${scope()}/photo.jpg`;
      const before = Date.now();
      await put(key, Buffer.from('jpeg bytes'), 'image/jpeg');
      const info = await store.stat(key);
      expect(info).toMatchObject({ key, size: 10, contentType: 'image/jpeg' });
      expect(info?.lastModified).toBeInstanceOf(Date);
      // S3 keeps whole seconds.
      expect(info!.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    });

    it('stats a missing object as null and fails to get it with ObjectNotFoundError', async () => {
      const key = `${scope()}/missing`;
      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.get(key, { offset: 0, length: 1 })).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('treats a prefix as no object', async () => {
      const prefix = scope();
      await put(`${prefix}/dir/file`, Buffer.from('x'));
      expect(await store.stat(`${prefix}/dir`)).toBeNull();
      await expect(store.get(`${prefix}/dir`)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await store.delete(`${prefix}/dir`);
      expect(await store.stat(`${prefix}/dir/file`)).not.toBeNull();
    });

    it('overwrites an object, content type included', async () => {
      const key = `${scope()}/same`;
      await put(key, Buffer.from('first version'), 'text/plain');
      await put(key, Buffer.from('second'), 'image/png');
      expect((await readAll(await store.get(key))).toString()).toBe('second');
      expect(await store.stat(key)).toMatchObject({ size: 6, contentType: 'image/png' });
    });

    it('deletes idempotently', async () => {
      const key = `${scope()}/gone`;
      await put(key, Buffer.from('x'));
      await store.delete(key);
      expect(await store.stat(key)).toBeNull();
      await expect(store.delete(key)).resolves.toBeUndefined();
    });

    it('deletes many, missing ones included', async () => {
      const prefix = scope();
      await put(`${prefix}/1`, Buffer.from('1'));
      await put(`${prefix}/2`, Buffer.from('2'));
      await put(`${prefix}/3`, Buffer.from('3'));
      await store.deleteMany([`${prefix}/1`, `${prefix}/2`, `${prefix}/never-was`]);
      expect((await collect(store.list(prefix))).map((o) => o.key)).toEqual([`${prefix}/3`]);
      await expect(store.deleteMany([])).resolves.toBeUndefined();
    });

    it('lists by whole-segment prefix, and nothing outside it', async () => {
      const prefix = scope();
      const keys = [`${prefix}/a/1`, `${prefix}/a/2.jpg`, `${prefix}/a/sub/3`, `${prefix}/ab/4`, `${prefix}/a-5`];
      for (const key of keys) await put(key, Buffer.from(key));

      const underA = await collect(store.list(`${prefix}/a`));
      expect(underA.map((o) => o.key)).toEqual([`${prefix}/a/1`, `${prefix}/a/2.jpg`, `${prefix}/a/sub/3`]);
      expect(underA[0]).toMatchObject({ size: `${prefix}/a/1`.length });
      expect(underA[0]?.lastModified).toBeInstanceOf(Date);

      expect((await collect(store.list(prefix))).map((o) => o.key)).toEqual([...keys].sort());
      expect(await collect(store.list(`${prefix}/none`))).toEqual([]);
      expect(await collect(store.list(`${prefix}/a/1`))).toEqual([]);
      const everything = (await collect(store.list(''))).map((o) => o.key);
      expect(everything).toEqual(expect.arrayContaining(keys));
    });

    it('deletes by prefix', async () => {
      const prefix = scope();
      for (const key of ['a/1', 'a/sub/2', 'ab/3', 'a-4']) await put(`${prefix}/${key}`, Buffer.from(key));
      await store.deletePrefix(`${prefix}/a`);
      expect((await collect(store.list(prefix))).map((o) => o.key)).toEqual([`${prefix}/a-4`, `${prefix}/ab/3`]);
      await expect(store.deletePrefix(`${prefix}/none`)).resolves.toBeUndefined();
      await expect(store.deletePrefix('')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });

    it('rejects traversal and malformed keys before any I/O', async () => {
      // The unreachable store fails any I/O, so getting InvalidObjectKeyError proves nothing was attempted.
      const { unreachable } = harness;
      for (const key of TRAVERSAL_KEYS) {
        const source = untouchedStream();
        await expect(unreachable.put(key, source.stream, { size: 1 }), key).rejects.toBeInstanceOf(
          InvalidObjectKeyError,
        );
        expect(source.wasRead(), key).toBe(false);
        await expect(unreachable.get(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(unreachable.stat(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(unreachable.delete(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(unreachable.deleteMany(['fine', key]), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(unreachable.deletePrefix(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(unreachable.downloadUrl(key, { expiresInSeconds: 60 }), key).rejects.toBeInstanceOf(
          InvalidObjectKeyError,
        );
        if (key !== '') {
          await expect(collect(unreachable.list(key)), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        }
      }
    });

    it('fails a put whose stream does not hold the declared size', async () => {
      const key = `${scope()}/sized`;
      await expect(store.put(key, bufferStream(Buffer.from('12345')), { size: 6 })).rejects.toBeInstanceOf(
        ObjectSizeMismatchError,
      );
      await expect(store.put(key, bufferStream(Buffer.from('12345')), { size: 4 })).rejects.toBeInstanceOf(
        ObjectSizeMismatchError,
      );
    });

    it('fails a put whose stream errors midway', async () => {
      const key = `${scope()}/dropped`;
      await expect(store.put(key, failingStream(100_000), { size: 1_000_000 })).rejects.toThrow('client went away');
    });

    it('serves a download link with the requested headers', async () => {
      const key = `${scope()}/image`;
      const bytes = Buffer.from('\xff\xd8 not really a jpeg', 'latin1');
      await put(key, bytes, 'image/jpeg');
      const before = Date.now();
      const link = await store.downloadUrl(key, { expiresInSeconds: 60, filename: 'Lake at dawn.jpg' });
      expect(link.expiresAt.getTime()).toBeGreaterThan(before + 58_000);
      expect(link.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);

      const response = await fetch(link.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="Lake at dawn.jpg"');
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);

      const renamed = await store.downloadUrl(key, {
        expiresInSeconds: 60,
        filename: 'Été "1".jpg',
        contentType: 'application/octet-stream',
      });
      const second = await fetch(renamed.url);
      expect(second.headers.get('content-disposition')).toBe(
        `attachment; filename="_t_ _1_.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%221%22.jpg`,
      );
      expect(second.headers.get('content-type')).toBe('application/octet-stream');
      await second.arrayBuffer();
    });

    it('refuses an expired download link', async () => {
      const key = `${scope()}/old`;
      await put(key, Buffer.from('x'));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      const link = await harness.storeAt(anHourAgo).downloadUrl(key, { expiresInSeconds: 60 });
      expect(link.expiresAt.getTime()).toBeLessThan(Date.now());
      const response = await fetch(link.url);
      expect(response.status).toBe(harness.expiredLinkStatus);
      await response.arrayBuffer();
    });

    it('refuses link lifetimes outside 1 s to 7 days', async () => {
      const key = `${scope()}/x`;
      await expect(store.downloadUrl(key, { expiresInSeconds: 0 })).rejects.toThrow(RangeError);
      await expect(store.downloadUrl(key, { expiresInSeconds: 604_801 })).rejects.toThrow(RangeError);
      await expect(store.downloadUrl(key, { expiresInSeconds: 1.5 })).rejects.toThrow(RangeError);
    });

    it('passes check() when reachable and fails it when not', async () => {
      await expect(store.check()).resolves.toBeUndefined();
      await expect(harness.unreachable.check()).rejects.toThrow();
    });
  });
}
