import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createBatchRepository, createDownloadRepository, createImageRepository } from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const downloads = createDownloadRepository(client.db);

afterAll(() => client.close());

describe('download repository', () => {
  it('records a ZIP and an image download and adds the bytes served', async () => {
    const user = await createTestUser(client);
    const batch = await createBatchRepository(client.db).create({ userId: user.id, total: 1 });
    const [image] = await createImageRepository(client.db).insertMany([imageInput(batch.id, user.id)]);
    const expiresAt = new Date('2031-01-01T01:00:00.000Z');

    const zip = await downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      approvedOnly: true,
      expiresAt,
    });
    expect(zip).toMatchObject({
      kind: 'zip',
      batchId: batch.id,
      imageId: null,
      approvedOnly: true,
      bytes: null,
      expiresAt,
    });
    const single = await downloads.create({ kind: 'image', userId: user.id, imageId: image!.id, expiresAt });
    expect(single).toMatchObject({ kind: 'image', imageId: image!.id, batchId: null });
    expect((await downloads.listForUser(user.id)).map((row) => row.id)).toEqual([single.id, zip.id]);

    await downloads.addBytes(zip.id, 1_000);
    await downloads.addBytes(zip.id, 3_000_000_000);
    expect((await downloads.findById(zip.id))?.bytes).toBe(3_000_001_000);
    expect(await downloads.findById(randomUUID())).toBeNull();
  });

  it('refuses a ZIP download without a batch', async () => {
    const user = await createTestUser(client);
    const invalid = { kind: 'zip', userId: user.id, expiresAt: new Date() } as unknown as Parameters<
      typeof downloads.create
    >[0];
    await expect(downloads.create(invalid)).rejects.toThrow();
  });

  // Dates before any other test's records, so the shared database's other rows are left alone.
  it('deletes expired download records', async () => {
    const user = await createTestUser(client);
    const batch = await createBatchRepository(client.db).create({ userId: user.id, total: 1 });
    const expired = await downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      expiresAt: new Date('1971-01-01T00:00:00.000Z'),
    });
    const live = await downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      expiresAt: new Date('2999-01-01T00:00:00.000Z'),
    });
    expect(await downloads.deleteExpired(new Date('1971-01-02T00:00:00.000Z'))).toBe(1);
    expect(await downloads.findById(expired.id)).toBeNull();
    expect(await downloads.findById(live.id)).not.toBeNull();
  });
});
