import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, type Json, type PipelineStack, startPipelineStack } from './support/pipeline-stack';

let stack: PipelineStack;
let api: { url: string };

beforeAll(async () => {
  stack = await startPipelineStack('bad-input');
  api = await stack.startApi();
}, 60_000);

afterAll(() => stack?.close());

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

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
