import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type Batch, createBatchRepository, createImageRepository, type User } from '../src';
import { connectTestDb, createTestUser, sha256Hex } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const batches = createBatchRepository(client.db);
const images = createImageRepository(client.db);

afterAll(() => client.close());

/** The domain's claim event, as the worker passes it. */
const CLAIM = { from: ['queued', 'processing'], to: 'processing' } as const;

async function userWithBatch(total = 3): Promise<{ user: User; batch: Batch }> {
  const user = await createTestUser(client);
  const batch = await batches.create({ userId: user.id, total });
  return { user, batch };
}

describe('image repository', () => {
  it('inserts many images in one statement and reads one back for its owner only', async () => {
    const { user, batch } = await userWithBatch();
    const stranger = await createTestUser(client);
    const metadata = { width: 4000, height: 3000, format: 'jpeg' as const, orientation: 1, hasAlpha: false };
    const inserted = await images.insertMany([
      imageInput(batch.id, user.id, { metadata }),
      imageInput(batch.id, user.id),
      imageInput(batch.id, user.id),
    ]);
    expect(inserted).toHaveLength(3);
    expect(inserted[0]).toMatchObject({ status: 'queued', attempts: 0, visionTags: [], metadata, approvedAt: null });
    expect(await images.findByIdForUser(inserted[0]!.id, user.id)).toEqual(inserted[0]);
    expect(await images.findByIdForUser(inserted[0]!.id, stranger.id)).toBeNull();
    expect(await images.findById(inserted[1]!.id)).toEqual(inserted[1]);
    expect(await images.findById(randomUUID())).toBeNull();
    expect(await images.insertMany([])).toEqual([]);
  });

  it('refuses a checksum that is not SHA-256 hex', async () => {
    const { user, batch } = await userWithBatch();
    await expect(images.insertMany([imageInput(batch.id, user.id, { checksum: 'abc' })])).rejects.toThrow();
  });

  it('pages through a batch in upload order, filtered by status, never another user’s', async () => {
    const { user, batch } = await userWithBatch(5);
    const stranger = await createTestUser(client);
    const inserted = await images.insertMany(Array.from({ length: 5 }, () => imageInput(batch.id, user.id)));
    // The order they were given in, not that of their random ids.
    const ordered = inserted.map((image) => image.id);

    const first = await images.listByBatch(batch.id, user.id, { limit: 3 });
    const second = await images.listByBatch(batch.id, user.id, { limit: 3, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((image) => image.id)).toEqual(ordered);
    expect(second.nextCursor).toBeNull();

    await images.update(ordered[1]!, { status: 'failed', error: 'decode failed' });
    const failed = await images.listByBatch(batch.id, user.id, { status: 'failed' });
    expect(failed.items.map((image) => image.id)).toEqual([ordered[1]]);

    expect((await images.listByBatch(batch.id, stranger.id)).items).toEqual([]);
    expect((await images.listAllByBatch(batch.id)).map((image) => image.id)).toEqual(ordered);
    expect((await images.listAllByBatch(batch.id, ['failed'])).map((image) => image.id)).toEqual([ordered[1]]);
  });

  it('finds which checksums the user already has, in one query, ignoring other users', async () => {
    const { user, batch } = await userWithBatch();
    const other = await userWithBatch();
    const shared = sha256Hex(randomUUID());
    const [earliest] = await images.insertMany([imageInput(batch.id, user.id, { checksum: shared })]);
    // A user holds each file once: the database refuses a second row, even from a racing upload.
    await expect(images.insertMany([imageInput(batch.id, user.id, { checksum: shared })])).rejects.toMatchObject({
      cause: { constraint_name: 'images_user_id_checksum_key' },
    });
    const [foreign] = await images.insertMany([imageInput(other.batch.id, other.user.id, { checksum: shared })]);

    expect(foreign!.checksum).toBe(shared);
    const matches = await images.findDuplicateChecksums(user.id, [shared, sha256Hex('new')]);
    expect(matches).toEqual([{ checksum: shared, imageId: earliest!.id }]);
    expect(await images.findDuplicateChecksums(user.id, [])).toEqual([]);
  });

  it('counts a batch’s images per status', async () => {
    const { user, batch } = await userWithBatch();
    const [first] = await images.insertMany([
      imageInput(batch.id, user.id),
      imageInput(batch.id, user.id),
      imageInput(batch.id, user.id),
    ]);
    await images.update(first!.id, { status: 'ready' });
    expect(await images.countByStatus(batch.id)).toEqual({
      queued: 2,
      processing: 0,
      ready: 1,
      approved: 0,
      failed: 0,
      cancelled: 0,
    });
  });

  it('claims an attempt only while queued or processing', async () => {
    const { user, batch } = await userWithBatch();
    const [image] = await images.insertMany([imageInput(batch.id, user.id)]);
    expect(await images.startAttempt(image!.id, CLAIM)).toMatchObject({ status: 'processing', attempts: 1 });
    expect(await images.startAttempt(image!.id, CLAIM)).toMatchObject({ status: 'processing', attempts: 2 });
    await images.update(image!.id, { status: 'cancelled' });
    expect(await images.startAttempt(image!.id, CLAIM)).toBeNull();
  });

  it('writes a proposal only from the expected status and bumps updated_at', async () => {
    const { user, batch } = await userWithBatch();
    const [image] = await images.insertMany([imageInput(batch.id, user.id)]);
    const proposal = {
      status: 'ready' as const,
      proposedFilename: 'misty-lake-at-dawn.jpg',
      filename: 'misty-lake-at-dawn.jpg',
      visionTags: [{ label: 'lake', confidence: 0.9, source: 'objects' as const }],
      altText: 'A misty lake at dawn',
    };
    expect(await images.update(image!.id, proposal, { expectStatus: ['processing'] })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await images.update(image!.id, proposal, { expectStatus: ['queued', 'processing'] });
    expect(updated).toMatchObject(proposal);
    expect(updated!.updatedAt.getTime()).toBeGreaterThan(image!.updatedAt.getTime());
  });

  it('moves a batch’s images between states in one statement', async () => {
    const { user, batch } = await userWithBatch();
    const inserted = await images.insertMany([
      imageInput(batch.id, user.id),
      imageInput(batch.id, user.id),
      imageInput(batch.id, user.id),
    ]);
    await images.update(inserted[0]!.id, { status: 'ready' });
    await images.update(inserted[1]!.id, { status: 'failed', error: 'boom', attempts: 3 });
    const approvedAt = new Date('2031-03-01T00:00:00.000Z');

    expect(await images.transitionByBatch(batch.id, { from: ['ready'], to: 'approved', set: { approvedAt } })).toEqual([
      inserted[0]!.id,
    ]);
    expect(await images.findById(inserted[0]!.id)).toMatchObject({ status: 'approved', approvedAt });

    const requeued = await images.transitionByBatch(batch.id, {
      from: ['failed', 'cancelled'],
      to: 'queued',
      set: { error: null, attempts: 0 },
    });
    expect(requeued).toEqual([inserted[1]!.id]);
    expect(await images.findById(inserted[1]!.id)).toMatchObject({ status: 'queued', error: null, attempts: 0 });

    const cancelled = await images.transitionByBatch(batch.id, { from: ['queued', 'processing'], to: 'cancelled' });
    expect(new Set(cancelled)).toEqual(new Set([inserted[1]!.id, inserted[2]!.id]));
  });

  it('moves only the listed images of the batch that are in the expected state', async () => {
    const { user, batch } = await userWithBatch();
    const other = await userWithBatch();
    const [a, b, c] = await images.insertMany([
      imageInput(batch.id, user.id, { status: 'ready' }),
      imageInput(batch.id, user.id, { status: 'ready' }),
      imageInput(batch.id, user.id, { status: 'failed' }),
    ]);
    const [elsewhere] = await images.insertMany([imageInput(other.batch.id, other.user.id, { status: 'ready' })]);

    const approved = await images.transitionByBatch(batch.id, {
      from: ['ready'],
      to: 'approved',
      imageIds: [a!.id, c!.id, elsewhere!.id],
    });

    expect(approved).toEqual([a!.id]);
    expect((await images.findById(b!.id))?.status).toBe('ready');
    expect((await images.findById(elsewhere!.id))?.status).toBe('ready');
  });

  it('tells whether another image of the batch holds a filename', async () => {
    const { user, batch } = await userWithBatch();
    const [image] = await images.insertMany([imageInput(batch.id, user.id, { filename: 'harbour-boats.jpg' })]);
    expect(await images.isFilenameTaken(batch.id, 'harbour-boats.jpg')).toBe(true);
    expect(await images.isFilenameTaken(batch.id, 'harbour-boats.jpg', image!.id)).toBe(false);
    expect(await images.isFilenameTaken(batch.id, 'other.jpg')).toBe(false);
  });

  it('lists the batch’s filenames that start with a stem, in one query', async () => {
    const { user, batch } = await userWithBatch();
    const other = await userWithBatch();
    const names = ['landscape.jpg', 'landscape-2.jpg', 'landscapes-at-dawn.jpg', 'portrait.jpg', 'land_scape.jpg'];
    const inserted = await images.insertMany(names.map((filename) => imageInput(batch.id, user.id, { filename })));
    await images.insertMany([imageInput(other.batch.id, other.user.id, { filename: 'landscape-3.jpg' })]);

    expect((await images.filenamesStartingWith(batch.id, 'landscape')).sort()).toEqual(
      ['landscape-2.jpg', 'landscape.jpg', 'landscapes-at-dawn.jpg'].sort(),
    );
    expect(await images.filenamesStartingWith(batch.id, 'landscape', inserted[0]!.id)).not.toContain('landscape.jpg');
    // `_` is a LIKE wildcard; it must match only itself.
    expect(await images.filenamesStartingWith(batch.id, 'land_')).toEqual(['land_scape.jpg']);
  });

  it('pages through stale images in (updated_at, id) order', async () => {
    const { user, batch } = await userWithBatch();
    // Written far in the past (an UPDATE would be re-stamped by the trigger), so the pages before the
    // cutoff hold these five and nothing of other tests.
    const inserted = [1, 2, 3, 4, 5].map(() => ({ ...imageInput(batch.id, user.id), id: randomUUID() }));
    for (const image of inserted) {
      await client.sql`insert into images (id, batch_id, user_id, original_filename, checksum, size, mime_type, storage_key, created_at, updated_at)
        values (${image.id}, ${batch.id}, ${user.id}, ${image.originalFilename}, ${image.checksum}, ${image.size}, ${image.mimeType}, ${image.storageKey}, '2001-01-01T00:00:00Z', '2001-01-01T00:00:00Z')`;
    }
    const cutoff = new Date('2001-06-01T00:00:00Z');
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof images.listStale>>[number] | undefined;
    for (;;) {
      const page = await images.listStale(['queued'], cutoff, 2, after);
      seen.push(...page.filter((image) => image.batchId === batch.id).map((image) => image.id));
      if (page.length < 2) break;
      after = page.at(-1);
    }
    expect(seen.sort()).toEqual(inserted.map((image) => image.id).sort());
  });

  it('lists stale images and a user’s storage keys', async () => {
    const { user, batch } = await userWithBatch();
    const inserted = await images.insertMany([imageInput(batch.id, user.id), imageInput(batch.id, user.id)]);
    const stale = await images.listStale(['queued'], new Date(Date.now() + 60_000), 10_000);
    expect(stale.map((image) => image.id)).toEqual(expect.arrayContaining(inserted.map((image) => image.id)));
    expect(new Set(await images.listStorageKeysForUser(user.id))).toEqual(
      new Set(inserted.map((image) => image.storageKey)),
    );
  });
});
