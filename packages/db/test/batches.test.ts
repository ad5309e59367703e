import { randomUUID } from 'node:crypto';
import { emptyImageStatusCounts } from '@renamer/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createApiKeyRepository,
  createBatchRepository,
  createImageRepository,
  createSessionRepository,
  InvalidCursorError,
} from '../src';
import { connectTestDb, createTestUser, newestFirst, sha256Hex } from './support/database';

const client = connectTestDb();
const batches = createBatchRepository(client.db);
const images = createImageRepository(client.db);

afterAll(() => client.close());

describe('batch repository', () => {
  it('creates a batch with defaults and finds it for its owner only', async () => {
    const [owner, stranger] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const batch = await batches.create({ userId: owner.id, total: 3 });
    expect(batch).toMatchObject({
      userId: owner.id,
      status: 'queued',
      locale: 'en',
      keywords: [],
      total: 3,
      name: null,
    });
    expect(await batches.findByIdForUser(batch.id, owner.id)).toEqual(batch);
    expect(await batches.findByIdForUser(batch.id, stranger.id)).toBeNull();
    expect(await batches.findById(batch.id)).toEqual(batch);
    expect(await batches.findById(randomUUID())).toBeNull();
  });

  it('finds a batch with its image counts per status in one query, for its owner only', async () => {
    const [owner, stranger] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const empty = await batches.create({ userId: owner.id, total: 0 });
    expect(await batches.findStatusForUser(empty.id, owner.id)).toEqual({
      batch: empty,
      counts: emptyImageStatusCounts(),
    });

    const batch = await batches.create({ userId: owner.id, total: 3 });
    await images.insertMany(
      (['queued', 'failed', 'failed'] as const).map((status, index) => ({
        batchId: batch.id,
        userId: owner.id,
        originalFilename: `${index}.jpg`,
        checksum: sha256Hex(`${batch.id}-${index}`),
        size: 1,
        mimeType: 'image/jpeg',
        storageKey: `${batch.id}/${index}`,
        status,
      })),
    );
    expect(await batches.findStatusForUser(batch.id, owner.id)).toEqual({
      batch,
      counts: { ...emptyImageStatusCounts(), queued: 1, failed: 2 },
    });
    expect(await batches.findStatusForUser(batch.id, stranger.id)).toBeNull();
    expect(await batches.findStatusForUser(randomUUID(), owner.id)).toBeNull();
  });

  it('reads a status with the credential that checks it, as the credential lookups read it, the batch only if its user’s', async () => {
    const apiKeys = createApiKeyRepository(client.db);
    const sessions = createSessionRepository(client.db);
    const now = new Date();
    const [owner, stranger] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const batch = await batches.create({ userId: owner.id, total: 1 });
    const status = { batch, counts: emptyImageStatusCounts() };
    const keyHash = sha256Hex(randomUUID());
    await apiKeys.create({ userId: owner.id, name: 'poller', prefix: 'rn_poll', keyHash });
    const session = await sessions.create({ userId: owner.id, expiresAt: new Date(now.getTime() + 60_000) });

    const byKey = await apiKeys.findActiveByHash(keyHash, now);
    expect(await batches.findStatusWithApiKey(keyHash, now, batch.id)).toEqual({ ...byKey, read: status });
    const bySession = await sessions.findActive(session.id, now);
    expect(await batches.findStatusWithSession(session.id, now, batch.id)).toEqual({ ...bySession, read: status });

    // Someone else's batch, or none: the credential all the same, and nothing read.
    const elsewhere = await batches.create({ userId: stranger.id, total: 0 });
    expect(await batches.findStatusWithApiKey(keyHash, now, elsewhere.id)).toEqual({ ...byKey, read: null });
    expect(await batches.findStatusWithSession(session.id, now, randomUUID())).toEqual({ ...bySession, read: null });

    // A credential that no longer holds reads nothing.
    await sessions.revoke(session.id, now);
    expect(await batches.findStatusWithSession(session.id, now, batch.id)).toBeNull();
    expect(await batches.findStatusWithApiKey(sha256Hex('unknown'), now, batch.id)).toBeNull();
  });

  it('keeps keywords and locale', async () => {
    const user = await createTestUser(client);
    const batch = await batches.create({
      userId: user.id,
      total: 1,
      name: 'Alps',
      locale: 'de-CH',
      keywords: ['berg', 'see'],
    });
    expect(await batches.findById(batch.id)).toMatchObject({
      name: 'Alps',
      locale: 'de-CH',
      keywords: ['berg', 'see'],
    });
  });

  it('pages through a user’s batches newest first with an opaque cursor', async () => {
    const [user, other] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const created = [];
    for (let index = 0; index < 5; index += 1) created.push(await batches.create({ userId: user.id, total: index }));
    await batches.create({ userId: other.id, total: 1 });
    const expected = newestFirst(created).map((batch) => batch.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await batches.listForUser(user.id, { limit: 2, cursor });
      seen.push(...page.items.map((batch) => batch.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);

    const all = await batches.listForUser(user.id);
    expect(all.items.map((batch) => batch.id)).toEqual(expected);
    expect(all.nextCursor).toBeNull();
  });

  it('pages correctly through batches created in the same millisecond', async () => {
    const user = await createTestUser(client);
    const created = await client.db.transaction(async (tx) => {
      const rows = [];
      for (let index = 0; index < 4; index += 1) rows.push(await batches.create({ userId: user.id, total: 1 }, tx));
      return rows;
    });
    expect(new Set(created.map((batch) => batch.createdAt.getTime())).size).toBe(1);
    const first = await batches.listForUser(user.id, { limit: 3 });
    const second = await batches.listForUser(user.id, { limit: 3, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((batch) => batch.id)).toEqual(newestFirst(created).map((b) => b.id));
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a malformed cursor', async () => {
    const user = await createTestUser(client);
    await expect(batches.listForUser(user.id, { cursor: 'not-a-cursor' })).rejects.toThrow(InvalidCursorError);
    const wrongShape = Buffer.from(JSON.stringify(['2031-01-01T00:00:00Z', 'x'])).toString('base64url');
    await expect(batches.listForUser(user.id, { cursor: wrongShape })).rejects.toThrow(InvalidCursorError);
  });

  it('updates only from the expected status', async () => {
    const user = await createTestUser(client);
    const batch = await batches.create({ userId: user.id, total: 1 });
    const completedAt = new Date('2031-02-01T00:00:00.000Z');
    expect(await batches.update(batch.id, { status: 'cancelled' }, { expectStatus: ['completed'] })).toBeNull();
    const updated = await batches.update(
      batch.id,
      { status: 'completed', completedAt },
      { expectStatus: ['queued', 'processing'] },
    );
    expect(updated).toMatchObject({ status: 'completed', completedAt });
    expect(await batches.update(batch.id, { name: 'renamed' })).toMatchObject({ name: 'renamed', status: 'completed' });
  });

  it('lists stale batches by status and age', async () => {
    const user = await createTestUser(client);
    const batch = await batches.create({ userId: user.id, total: 1, status: 'processing' });
    const stale = await batches.listStale(['processing'], new Date(Date.now() + 60_000), 1_000);
    expect(stale.map((row) => row.id)).toContain(batch.id);
    expect((await batches.listStale(['processing'], batch.updatedAt, 1_000)).map((row) => row.id)).not.toContain(
      batch.id,
    );
  });

  it('deletes only the owner’s batch', async () => {
    const [owner, stranger] = await Promise.all([createTestUser(client), createTestUser(client)]);
    const batch = await batches.create({ userId: owner.id, total: 1 });
    expect(await batches.delete(batch.id, stranger.id)).toBe(false);
    expect(await batches.delete(batch.id, owner.id)).toBe(true);
    expect(await batches.findById(batch.id)).toBeNull();
  });
});
