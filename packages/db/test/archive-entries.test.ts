import { randomUUID } from 'node:crypto';
import type { ImageStatus } from '@renamer/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createArchiveEntryRepository, createBatchRepository, createImageRepository, type Image } from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const archiveEntries = createArchiveEntryRepository(client.db);
const batches = createBatchRepository(client.db);
const images = createImageRepository(client.db);

afterAll(() => client.close());

/** A batch with one image in each status; those that have been analysed carry a filename. */
async function batchOfEveryStatus() {
  const user = await createTestUser(client);
  const batch = await batches.create({ userId: user.id, total: 6, keywords: ['lake'] });
  const statuses: ImageStatus[] = ['ready', 'queued', 'approved', 'failed', 'processing', 'cancelled'];
  // One insert each, so their upload order (created_at) is the order of `statuses`.
  const rows: Image[] = [];
  for (const _ of statuses) rows.push(...(await images.insertMany([imageInput(batch.id, user.id)])));
  const named = new Map<ImageStatus, string>([
    ['ready', 'lake-at-dawn.jpg'],
    ['approved', 'lake-at-dusk.jpg'],
  ]);
  for (const [index, status] of statuses.entries()) {
    await images.update(rows[index]!.id, { status, filename: named.get(status) ?? null, altText: `alt ${status}` });
  }
  return { user, batch, byStatus: new Map(statuses.map((status, index) => [status, rows[index]!])) };
}

describe('archive entries', () => {
  it('lists the named, ready or approved images of the batch in upload order', async () => {
    const { user, batch, byStatus } = await batchOfEveryStatus();
    const contents = await archiveEntries.listForUser(batch.id, user.id);
    expect(contents?.batch).toEqual({ id: batch.id, name: null, keywords: ['lake'] });
    expect(contents?.entries).toEqual([
      expect.objectContaining({
        imageId: byStatus.get('ready')!.id,
        filename: 'lake-at-dawn.jpg',
        status: 'ready',
        approved: false,
        altText: 'alt ready',
        storageKey: byStatus.get('ready')!.storageKey,
      }),
      expect.objectContaining({ imageId: byStatus.get('approved')!.id, status: 'approved', approved: true }),
    ]);
  });

  it('keeps approved images only when asked', async () => {
    const { user, batch, byStatus } = await batchOfEveryStatus();
    const contents = await archiveEntries.listForUser(batch.id, user.id, { approvedOnly: true });
    expect(contents?.entries.map((entry) => entry.imageId)).toEqual([byStatus.get('approved')!.id]);
  });

  it('gives an empty list for a batch with nothing to deliver, and null for another user’s or a missing batch', async () => {
    const user = await createTestUser(client);
    const empty = await batches.create({ userId: user.id, total: 0 });
    expect(await archiveEntries.listForUser(empty.id, user.id)).toEqual({
      batch: { id: empty.id, name: null, keywords: [] },
      entries: [],
    });
    const { batch } = await batchOfEveryStatus();
    expect(await archiveEntries.listForUser(batch.id, user.id)).toBeNull();
    expect(await archiveEntries.listForUser(randomUUID(), user.id)).toBeNull();
  });
});
