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

describe('images.renameProposals', () => {
  const SEO = { score: 80, reasons: [] };
  async function proposed(names: readonly string[]) {
    const batch = await batchOf(names.length);
    const ready = await Promise.all(
      batch.images.map((image, index) =>
        images.changeFilename(image.id, {
          filename: names[index]!,
          source: 'proposal',
          by: null,
          set: { status: 'ready', proposedFilename: names[index]! },
        }),
      ),
    );
    return { ...batch, images: ready.map((image) => image!) };
  }

  it('swaps names between untouched proposals in one go, with a history row each', async () => {
    const {
      batch,
      images: [a, b],
    } = await proposed(['mug.jpg', 'mug-2.jpg']);
    const renamed = await images.renameProposals(batch.id, [
      { id: a!.id, from: 'mug.jpg', filename: 'mug-2.jpg', seo: SEO },
      { id: b!.id, from: 'mug-2.jpg', filename: 'mug.jpg', seo: SEO },
    ]);
    expect(renamed.map((image) => [image.id, image.filename, image.proposedFilename, image.seo])).toEqual(
      expect.arrayContaining([
        [a!.id, 'mug-2.jpg', 'mug-2.jpg', SEO],
        [b!.id, 'mug.jpg', 'mug.jpg', SEO],
      ]),
    );
    expect(await history.listForImage(a!.id)).toMatchObject([
      { oldFilename: 'mug.jpg', newFilename: 'mug-2.jpg', source: 'proposal', by: null },
      { newFilename: 'mug.jpg' },
    ]);
  });

  it('leaves an image a person renamed or approved as it is', async () => {
    const {
      user,
      batch,
      images: [renamedByPerson, approved],
    } = await proposed(['cup.jpg', 'cup-2.jpg']);
    await images.changeFilename(renamedByPerson!.id, { filename: 'my-cup.jpg', source: 'user', by: user.id });
    await images.update(approved!.id, { status: 'approved' });
    const renamed = await images.renameProposals(batch.id, [
      { id: renamedByPerson!.id, from: 'cup.jpg', filename: 'blue-cup.jpg', seo: SEO },
      { id: approved!.id, from: 'cup-2.jpg', filename: 'red-cup.jpg', seo: SEO },
    ]);
    expect(renamed).toEqual([]);
    expect((await images.findById(renamedByPerson!.id))?.filename).toBe('my-cup.jpg');
    expect((await images.findById(approved!.id))?.filename).toBe('cup-2.jpg');
  });

  it('changes nothing when a new name is held by an image outside the change', async () => {
    const {
      batch,
      images: [a, b],
    } = await proposed(['bowl.jpg', 'plate.jpg']);
    const conflict = await images
      .renameProposals(batch.id, [{ id: a!.id, from: 'bowl.jpg', filename: 'plate.jpg', seo: SEO }])
      .catch((error: unknown) => error);
    expect(isUniqueViolation(conflict, UNIQUE_FILENAME_PER_BATCH)).toBe(true);
    expect((await images.findById(a!.id))?.filename).toBe('bowl.jpg');
    expect((await images.findById(b!.id))?.filename).toBe('plate.jpg');
    expect(await history.listForImage(a!.id)).toHaveLength(1);
  });
});
