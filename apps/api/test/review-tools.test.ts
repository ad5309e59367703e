import { createHash } from 'node:crypto';
import { testDir } from '@renamer/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiStack, getJson, type Json, startApiStack, upload, waitForBatch } from './support/api-stack';
import { photo } from './support/images';

/** What a client uses to review a batch: the files it already has, batch settings, name checks, score order. */

let stack: ApiStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startApiStack('review-tools');
  api = await stack.startApi();
  await stack.startWorker({ WORK_DIR: testDir('review-tools-worker') });
}, 60_000);

afterAll(() => stack?.close());

type User = Awaited<ReturnType<ApiStack['createUser']>>;
let seed = 1000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function call(user: User, method: string, path: string, body?: unknown) {
  return getJson(`${api.url}${path}`, user.key, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

async function uploaded(owner: User, count: number, fields: Record<string, string> = { keywords: 'red shoes' }) {
  const files = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `IMG_${1000 + i}.JPG`,
      bytes: await photo('jpeg', ++seed),
      type: 'image/jpeg',
    })),
  );
  const { status, body } = await upload(api.url, owner.key, files, fields);
  expect(status).toBe(201);
  return { batchId: body.batchId as string, files, accepted: body.accepted as Json[] };
}

async function readyBatch(owner: User, count: number) {
  const batch = await uploaded(owner, count);
  await waitForBatch(api.url, owner.key, batch.batchId, (status) => status.status === 'completed');
  return batch;
}

describe('POST /api/batch/check', () => {
  it('names the files the caller already has, with their images, and none of another user’s', async () => {
    const owner = await stack.createUser();
    const { files, accepted } = await uploaded(owner, 2);
    const unknown = sha256(Buffer.from('a file nobody uploaded'));
    const checksums = [...files.map((file) => sha256(file.bytes)), unknown];

    const { status, body } = await call(owner, 'POST', '/api/batch/check', { checksums });
    expect(status).toBe(200);
    expect(body!.existing).toHaveLength(2);
    expect(body!.existing).toEqual(
      expect.arrayContaining(
        files.map((file, i) => ({ checksum: sha256(file.bytes), imageId: accepted[i]!.imageId as string })),
      ),
    );

    const stranger = await stack.createUser();
    expect((await call(stranger, 'POST', '/api/batch/check', { checksums })).body).toEqual({ existing: [] });
  });

  it('refuses what is not a list of SHA-256 digests', async () => {
    const owner = await stack.createUser();
    for (const checksums of [[], ['not-a-digest'], [sha256(Buffer.from('x')).toUpperCase()]]) {
      const { status, body } = await call(owner, 'POST', '/api/batch/check', { checksums });
      expect(status).toBe(400);
      expect(body!.code).toBe('validation_failed');
    }
  });
});

describe('PATCH /api/batch/:batchId', () => {
  it('changes the batch’s name, keywords, context and locale, as its status then shows', async () => {
    const owner = await stack.createUser();
    const { batchId } = await uploaded(owner, 1);
    const change = {
      name: 'Spring collection',
      keywords: ['leather boots', 'handmade'],
      context: 'Boots made in our workshop\nin Porto',
      locale: 'de',
    };

    const { status, body } = await call(owner, 'PATCH', `/api/batch/${batchId}`, change);
    expect(status).toBe(200);
    expect(body).toMatchObject({ batchId, ...change });
    expect((await call(owner, 'GET', `/api/batch/${batchId}/status`)).body).toMatchObject(change);

    const cleared = await call(owner, 'PATCH', `/api/batch/${batchId}`, { context: null });
    expect(cleared.body).toMatchObject({ context: null, keywords: change.keywords });
  });

  it('answers another user’s batch as not found, and refuses an empty or oversized change', async () => {
    const owner = await stack.createUser();
    const { batchId } = await uploaded(owner, 1);
    const stranger = await stack.createUser();
    const theirs = await call(stranger, 'PATCH', `/api/batch/${batchId}`, { name: 'mine now' });
    expect(theirs.status).toBe(404);
    expect(theirs.body!.code).toBe('not_found');

    for (const change of [{}, { keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, { locale: 'not a tag' }]) {
      const { status, body } = await call(owner, 'PATCH', `/api/batch/${batchId}`, change);
      expect(status).toBe(400);
      expect(body!.code).toBe('validation_failed');
    }
    expect((await call(owner, 'GET', `/api/batch/${batchId}/status`)).body).toMatchObject({
      name: null,
      keywords: ['red shoes'],
      locale: 'en',
    });
  });
});

describe('POST /api/image/filename-check', () => {
  it('shows the name as a rename would make it, its score and why it would be refused, saving nothing', async () => {
    const owner = await stack.createUser();
    const { accepted } = await readyBatch(owner, 2);
    const [first, second] = await Promise.all(
      accepted.map(async (image) => (await call(owner, 'GET', `/api/image/${image.imageId}`)).body!),
    );

    const good = await call(owner, 'POST', '/api/image/filename-check', {
      filename: 'Red Suede Shoes.png',
      imageId: first!.id,
    });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ filename: 'red-suede-shoes.jpg', valid: true, errors: [] });
    expect(good.body!.seo.score).toEqual(expect.any(Number));

    const taken = await call(owner, 'POST', '/api/image/filename-check', {
      filename: second!.filename,
      imageId: first!.id,
    });
    expect(taken.body).toMatchObject({ filename: second!.filename, valid: false });
    expect(taken.body!.errors).toEqual([expect.objectContaining({ path: 'filename', code: 'filename_conflict' })]);

    const refused = await call(owner, 'POST', '/api/image/filename-check', { filename: 'IMG', imageId: first!.id });
    expect(refused.body).toMatchObject({ filename: null, valid: false, seo: null });
    expect(refused.body!.errors).toEqual([expect.objectContaining({ code: 'invalid_filename' })]);

    expect((await call(owner, 'GET', `/api/image/${first!.id}`)).body!.filename).toBe(first!.filename);
  });

  it('without an image, keeps the typed format and spells the words of the given locale', async () => {
    const owner = await stack.createUser();
    const { body } = await call(owner, 'POST', '/api/image/filename-check', {
      filename: 'Grüne Äpfel im Korb.webp',
      locale: 'de',
    });
    expect(body).toMatchObject({ filename: 'gruene-aepfel-im-korb.webp', valid: true });
  });

  it('answers another user’s image as not found', async () => {
    const owner = await stack.createUser();
    const { accepted } = await uploaded(owner, 1);
    const stranger = await stack.createUser();
    const { status, body } = await call(stranger, 'POST', '/api/image/filename-check', {
      filename: 'anything',
      imageId: accepted[0]!.imageId,
    });
    expect(status).toBe(404);
    expect(body!.code).toBe('not_found');
  });
});

describe('GET /api/image/batch/:batchId?sort=score', () => {
  it('pages through every image once, lowest score first', async () => {
    const owner = await stack.createUser();
    const { batchId, accepted } = await readyBatch(owner, 5);
    // Names of different quality, so the scores differ.
    const names = ['shoes', 'red leather shoes', 'handmade red leather ankle boots', 'boots', 'red boots for winter'];
    for (const [i, image] of accepted.entries()) {
      expect((await call(owner, 'PUT', `/api/image/${image.imageId}/filename`, { filename: names[i] })).status).toBe(
        200,
      );
    }

    const seen: Json[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `sort=score&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await call(owner, 'GET', `/api/image/batch/${batchId}?${query}`);
      expect(status).toBe(200);
      seen.push(...(body!.items as Json[]));
      cursor = body!.nextCursor as string | null;
    } while (cursor);

    expect(seen.map((image) => image.id).sort()).toEqual(accepted.map((image) => image.imageId).sort());
    const scores = seen.map((image) => image.seo.score as number);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(new Set(scores).size).toBeGreaterThan(1);
  });

  it('refuses a cursor of the upload order', async () => {
    const owner = await stack.createUser();
    const { batchId } = await uploaded(owner, 2);
    const first = await call(owner, 'GET', `/api/image/batch/${batchId}?limit=1`);
    const { status, body } = await call(
      owner,
      'GET',
      `/api/image/batch/${batchId}?sort=score&cursor=${first.body!.nextCursor}`,
    );
    expect(status).toBe(400);
    expect(body!.code).toBe('invalid_cursor');
  });
});
