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

  it('refuses a ZIP download that names an image', async () => {
    const user = await createTestUser(client);
    const batch = await createBatchRepository(client.db).create({ userId: user.id, total: 1 });
    const [image] = await createImageRepository(client.db).insertMany([imageInput(batch.id, user.id)]);
    const invalid = {
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      imageId: image!.id,
      expiresAt: new Date(),
    } as unknown as Parameters<typeof downloads.create>[0];
    await expect(downloads.create(invalid)).rejects.toMatchObject({
      cause: { constraint_name: 'downloads_zip_names_no_image' },
    });
  });

  it('pages a user’s downloads newest first with what each recorded, and marks one completed once', async () => {
    const user = await createTestUser(client);
    const other = await createTestUser(client);
    const batch = await createBatchRepository(client.db).create({ userId: user.id, total: 1 });
    const [image] = await createImageRepository(client.db).insertMany([imageInput(batch.id, user.id)]);
    const expiresAt = new Date('2031-01-01T01:00:00.000Z');
    const zip = await downloads.create({
      kind: 'zip',
      userId: user.id,
      batchId: batch.id,
      expiresAt,
      options: { embed: true, strip: 'location', manifest: true, resize: 1600, format: 'webp' },
      entries: 1,
    });
    // A minute older, so the order does not rest on two inserts falling in different milliseconds.
    await client.sql`update downloads set created_at = created_at - interval '1 minute' where id = ${zip.id}`;
    // Recorded without its batch (as single links were before): listed under its image's batch.
    const single = await downloads.create({ kind: 'image', userId: user.id, imageId: image!.id, expiresAt });
    const otherBatch = await createBatchRepository(client.db).create({ userId: other.id, total: 1 });
    await downloads.create({ kind: 'zip', userId: other.id, batchId: otherBatch.id, expiresAt });

    const first = await downloads.listPageForUser(user.id, { limit: 1 });
    expect(first.items).toEqual([expect.objectContaining({ id: single.id, batchId: batch.id, completedAt: null })]);
    const second = await downloads.listPageForUser(user.id, { limit: 1, cursor: first.nextCursor });
    expect(second).toEqual({
      items: [
        expect.objectContaining({
          id: zip.id,
          kind: 'zip',
          options: { embed: true, strip: 'location', manifest: true, resize: 1600, format: 'webp' },
          entries: 1,
        }),
      ],
      nextCursor: null,
    });

    await downloads.addBytes(zip.id, 500);
    expect(await downloads.findById(zip.id)).toMatchObject({ bytes: 500, completedAt: null });
    await downloads.addBytes(zip.id, 1_000, { completed: true });
    const completedAt = (await downloads.findById(zip.id))!.completedAt;
    expect(completedAt).toBeInstanceOf(Date);
    await downloads.addBytes(zip.id, 1_000, { completed: true });
    expect(await downloads.findById(zip.id)).toMatchObject({ bytes: 2_500, completedAt });
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
