import { createHash, randomUUID } from 'node:crypto';
import type { Json } from '@renamer/api/testing';
import type { AnalysisStepRecord } from '@renamer/contracts';
import { batches, filenameHistory, images, payments, users } from '@renamer/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

const ADMIN_EMAIL = 'analytics-ops@renamer.test';
let stack: AdminStack;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Seeded in March 2020, long before anyone the tests sign in. */
const at = (day: number, hour = 12, minute = 0) => new Date(Date.UTC(2020, 2, day, hour, minute));

const header: AnalysisStepRecord = { step: 'metadata', source: 'file header (sharp)', outcome: 'ok', durationMs: 3 };
const modelCall: AnalysisStepRecord = {
  step: 'llm',
  source: 'OpenAI-compatible vision model qwen2.5vl:3b',
  outcome: 'ok',
  durationMs: 2400,
};
const unreadInstructions: AnalysisStepRecord = {
  step: 'instructions',
  source: 'no vision model configured',
  outcome: 'skipped',
  durationMs: 0,
};

beforeAll(async () => {
  // Its own database: the counts below are of the whole database.
  stack = await startAdminStack({ name: 'admin-analytics', adminEmails: ADMIN_EMAIL, isolatedDatabase: true });
  const { db } = stack.platform.db;
  const person = (plan: 'basic' | 'pro' | 'max', createdAt: Date) => ({
    provider: 'https://issuer.test',
    providerSubject: randomUUID(),
    displayName: 'Seeded',
    emailHash: sha256(randomUUID()),
    plan,
    createdAt,
  });
  const [, pro, max] = await db
    .insert(users)
    .values([person('basic', at(1)), person('pro', at(10)), person('max', at(11))])
    .returning();
  const [first, second] = await db
    .insert(batches)
    .values([
      { userId: pro!.id, total: 3, createdAt: at(10) },
      { userId: max!.id, total: 1, createdAt: at(12) },
    ])
    .returning();
  const image = (
    batchId: string,
    userId: string,
    status: 'ready' | 'failed' | 'approved',
    createdAt: Date,
    analysisSteps: AnalysisStepRecord[] = [],
  ) => {
    const id = randomUUID();
    return {
      analysisSteps,
      id,
      batchId,
      userId,
      status,
      originalFilename: `IMG_${id.slice(0, 4)}.JPG`,
      checksum: sha256(id),
      size: 1000,
      mimeType: 'image/jpeg',
      storageKey: `users/${userId}/originals/${id}`,
      createdAt,
    };
  };
  const [named, , approved] = await db
    .insert(images)
    .values([
      // The step records as the worker stores them: the model answered; a failed image keeps none; instructions
      // went unread (no model); the model timed out.
      image(first!.id, pro!.id, 'ready', at(10), [header, { ...modelCall, tokens: { prompt: 1200, completion: 40 } }]),
      image(first!.id, pro!.id, 'failed', at(10)),
      image(first!.id, pro!.id, 'approved', at(10), [header, unreadInstructions]),
      image(second!.id, max!.id, 'ready', at(20), [header, { ...modelCall, outcome: 'timed-out', durationMs: 60_000 }]),
    ])
    .returning();
  await db.insert(filenameHistory).values([
    { imageId: named!.id, newFilename: 'one.jpg', source: 'proposal', createdAt: at(10, 12, 1) },
    { imageId: approved!.id, newFilename: 'two.jpg', source: 'proposal', createdAt: at(10, 12, 3) },
  ]);
  await db.insert(payments).values([
    { userId: pro!.id, amount: 900, currency: 'eur', status: 'succeeded', createdAt: at(10) },
    {
      userId: max!.id,
      amount: 1900,
      currency: 'eur',
      status: 'partially_refunded',
      refundedAmount: 500,
      createdAt: at(11),
    },
    { userId: max!.id, amount: 1500, currency: 'usd', status: 'failed', createdAt: at(11) },
  ]);
  await stack.repositories.uploadRejections.record(
    ['file_too_large', 'unsupported_media_type', 'file_too_large'],
    at(10),
  );
  await stack.repositories.uploadRejections.record(['unsafe_file'], at(25));
});
afterAll(() => stack?.close());

async function analytics(query: string) {
  const admin = await signedIn(stack, ADMIN_EMAIL);
  const response = await admin.admin.fetch(`/api/admin/analytics?${query}`);
  return { status: response.status, body: (await response.json()) as Json };
}

describe('GET /api/admin/analytics', () => {
  it('counts a seeded range exactly: users, batches, images, revenue, rejections and each day', async () => {
    const { status, body } = await analytics('from=2020-03-10&to=2020-03-12');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      from: '2020-03-10T00:00:00.000Z',
      to: '2020-03-12T00:00:00.000Z',
      users: { total: 3, new: 2 },
      batches: 1,
      images: { uploaded: 3, processed: 2, failed: 1, averageProcessingSeconds: 120 },
      visionModel: {
        calls: 1,
        tokens: { prompt: 1200, completion: 40 },
        failures: 0,
        timedOut: 0,
        fallbacks: 1,
        instructionsUnused: 1,
      },
      revenue: [{ currency: 'eur', amount: 900 + 1400 }],
      rejections: [
        { code: 'file_too_large', count: 2 },
        { code: 'unsupported_media_type', count: 1 },
      ],
    });
    expect(body.daily).toEqual([
      {
        date: '2020-03-10',
        newUsers: 1,
        batches: 1,
        images: 3,
        failedImages: 1,
        rejectedFiles: 3,
        revenue: [{ currency: 'eur', amount: 900 }],
      },
      {
        date: '2020-03-11',
        newUsers: 1,
        batches: 0,
        images: 0,
        failedImages: 0,
        rejectedFiles: 0,
        revenue: [{ currency: 'eur', amount: 1400 }],
      },
    ]);
  });

  it("sums the vision model's calls, tokens, failures and fall-backs over the images uploaded in the range", async () => {
    const { body } = await analytics('from=2020-03-10&to=2020-03-21');
    expect(body.visionModel).toEqual({
      calls: 2,
      tokens: { prompt: 1200, completion: 40 },
      failures: 1,
      timedOut: 1,
      fallbacks: 2,
      instructionsUnused: 1,
    });
    const { body: before } = await analytics('from=2020-02-01&to=2020-03-01');
    expect(before.visionModel).toEqual({
      calls: 0,
      tokens: { prompt: 0, completion: 0 },
      failures: 0,
      timedOut: 0,
      fallbacks: 0,
      instructionsUnused: 0,
    });
  });

  it('counts the files the API refuses, by code, on the day they were refused', async () => {
    const user = await userWithApiKey(stack);
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('not a picture\n')], { type: 'image/png' }), 'a.png');
    form.append('files', new Blob([Buffer.from('nor this one\n')], { type: 'image/png' }), 'b.png');
    expect((await user.callApi('/api/batch', { method: 'POST', body: form })).status).toBe(422);

    const today = new Date().toISOString().slice(0, 10);
    const { body } = await analytics(`from=${today}`);
    expect(body.rejections).toEqual([{ code: 'unsupported_media_type', count: 2 }]);
    expect(body.daily).toEqual([expect.objectContaining({ date: today, rejectedFiles: 2 })]);
  });

  it('refuses a range that ends before it starts or spans more than 366 days', async () => {
    for (const query of ['from=2020-03-12&to=2020-03-10', 'from=2019-01-01&to=2020-03-10', 'from=yesterday']) {
      const { status, body } = await analytics(query);
      expect(status).toBe(400);
      expect(body.code).toBe('validation_failed');
    }
  });
});
