import { afterAll, describe, expect, it } from 'vitest';
import { createBatchRepository, createFilenameHistoryRepository, createImageRepository } from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const history = createFilenameHistoryRepository(client.db);

afterAll(() => client.close());

describe('filename history repository', () => {
  it('appends entries and lists them oldest first', async () => {
    const user = await createTestUser(client);
    const batch = await createBatchRepository(client.db).create({ userId: user.id, total: 1 });
    const [image] = await createImageRepository(client.db).insertMany([imageInput(batch.id, user.id)]);

    const proposal = await history.append({
      imageId: image!.id,
      oldFilename: null,
      newFilename: 'red-maple-leaf.jpg',
      source: 'proposal',
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edit = await history.append({
      imageId: image!.id,
      oldFilename: 'red-maple-leaf.jpg',
      newFilename: 'autumn-maple.jpg',
      source: 'user',
    });
    expect(proposal).toMatchObject({ imageId: image!.id, source: 'proposal', oldFilename: null });
    expect(await history.listForImage(image!.id)).toEqual([proposal, edit]);
  });
});
