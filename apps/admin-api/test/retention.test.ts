import { Readable } from 'node:stream';
import { browser, photo, startAuthStack } from '@renamer/api/testing';
import { createRepositories } from '@renamer/db';
import { closeQueues, createCleanupTasks, createQueues } from '@renamer/jobs';
import { previewObjectKey } from '@renamer/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCleanupService } from '../src/services/cleanup';
import { type AdminStack, signedIn, startAdminStack, userWithApiKey } from './support/admin-stack';

const ADMIN_EMAIL = 'retention-ops@renamer.test';
const DAY = 24 * 3600 * 1000;
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack({
    name: 'admin-retention',
    adminEmails: ADMIN_EMAIL,
    env: { RETAIN_ORIGINALS_DAYS: '30' },
    apiEnv: { RETAIN_ORIGINALS_DAYS: '30' },
  });
});
afterAll(() => stack?.close());

type Person = Awaited<ReturnType<typeof userWithApiKey>>;
interface BatchItem {
  batchId: string;
  removesAt: string | null;
}

/** One photo uploaded through the API, its previews stored as the worker leaves them, and the batch finished. */
async function finishedBatch(person: Person, seed: number, ageDays: number) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await photo('png', seed))], { type: 'image/png' }), `p${seed}.png`);
  const response = await person.callApi('/api/batch', { method: 'POST', body: form });
  expect(response.status).toBe(201);
  const { batchId, accepted } = (await response.json()) as { batchId: string; accepted: { imageId: string }[] };
  const imageId = accepted[0]!.imageId;
  const [image] = await stack.platform.db.sql<{ storage_key: string }[]>`
    select storage_key from images where id = ${imageId}`;
  const previews = [];
  for (const size of ['small', 'large'] as const) {
    const key = previewObjectKey(person.id, imageId, size);
    await stack.platform.store.put(key, Readable.from([Buffer.from('webp')]), { size: 4 });
    previews.push(key);
  }
  const createdAt = new Date(Date.now() - ageDays * DAY).toISOString();
  await stack.platform.db.sql`
    update batches set status = 'completed', completed_at = ${createdAt}, created_at = ${createdAt} where id = ${batchId}`;
  return { batchId, imageId, objects: [image!.storage_key, ...previews] };
}

const listed = async (person: Person) => {
  const response = await person.callApi('/api/batch');
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: BatchItem[] }).items;
};
const noticeOf = async (batchId: string) => {
  const [row] = await stack.platform.db.sql<{ retention_notice_at: Date | null }[]>`
    select retention_notice_at from batches where id = ${batchId}`;
  return row?.retention_notice_at ?? null;
};
const exists = async (key: string) => (await stack.platform.store.stat(key)) !== null;

describe('retention (RETAIN_ORIGINALS_DAYS=30)', () => {
  it('shows each batch its date, removes an old batch only 7 days after that, through the audited admin task', async () => {
    const owner = await userWithApiKey(stack);
    const someoneElse = await userWithApiKey(stack);
    const old = await finishedBatch(owner, 1, 40);
    const young = await finishedBatch(owner, 2, 5);
    const othersOld = await finishedBatch(someoneElse, 3, 40);
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const run = async (dryRun: boolean) =>
      admin.admin.fetch(`/api/admin/cleanup/retention${dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        csrf: await admin.api.csrfToken(),
      });

    // Never shown: not due, however old.
    expect(await (await run(true)).json()).toMatchObject({ task: 'retention', removed: 0, dryRun: true });

    // The account's profile tells the policy; the list shows the date and records that it was shown.
    expect(await (await owner.callApi('/api/auth/me')).json()).toMatchObject({ retainOriginalsDays: 30 });
    const before = Date.now();
    const items = await listed(owner);
    const shownOld = items.find((item) => item.batchId === old.batchId)!;
    const shownYoung = items.find((item) => item.batchId === young.batchId)!;
    // 40 days old: 7 days from now, not 10 days ago.
    expect(Date.parse(shownOld.removesAt!) - before).toBeGreaterThanOrEqual(7 * DAY - 1000);
    expect(Date.parse(shownOld.removesAt!) - before).toBeLessThan(7 * DAY + 60_000);
    // 5 days old: its 30 days come later than the week's notice.
    expect(Date.parse(shownYoung.removesAt!) - before).toBeGreaterThan(24 * DAY);
    expect(Date.parse(shownYoung.removesAt!) - before).toBeLessThan(26 * DAY);
    const noticed = await noticeOf(old.batchId);
    expect(noticed).not.toBeNull();
    // Shown again later, the date stays where it was first shown.
    expect((await listed(owner)).find((item) => item.batchId === old.batchId)?.removesAt).toBe(shownOld.removesAt);
    expect(await noticeOf(old.batchId)).toEqual(noticed);
    expect(await noticeOf(othersOld.batchId)).toBeNull();
    expect(await (await run(true)).json()).toMatchObject({ removed: 0 });

    // Eight days after it was shown the old batch is due; a dry run counts and removes nothing.
    await stack.platform.db.sql`
      update batches set retention_notice_at = now() - interval '8 days' where id = ${old.batchId}`;
    expect(await (await run(true)).json()).toEqual({
      task: 'retention',
      removed: 1,
      dryRun: true,
      sample: [old.imageId],
    });
    for (const key of old.objects) expect(await exists(key)).toBe(true);

    const response = await run(false);
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result).toEqual({ task: 'retention', removed: 1, dryRun: false, sample: [old.imageId] });
    const audit = await stack.repositories.auditLog.list({ action: 'cleanup.retention' });
    expect(audit.items[0]).toMatchObject({ targetType: 'cleanup', targetId: 'retention', details: result });

    // Gone for the person: the batch, its image and every object (original, small and large preview).
    expect((await owner.callApi(`/api/batch/${old.batchId}/status`)).status).toBe(404);
    expect((await owner.callApi(`/api/image/${old.imageId}`)).status).toBe(404);
    for (const key of old.objects) expect(await exists(key)).toBe(false);
    // The younger batch and another person's old one (its date never shown) stay, with their objects.
    expect((await listed(owner)).map((item) => item.batchId)).toEqual([young.batchId]);
    for (const key of [...young.objects, ...othersOld.objects]) expect(await exists(key)).toBe(true);
    expect((await someoneElse.callApi(`/api/batch/${othersOld.batchId}/status`)).status).toBe(200);

    expect(await (await run(false)).json()).toMatchObject({ removed: 0 });
  });
});

describe('retention off (the default)', () => {
  it('shows no date, records no notice, and the task is not found and removes nothing', async () => {
    const off = await startAuthStack({ name: 'api-retention-off' });
    const queues = createQueues(off.platform.redis, off.env.REDIS_PREFIX);
    try {
      const { jar } = await off.signIn('retention-off@renamer.test');
      const person = { ...browser(off.apiUrl, jar), id: '' };
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(await photo('png', 9))], { type: 'image/png' }), 'off.png');
      const upload = await person.fetch('/api/batch', { method: 'POST', body: form, csrf: await person.csrfToken() });
      expect(upload.status).toBe(201);
      const { batchId } = (await upload.json()) as { batchId: string };
      await off.platform.db.sql`
        update batches set status = 'completed', created_at = now() - interval '400 days' where id = ${batchId}`;
      const profile = (await (await person.fetch('/api/auth/me')).json()) as { id: string };
      expect(profile).toMatchObject({ retainOriginalsDays: null });
      person.id = profile.id;
      const { items } = (await (await person.fetch('/api/batch')).json()) as { items: BatchItem[] };
      expect(items).toEqual([expect.objectContaining({ batchId, removesAt: null })]);
      const [listedRow] = await off.platform.db.sql`select retention_notice_at from batches where id = ${batchId}`;
      expect(listedRow?.retention_notice_at).toBeNull();
      await off.platform.db.sql`
        update batches set retention_notice_at = now() - interval '300 days' where id = ${batchId}`;

      // The cleanup the admin API builds from an environment without the setting.
      const repositories = createRepositories(off.platform.db.db);
      const tasks = createCleanupTasks({
        downloads: repositories.downloads,
        images: repositories.images,
        batches: repositories.batches,
        tracker: { imagesChanged: async () => null },
        store: off.platform.store,
        queues,
        config: { STALE_BATCH_AFTER_MINUTES: 120, FAILED_JOB_RETENTION_DAYS: 7, DOWNLOAD_HISTORY_DAYS: 90 },
      });
      expect(tasks.available).not.toContain('retention');
      const cleanup = createCleanupService({ tasks, auditLog: repositories.auditLog });
      await expect(
        cleanup.run({ actorId: person.id, requestId: 'retention-off' }, 'retention', { dryRun: false }),
      ).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('RETAIN_ORIGINALS_DAYS') });
      expect(await tasks.run('retention', { dryRun: false })).toEqual({ task: 'retention', removed: 0, dryRun: false });
      expect((await person.fetch(`/api/batch/${batchId}/status`)).status).toBe(200);
    } finally {
      await closeQueues(queues);
      await off.close();
    }
  });
});
