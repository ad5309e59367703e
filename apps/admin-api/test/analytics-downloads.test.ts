import { createHash, randomUUID } from 'node:crypto';
import type { Json } from '@renamer/api/testing';
import { batches, downloads, images, users } from '@renamer/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack } from './support/admin-stack';

const ADMIN_EMAIL = 'analytics-downloads@renamer.test';
let stack: AdminStack;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Seeded in March 2020, long before anyone the tests sign in. */
const at = (day: number, hour = 12) => new Date(Date.UTC(2020, 2, day, hour));

beforeAll(async () => {
  // Its own database: the counts below are of the whole database.
  stack = await startAdminStack({
    name: 'admin-analytics-downloads',
    adminEmails: ADMIN_EMAIL,
    isolatedDatabase: true,
  });
  const { db } = stack.platform.db;
  const [user] = await db
    .insert(users)
    .values({
      provider: 'https://issuer.test',
      providerSubject: randomUUID(),
      displayName: 'Seeded',
      emailHash: sha256(randomUUID()),
      createdAt: at(1),
    })
    .returning();
  const [batch] = await db
    .insert(batches)
    .values({ userId: user!.id, total: 1, createdAt: at(9) })
    .returning();
  const imageId = randomUUID();
  await db.insert(images).values({
    id: imageId,
    batchId: batch!.id,
    userId: user!.id,
    status: 'ready',
    originalFilename: 'IMG_1.JPG',
    checksum: sha256(imageId),
    size: 1000,
    mimeType: 'image/jpeg',
    storageKey: `users/${user!.id}/originals/${imageId}`,
    createdAt: at(9),
  });
  const zip = (createdAt: Date, bytes: number | null) => ({
    kind: 'zip' as const,
    userId: user!.id,
    batchId: batch!.id,
    expiresAt: new Date(createdAt.getTime() + 3600_000),
    options: { embed: false, strip: 'none' as const },
    entries: 1,
    bytes,
    createdAt,
  });
  await db.insert(downloads).values([
    zip(at(10, 0), 4_000),
    { ...zip(at(10, 23), 1_500), kind: 'image', batchId: null, imageId },
    // Asked for, never fetched.
    zip(at(10, 18), null),
    // Past what a 32-bit integer holds.
    zip(at(11), 3_000_000_000),
    // Outside the range.
    zip(at(13), 99),
    zip(at(9, 23), 99),
  ]);
});
afterAll(() => stack?.close());

async function analytics(query: string) {
  const admin = await signedIn(stack, ADMIN_EMAIL);
  const response = await admin.admin.fetch(`/api/admin/analytics?${query}`);
  return { status: response.status, body: (await response.json()) as Json };
}

describe('GET /api/admin/analytics: downloads', () => {
  it('counts the downloads asked for in the range and the bytes they sent, per UTC day with empty days', async () => {
    const { status, body } = await analytics('from=2020-03-10&to=2020-03-13');
    expect(status).toBe(200);
    expect(body.downloads).toEqual({
      total: 4,
      bytes: 4_000 + 1_500 + 3_000_000_000,
      byDay: [
        { day: '2020-03-10', count: 3, bytes: 5_500 },
        { day: '2020-03-11', count: 1, bytes: 3_000_000_000 },
        { day: '2020-03-12', count: 0, bytes: 0 },
      ],
    });
  });

  it('answers zeros for a range without downloads', async () => {
    const { body } = await analytics('from=2020-02-01&to=2020-02-03');
    expect(body.downloads).toEqual({
      total: 0,
      bytes: 0,
      byDay: [
        { day: '2020-02-01', count: 0, bytes: 0 },
        { day: '2020-02-02', count: 0, bytes: 0 },
      ],
    });
  });
});
