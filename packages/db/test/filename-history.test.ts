import { afterAll, describe, expect, it } from 'vitest';
import {
  createBatchRepository,
  createFilenameHistoryRepository,
  createImageRepository,
  createUserRepository,
  isUniqueViolation,
  UNIQUE_FILENAME_PER_BATCH,
} from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const history = createFilenameHistoryRepository(client.db);
const images = createImageRepository(client.db);

afterAll(() => client.close());

async function batchOf(count: number) {
  const user = await createTestUser(client);
  const batch = await createBatchRepository(client.db).create({ userId: user.id, total: count });
  const rows = await images.insertMany(Array.from({ length: count }, () => imageInput(batch.id, user.id)));
  return { user, batch, images: rows };
}

describe('filename history repository', () => {
  it('appends entries and lists them newest first', async () => {
    const {
      user,
      images: [image],
    } = await batchOf(1);

    const proposal = await history.append({
      imageId: image!.id,
      oldFilename: null,
      newFilename: 'red-maple-leaf.jpg',
      source: 'proposal',
      by: null,
    });
    const edit = await history.append({
      imageId: image!.id,
      oldFilename: 'red-maple-leaf.jpg',
      newFilename: 'autumn-maple.jpg',
      source: 'user',
      by: user.id,
    });
    expect(proposal).toMatchObject({ imageId: image!.id, source: 'proposal', oldFilename: null, by: null });
    expect(await history.listForImage(image!.id)).toEqual([edit, proposal]);
  });

  it('keeps the history of a user whose account is gone, without naming them', async () => {
    const {
      images: [image],
    } = await batchOf(1);
    const editor = await createTestUser(client);
    await history.append({
      imageId: image!.id,
      oldFilename: null,
      newFilename: 'a.jpg',
      source: 'user',
      by: editor.id,
    });

    await createUserRepository(client.db).delete(editor.id);

    expect(await history.listForImage(image!.id)).toMatchObject([{ newFilename: 'a.jpg', by: null }]);
  });
});

describe('images.changeFilename', () => {
  it('changes the name and writes its history row together, from the expected status only', async () => {
    const {
      user,
      images: [image],
    } = await batchOf(1);
    await images.update(image!.id, { status: 'ready' });

    const renamed = await images.changeFilename(
      image!.id,
      { filename: 'first.jpg', source: 'proposal', by: null, set: { proposedFilename: 'first.jpg' } },
      { expectStatus: ['ready'] },
    );
    const again = await images.changeFilename(
      image!.id,
      { filename: 'second.jpg', source: 'user', by: user.id, set: { status: 'approved' } },
      { expectStatus: ['ready'] },
    );
    const refused = await images.changeFilename(
      image!.id,
      { filename: 'third.jpg', source: 'user', by: user.id },
      { expectStatus: ['ready'] },
    );

    expect(renamed).toMatchObject({ filename: 'first.jpg', proposedFilename: 'first.jpg' });
    expect(again).toMatchObject({ filename: 'second.jpg', status: 'approved' });
    expect(refused).toBeNull();
    expect(await history.listForImage(image!.id)).toMatchObject([
      { oldFilename: 'first.jpg', newFilename: 'second.jpg', source: 'user', by: user.id },
      { oldFilename: null, newFilename: 'first.jpg', source: 'proposal', by: null },
    ]);
  });

  it('writes nothing when another image of the batch holds the name, also inside a caller’s transaction', async () => {
    const {
      images: [mine, theirs],
    } = await batchOf(2);
    await images.changeFilename(theirs!.id, { filename: 'taken.jpg', source: 'proposal', by: null });

    const conflict = await images
      .changeFilename(mine!.id, { filename: 'taken.jpg', source: 'proposal', by: null })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(conflict, UNIQUE_FILENAME_PER_BATCH)).toBe(true);

    // The caller's transaction survives the refused change (a savepoint) and goes on.
    const kept = await client.db.transaction(async (tx) => {
      await images
        .changeFilename(mine!.id, { filename: 'taken.jpg', source: 'proposal', by: null }, {}, tx)
        .catch(() => undefined);
      return images.changeFilename(mine!.id, { filename: 'free.jpg', source: 'proposal', by: null }, {}, tx);
    });

    expect(kept?.filename).toBe('free.jpg');
    expect((await history.listForImage(mine!.id)).map((entry) => entry.newFilename)).toEqual(['free.jpg']);
  });

  it('orders changes racing for one image as they were made', async () => {
    const {
      images: [image],
    } = await batchOf(1);
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        images.changeFilename(image!.id, { filename: `name-${index}.jpg`, source: 'proposal', by: null }),
      ),
    );
    const entries = await history.listForImage(image!.id);
    // Each change saw the one before it: following `from` back from the newest reaches every entry.
    expect(entries.map((entry) => entry.oldFilename).slice(0, -1)).toEqual(entries.slice(1).map((e) => e.newFilename));
    expect((await images.findById(image!.id))?.filename).toBe(entries[0]!.newFilename);
  });
});
