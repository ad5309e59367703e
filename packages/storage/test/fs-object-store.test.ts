import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsObjectStore, type ObjectStore, verifyDownloadLink } from '../src/index';
import { startDownloadRoute } from './download-route';
import { describeObjectStoreContract } from './object-store-contract';
import { bufferStream, failingStream, readAll } from './streams';

const SECRET = 'test-secret-that-is-at-least-32-characters';

describeObjectStoreContract('filesystem', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'storage-fs-'));
  let store: ObjectStore | undefined;
  const route = await startDownloadRoute(() => store!, SECRET);
  const make = (now?: Date) =>
    createFsObjectStore({
      dir: join(dir, 'objects'),
      publicUrl: `${route.url}/`,
      signingSecret: SECRET,
      now: now && (() => now),
    });
  store = make();
  // A regular file where the root directory should be: every I/O fails.
  const notADirectory = join(dir, 'not-a-directory');
  await writeFile(notADirectory, '');
  return {
    store,
    storeAt: make,
    unreachable: createFsObjectStore({ dir: notADirectory, publicUrl: route.url, signingSecret: SECRET }),
    expiredLinkStatus: 410,
    async close() {
      await route.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('filesystem driver', () => {
  let dir: string;
  let root: string;
  let store: ObjectStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storage-fs-'));
    root = join(dir, 'objects');
    store = createFsObjectStore({ dir: root, publicUrl: 'http://api.test', signingSecret: SECRET });
    await store.init();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const filesUnder = (path: string) => readdir(path, { recursive: true });

  it('leaves no object and no temp file when the stream errors midway', async () => {
    await expect(store.put('a/dropped', failingStream(100_000), { size: 1_000_000 })).rejects.toThrow();
    expect(await store.stat('a/dropped')).toBeNull();
    expect(await filesUnder(join(root, '.tmp~'))).toEqual([]);
    expect(await filesUnder(root)).toEqual(['.tmp~']);
  });

  it('keeps the previous version when an overwrite fails', async () => {
    await store.put('a/kept', bufferStream(Buffer.from('original')), { size: 8, contentType: 'text/plain' });
    await expect(store.put('a/kept', failingStream(10), { size: 100, contentType: 'image/png' })).rejects.toThrow();
    expect((await readAll(await store.get('a/kept'))).toString()).toBe('original');
    expect(await store.stat('a/kept')).toMatchObject({ contentType: 'text/plain' });
    expect(await filesUnder(join(root, '.tmp~'))).toEqual([]);
  });

  it('leaves nothing when the stream holds the wrong number of bytes', async () => {
    await expect(store.put('short', bufferStream(Buffer.from('abc')), { size: 4 })).rejects.toThrow();
    await expect(store.put('long', bufferStream(Buffer.from('abcde')), { size: 4 })).rejects.toThrow();
    expect(await filesUnder(root)).toEqual(['.tmp~']);
  });

  it('links a file on the same filesystem into the store instead of writing its bytes again', async () => {
    const source = join(dir, 'spooled');
    await writeFile(source, 'twelve bytes');
    await store.putFile('a/linked', source, { size: 12 });
    expect((await stat(join(root, 'a', 'linked'))).ino).toBe((await stat(source)).ino);
    await expect(store.putFile('a/wrong', source, { size: 13 })).rejects.toThrow();
    expect(await filesUnder(join(root, '.tmp~'))).toEqual([]);
  });

  it('writes objects at their key under the root and nowhere else', async () => {
    await store.put('users/u1/images/i1', bufferStream(Buffer.from('x')), { size: 1, contentType: 'image/jpeg' });
    expect((await stat(join(root, 'users/u1/images/i1'))).size).toBe(1);
    await expect(store.put('../escaped', bufferStream(Buffer.from('x')), { size: 1 })).rejects.toThrow();
    await expect(stat(join(dir, 'escaped'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('does not list temp files, content-type sidecars or foreign files', async () => {
    await store.put('a/1', bufferStream(Buffer.from('x')), { size: 1, contentType: 'image/jpeg' });
    await writeFile(join(root, '.tmp~', 'leftover'), 'x');
    await writeFile(join(root, 'a', 'bad name'), 'x');
    const keys: string[] = [];
    for await (const { key } of store.list('')) keys.push(key);
    expect(keys).toEqual(['a/1']);
  });

  it('deletes the content-type sidecar with its object', async () => {
    await store.put('a/1', bufferStream(Buffer.from('x')), { size: 1, contentType: 'image/jpeg' });
    await store.delete('a/1');
    expect(await filesUnder(join(root, 'a'))).toEqual([]);
  });

  it('signs links the API verifies with the same secret', async () => {
    const { url, expiresAt } = await store.downloadUrl('a/1', {
      expiresInSeconds: 300,
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    });
    const token = url.replace('http://api.test/api/files/', '');
    expect(verifyDownloadLink(token, SECRET)).toEqual({
      ok: true,
      key: 'a/1',
      expiresAt,
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    });
    expect(verifyDownloadLink(token, 'another-secret-that-is-32-characters-long')).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('fails check() before init() creates the directory', async () => {
    const fresh = createFsObjectStore({ dir: join(dir, 'fresh'), publicUrl: 'http://api.test', signingSecret: SECRET });
    await expect(fresh.check()).rejects.toThrow();
    await fresh.init();
    await expect(fresh.check()).resolves.toBeUndefined();
  });
});

describe('filesystem download route', () => {
  it('answers 403 to a tampered link and 410 to an expired one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storage-fs-'));
    let store: ObjectStore | undefined;
    const route = await startDownloadRoute(() => store!, SECRET);
    try {
      store = createFsObjectStore({ dir, publicUrl: route.url, signingSecret: SECRET });
      await store.put('a/1', bufferStream(Buffer.from('secret bytes')), { size: 12 });
      await store.put('a/2', bufferStream(Buffer.from('other bytes')), { size: 11 });
      const { url } = await store.downloadUrl('a/1', { expiresInSeconds: 60 });
      const [base, payload, signature] = /^(.*\/api\/files\/)([^.]+)\.(.+)$/.exec(url)!.slice(1) as [
        string,
        string,
        string,
      ];

      expect((await fetch(url)).status).toBe(200);
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forge = (changes: object) =>
        `${base}${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
      expect((await fetch(forge({ k: 'a/2' }))).status).toBe(403);
      expect((await fetch(forge({ e: claims.e + 3600 }))).status).toBe(403);
      expect((await fetch(`${base}${payload}.${signature.slice(0, -2)}AA`)).status).toBe(403);

      const expired = createFsObjectStore({
        dir,
        publicUrl: route.url,
        signingSecret: SECRET,
        now: () => new Date(Date.now() - 120_000),
      });
      const old = await expired.downloadUrl('a/1', { expiresInSeconds: 60 });
      expect((await fetch(old.url)).status).toBe(410);
    } finally {
      await route.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
