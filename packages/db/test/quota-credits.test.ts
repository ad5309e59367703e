import { afterAll, describe, expect, it } from 'vitest';
import { createRepositories } from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const repos = createRepositories(client.db);

afterAll(() => client.close());

/** A user with `count` images in one batch, all counted against this month's quota, the first `processing`. */
async function userWithImages(count: number, quota = 50) {
  const user = await createTestUser(client, { quota });
  const batch = await repos.batches.create({ userId: user.id, total: count });
  const images = await repos.images.insertMany(
    Array.from({ length: count }, () => imageInput(batch.id, user.id, { status: 'processing' })),
  );
  expect(await repos.users.reserveQuota(user.id, count, new Date())).toBe(count);
  return { user, batch, images };
}

const usedNow = async (userId: string) => (await repos.users.getUsage(userId, new Date()))?.used;

describe('quota credits', () => {
  it('gives the quota of an image failed for good back once, however often the failure is reported', async () => {
    const { user, images } = await userWithImages(3);
    const [image] = images;
    expect(await usedNow(user.id)).toBe(3);

    const failed = await repos.images.failForGood(image!.id, {
      from: ['processing'],
      error: 'The image could not be analysed.',
      credit: 'analysis failed after its last attempt',
    });
    expect(failed).toMatchObject({ status: 'failed', error: 'The image could not be analysed.' });
    expect(await usedNow(user.id)).toBe(2);

    // Reported again: the image is no longer processing, nothing changes.
    expect(
      await repos.images.failForGood(image!.id, { from: ['processing'], error: 'again', credit: 'again' }),
    ).toBeNull();
    // Retried and failed once more: the unique index keeps one credit per image.
    await repos.images.update(image!.id, { status: 'processing' });
    expect(
      await repos.images.failForGood(image!.id, { from: ['processing'], error: 'again', credit: 'again' }),
    ).toMatchObject({ status: 'failed' });
    expect(await repos.quotaCredits.credit([image!.id], 'a third report')).toEqual([]);

    expect(await usedNow(user.id)).toBe(2);
    expect(await repos.quotaCredits.listForUser(user.id)).toMatchObject([
      { userId: user.id, imageId: image!.id, reason: 'analysis failed after its last attempt' },
    ]);
  });

  it('gives the image back to the month it was counted in: one uploaded last month and failed this month leaves this month as it was', async () => {
    const user = await createTestUser(client);
    const batch = await repos.batches.create({ userId: user.id, total: 3 });
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 28, 23));
    const [late, ...fresh] = await repos.images.insertMany(
      Array.from({ length: 3 }, () => imageInput(batch.id, user.id, { status: 'processing' })),
    );
    // Counted last month: the counter as last month's upload left it.
    const lastPeriod = `${lastMonth.toISOString().slice(0, 8)}01`;
    await client.sql`update users set usage_period = ${lastPeriod}::date, usage_count = 1 where id = ${user.id}`;
    await client.sql`update images set created_at = ${lastMonth.toISOString()}::timestamptz where id = ${late!.id}`;
    expect(await repos.users.reserveQuota(user.id, fresh.length, now)).toBe(2);

    await repos.images.failForGood(late!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    expect(await usedNow(user.id)).toBe(2);
    const [credit] = await repos.quotaCredits.listForUser(user.id);
    expect(credit?.countedAt.toISOString()).toBe(lastMonth.toISOString());

    await repos.images.failForGood(fresh[0]!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    expect(await usedNow(user.id)).toBe(1);
  });

  it('gives nothing back for a failure without a credit, nor for an image that is not failed', async () => {
    const { user, images } = await userWithImages(2);
    await repos.images.failForGood(images[0]!.id, { from: ['processing'], error: 'The image was judged unsafe.' });
    expect(await repos.quotaCredits.credit([images[1]!.id], 'not failed')).toEqual([]);
    expect(await usedNow(user.id)).toBe(2);
    expect(await repos.quotaCredits.listForUser(user.id)).toEqual([]);
  });

  it('credits the images a batch-wide failure moved, in the same statement’s transaction', async () => {
    const { user, batch, images } = await userWithImages(3);
    await repos.images.update(images[2]!.id, { status: 'ready' });
    const moved = await repos.images.transitionByBatch(batch.id, {
      from: ['queued', 'processing'],
      to: 'failed',
      set: { error: 'Processing timed out; retry the batch.' },
      credit: 'processing timed out',
    });
    expect(moved.sort()).toEqual([images[0]!.id, images[1]!.id].sort());
    expect(await usedNow(user.id)).toBe(1);
    expect(await repos.quotaCredits.listForUser(user.id)).toHaveLength(2);
  });

  it('takes a credit back when its image is retried (analysed again, it counts again), and gives it again if it fails again', async () => {
    const { user, batch, images } = await userWithImages(1);
    await repos.images.failForGood(images[0]!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    expect(await usedNow(user.id)).toBe(0);
    const retried = await repos.images.transitionByBatch(batch.id, {
      from: ['failed', 'cancelled'],
      to: 'queued',
      set: { error: null },
      uncredit: true,
    });
    expect(retried).toEqual([images[0]!.id]);
    expect(await usedNow(user.id)).toBe(1);
    await repos.images.update(images[0]!.id, { status: 'processing' });
    await repos.images.failForGood(images[0]!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    expect(await usedNow(user.id)).toBe(0);
  });

  it('lets a person at the quota with one credited failure reserve exactly one more image', async () => {
    const { user, images } = await userWithImages(2, 2);
    expect(await repos.users.reserveQuota(user.id, 1, new Date())).toBeNull();
    await repos.images.failForGood(images[0]!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    expect(await repos.users.reserveQuota(user.id, 2, new Date())).toBeNull();
    expect(await repos.users.reserveQuota(user.id, 1, new Date())).toBe(2);
    expect(await repos.users.reserveQuota(user.id, 1, new Date())).toBeNull();
    expect(await repos.users.getUsage(user.id, new Date())).toMatchObject({ quota: 2, used: 2 });
  });

  it('keeps a credit of an earlier month out of this month’s figure, and the credit of a deleted image', async () => {
    const { user, batch, images } = await userWithImages(1);
    await repos.images.failForGood(images[0]!.id, { from: ['processing'], error: 'x', credit: 'analysis failed' });
    const nextMonth = new Date();
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, 1);
    expect(await repos.users.reserveQuota(user.id, 1, nextMonth)).toBe(1);
    expect((await repos.users.getUsage(user.id, nextMonth))?.used).toBe(1);

    await repos.batches.delete(batch.id, user.id);
    expect(await repos.quotaCredits.listForUser(user.id)).toMatchObject([{ imageId: null }]);
    expect(await usedNow(user.id)).toBe(0);
  });

  it('lists the newest first, at most the limit', async () => {
    const { user, images } = await userWithImages(3);
    for (const image of images) {
      await repos.images.failForGood(image.id, { from: ['processing'], error: 'x', credit: `failed ${image.id}` });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const listed = await repos.quotaCredits.listForUser(user.id, 2);
    expect(listed.map((credit) => credit.imageId)).toEqual([images[2]!.id, images[1]!.id]);
  });
});
