import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsRepository, createUploadRejectionRepository } from '../src';
import { batches, filenameHistory, images, payments, users } from '../src/schema';
import { connectTestDb, sha256Hex } from './support/database';
import { imageInput } from './support/fixtures';

const client = connectTestDb();
const analytics = createAnalyticsRepository(client.db);

// A window far from every other test's rows, so the counts below are exactly this test's.
const year = 2400 + randomInt(500);
const day = (n: number, hour = 12) => new Date(Date.UTC(year, 0, n, hour));
const range = { from: day(1, 0), to: day(4, 0) };

afterAll(() => client.close());

beforeAll(async () => {
  const [pro, basic] = await client.db
    .insert(users)
    .values(
      [day(1), day(3)].map((createdAt, index) => ({
        provider: 'https://idp.test',
        providerSubject: randomUUID(),
        displayName: 'Analytics',
        emailHash: sha256Hex(randomUUID()),
        plan: index === 0 ? ('pro' as const) : ('basic' as const),
        createdAt,
      })),
    )
    .returning();
  const [batch] = await client.db
    .insert(batches)
    .values({ userId: pro!.id, total: 3, createdAt: day(1) })
    .returning();
  const [ready, , approved] = await client.db
    .insert(images)
    .values([
      { ...imageInput(batch!.id, pro!.id), status: 'ready', createdAt: day(1) },
      { ...imageInput(batch!.id, pro!.id), status: 'failed', createdAt: day(1) },
      { ...imageInput(batch!.id, pro!.id), status: 'approved', createdAt: day(3) },
      { ...imageInput(batch!.id, pro!.id), status: 'queued', createdAt: day(5) },
    ])
    .returning();
  // Proposed 30 s and 90 s after upload; a later rename by the person does not count as processing.
  const after = (image: typeof ready, seconds: number) => new Date(image!.createdAt.getTime() + seconds * 1000);
  await client.db.insert(filenameHistory).values([
    { imageId: ready!.id, newFilename: 'a.jpg', source: 'proposal', createdAt: after(ready, 30) },
    { imageId: ready!.id, newFilename: 'b.jpg', source: 'user', createdAt: after(ready, 600) },
    { imageId: approved!.id, newFilename: 'c.jpg', source: 'proposal', createdAt: after(approved, 90) },
  ]);
  const rejections = createUploadRejectionRepository(client.db);
  await rejections.record(['unsupported_media_type', 'file_too_large', 'unsupported_media_type'], day(1));
  await rejections.record(['unsupported_media_type', 'quota_exceeded'], day(3, 23));
  await rejections.record(['file_too_large'], day(5));
  await client.db.insert(payments).values([
    { userId: pro!.id, amount: 1_000, currency: 'eur', status: 'succeeded', createdAt: day(1) },
    {
      userId: pro!.id,
      amount: 1_000,
      currency: 'eur',
      status: 'partially_refunded',
      refundedAmount: 400,
      createdAt: day(3),
    },
    { userId: basic!.id, amount: 2_000, currency: 'usd', status: 'succeeded', createdAt: day(3) },
    { userId: basic!.id, amount: 5_000, currency: 'usd', status: 'failed', createdAt: day(3) },
  ]);
});

describe('analytics repository', () => {
  it('summarises the range', async () => {
    const summary = await analytics.summary(range);
    expect(summary.users.new).toBe(2);
    expect(summary.users.total).toBeGreaterThanOrEqual(2);
    expect(summary.users.byPlan.pro).toBeGreaterThanOrEqual(1);
    expect(summary.batches).toBe(1);
    expect(summary.images).toEqual({ uploaded: 3, processed: 2, failed: 1, averageProcessingSeconds: 60 });
    expect(summary.rejections).toEqual([
      { code: 'unsupported_media_type', count: 3 },
      { code: 'file_too_large', count: 1 },
      { code: 'quota_exceeded', count: 1 },
    ]);
    expect(summary.revenue).toEqual([
      { currency: 'eur', amount: 1_600 },
      { currency: 'usd', amount: 2_000 },
    ]);
  });

  it('gives one row per day, zeros included', async () => {
    const pad = (n: number) => `${year}-01-0${n}`;
    expect(await analytics.dailyActivity(range)).toEqual([
      { date: pad(1), newUsers: 1, batches: 1, images: 2, failedImages: 1, rejectedFiles: 3 },
      { date: pad(2), newUsers: 0, batches: 0, images: 0, failedImages: 0, rejectedFiles: 0 },
      { date: pad(3), newUsers: 1, batches: 0, images: 1, failedImages: 0, rejectedFiles: 2 },
    ]);
  });

  it('gives net revenue per day and currency', async () => {
    expect(await analytics.dailyRevenue(range)).toEqual([
      { date: `${year}-01-01`, currency: 'eur', amount: 1_000 },
      { date: `${year}-01-03`, currency: 'eur', amount: 600 },
      { date: `${year}-01-03`, currency: 'usd', amount: 2_000 },
    ]);
  });
});
