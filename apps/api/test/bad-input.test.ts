import { imageObjectKey, userObjectPrefix } from '@renamer/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from './support/images';
import { getJson, type Json, type PipelineStack, startPipelineStack, upload } from './support/pipeline-stack';

let stack: PipelineStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startPipelineStack('bad-input');
  api = await stack.startApi();
}, 60_000);

afterAll(() => stack?.close());

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function storedObjectsOf(userId: string) {
  const keys: string[] = [];
  for await (const object of stack.platform.store.list(userObjectPrefix(userId))) keys.push(object.key);
  return keys;
}

describe('a list cursor the service did not issue', () => {
  it.each([
    ['garbage', 'garbage'],
    ['base64url of a broken JSON text', 'eyJ9'],
    ['a broken percent-encoding', '%E0%A4%A'],
    ['fields that are not a date and an id', cursorOf(['yesterday', 'me'])],
    ['an id that is not a UUID', cursorOf(['2026-01-01T00:00:00.000Z', 'me'])],
    ['a date PostgreSQL cannot hold', cursorOf(['-271821-04-20T00:00:00.000Z', crypto.randomUUID()])],
    ['an object instead of a pair', cursorOf({ createdAt: '2026-01-01T00:00:00.000Z', id: crypto.randomUUID() })],
  ])('is a 400 invalid_cursor problem (%s)', async (_what, cursor) => {
    const { key } = await stack.createUser();
    const response = await fetch(`${api.url}/api/batch?cursor=${cursor}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 400, code: 'invalid_cursor', requestId: expect.any(String) });
  });

  it('still pages with the cursors it issues', async () => {
    const { key, user } = await stack.createUser();
    const created = [
      await stack.repositories.batches.create({ userId: user.id, total: 1 }),
      await stack.repositories.batches.create({ userId: user.id, total: 1 }),
    ];
    const first = await getJson(`${api.url}/api/batch?limit=1`, key);
    const second = await getJson(`${api.url}/api/batch?limit=1&cursor=${first.body?.nextCursor}`, key);
    expect(second).toMatchObject({ status: 200, body: { nextCursor: null } });
    const listed = [first, second].flatMap(({ body }) => body?.items.map((batch: Json) => batch.batchId));
    expect(listed.sort()).toEqual(created.map((batch) => batch.id).sort());
  });
});

describe('control characters in names and identifiers', () => {
  it.each(['a\u0000b', 'a\u0007b', 'line\nbreak', 'esc\u001b[31m'])('refuses an API key named %j', async (name) => {
    const { key } = await stack.createUser();
    const created = await getJson(`${api.url}/api/auth/api-keys`, key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(created).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const keys = await getJson(`${api.url}/api/auth/api-keys`, key);
    expect(keys.body?.items.map((item: { name: string }) => item.name)).toEqual(['test']);
  });

  it.each(['a\u0000b', 'tab\there'])('refuses the display name %j', async (displayName) => {
    const { key, user } = await stack.createUser();
    const renamed = await getJson(`${api.url}/api/auth/me`, key, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ displayName }),
    });
    expect(renamed).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect((await getJson(`${api.url}/api/auth/me`, key)).body?.displayName).toBe(user.displayName);
  });

  it.each([
    ['name', 'Summer\u0000shop'],
    ['name', 'two\nlines'],
    ['keywords', 'red shoes, be\u0000ach'],
    ['keywords', 'red\u0007shoes'],
    ['locale', 'en\u0000'],
  ])('refuses an upload whose %s is %j and keeps nothing', async (field, value) => {
    const { key, user } = await stack.createUser();
    const files = [{ name: 'shop.jpg', bytes: await photo('jpeg', 11), type: 'image/jpeg' }];
    const { status, body } = await upload(api.url, key, files, { [field]: value });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'validation_failed', errors: [{ path: expect.stringContaining(field) }] });
    expect((await getJson(`${api.url}/api/batch`, key)).body?.items).toEqual([]);
    expect(await storedObjectsOf(user.id)).toEqual([]);
    expect(stack.leftoverSpoolFiles()).toEqual([]);
  });

  it.each(['nul\u0000.jpg', 'bell\u0007.jpg', 'esc\u001b[2J.jpg', 'del\u007f.jpg'])(
    'refuses the file named %j alone and stores the others',
    async (badName) => {
      const { key, user } = await stack.createUser();
      const files = [
        { name: badName, bytes: await photo('jpeg', 21), type: 'image/jpeg' },
        { name: 'fine.jpg', bytes: await photo('jpeg', 22), type: 'image/jpeg' },
      ];
      const { status, body } = await upload(api.url, key, files);
      expect(status).toBe(201);
      expect(body.accepted).toEqual([{ imageId: expect.any(String), originalFilename: 'fine.jpg' }]);
      expect(body.rejected).toEqual([
        { originalFilename: badName, code: 'invalid_filename', detail: expect.any(String) },
      ]);
      expect(await storedObjectsOf(user.id)).toEqual([imageObjectKey(user.id, body.accepted[0].imageId)]);
      expect(stack.leftoverSpoolFiles()).toEqual([]);
    },
  );

  it('answers 422 upload_rejected when the only file has a control character in its name', async () => {
    const { key, user } = await stack.createUser();
    const files = [{ name: 'a\u0000b.jpg', bytes: await photo('jpeg', 31), type: 'image/jpeg' }];
    const { status, body } = await upload(api.url, key, files);
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'upload_rejected', errors: [{ code: 'invalid_filename' }] });
    expect((await getJson(`${api.url}/api/batch`, key)).body?.items).toEqual([]);
    expect(await storedObjectsOf(user.id)).toEqual([]);
  });
});
