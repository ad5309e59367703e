import { randomUUID } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { bullPrefix, STUCK_BATCH_ERROR } from '@renamer/jobs';
import { freePort, spawnService, testServiceEnv, waitForStatus } from '@renamer/runtime/testing';
import { imageObjectKey, previewObjectKey } from '@renamer/storage';
import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { useCleanupWorld } from './support/cleanup-world';

const HOUR = 3600 * 1000;
const WORKER_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const { world, tasks: cleanupTasks } = useCleanupWorld('cleanup');

const tasks = (now?: () => Date, failedJobRetentionDays = 7, downloadHistoryDays = 0) =>
  cleanupTasks({ FAILED_JOB_RETENTION_DAYS: failedJobRetentionDays, DOWNLOAD_HISTORY_DAYS: downloadHistoryDays }, now);

/** A stored object whose file was last written `ageMs` ago (the fs driver reads the file's mtime). */
async function storedObject(key: string, ageMs: number) {
  await world.fixture.store.put(key, Readable.from([Buffer.from('bytes')]), { size: 5 });
  const at = new Date(Date.now() - ageMs);
  await utimes(join(world.fixture.workDir, 'objects', ...key.split('/')), at, at);
  return key;
}

const exists = async (key: string) => (await world.fixture.store.stat(key)) !== null;

describe('orphaned-objects', () => {
  it('removes originals and previews (small and large) no image references once they are an hour old, and nothing else', async () => {
    const { user, images } = await world.fixture.uploadBatch([{ name: 'a.png', bytes: Buffer.from('a') }]);
    const image = images[0]!;
    await utimes(join(world.fixture.workDir, 'objects', ...image.storageKey.split('/')), new Date(0), new Date(0));
    const referencedPreview = await storedObject(previewObjectKey(user.id, image.id), 2 * HOUR);
    const referencedLarge = await storedObject(previewObjectKey(user.id, image.id, 'large'), 2 * HOUR);
    const orphanOriginal = await storedObject(imageObjectKey(user.id, randomUUID()), 2 * HOUR);
    const orphanPreview = await storedObject(previewObjectKey(user.id, randomUUID()), 2 * HOUR);
    const orphanLarge = await storedObject(previewObjectKey(user.id, randomUUID(), 'large'), 2 * HOUR);
    const inFlight = await storedObject(imageObjectKey(user.id, randomUUID()), 10 * 60 * 1000);
    const unknownShape = await storedObject(`users/${user.id}/notes/readme.txt`, 2 * HOUR);

    const dryRun = await tasks().run('orphaned-objects', { dryRun: true });
    expect(dryRun).toMatchObject({ task: 'orphaned-objects', removed: 3, dryRun: true });
    expect(dryRun.sample?.sort()).toEqual([orphanOriginal, orphanPreview, orphanLarge].sort());
    expect(await exists(orphanOriginal)).toBe(true);

    expect(await tasks().run('orphaned-objects', { dryRun: false })).toMatchObject({ removed: 3, dryRun: false });
    expect(await exists(orphanOriginal)).toBe(false);
    expect(await exists(orphanPreview)).toBe(false);
    expect(await exists(orphanLarge)).toBe(false);
    for (const kept of [image.storageKey, referencedPreview, referencedLarge, inFlight, unknownShape])
      expect(await exists(kept)).toBe(true);

    expect(await tasks().run('orphaned-objects', { dryRun: false })).toMatchObject({ removed: 0 });
  });
});

describe('expired-downloads', () => {
  it('removes the records of expired links only, once', async () => {
    const { user, batch } = await world.fixture.uploadBatch([{ name: 'b.png', bytes: Buffer.from('b') }]);
    const link = (expiresAt: Date) =>
      world.fixture.repositories.downloads.create({ kind: 'zip', userId: user.id, batchId: batch.id, expiresAt });
    const expired = [await link(new Date(Date.now() - HOUR)), await link(new Date(Date.now() - 2 * HOUR))];
    const live = await link(new Date(Date.now() + HOUR));

    const dryRun = await tasks().run('expired-downloads', { dryRun: true });
    expect(dryRun).toMatchObject({ removed: 2, dryRun: true });
    expect(dryRun.sample?.sort()).toEqual(expired.map((download) => download.id).sort());

    const [first, second] = await Promise.all([
      tasks().run('expired-downloads', { dryRun: false }),
      tasks().run('expired-downloads', { dryRun: false }),
    ]);
    expect(first.removed + second.removed).toBe(2);
    expect(await world.fixture.repositories.downloads.findById(live.id)).not.toBeNull();
    for (const gone of expired) expect(await world.fixture.repositories.downloads.findById(gone.id)).toBeNull();
  });

  it('keeps the record of an expired link for DOWNLOAD_HISTORY_DAYS, the person’s download list until then', async () => {
    const { user, batch } = await world.fixture.uploadBatch([{ name: 'c.png', bytes: Buffer.from('c') }]);
    const link = (expiresAt: Date) =>
      world.fixture.repositories.downloads.create({ kind: 'zip', userId: user.id, batchId: batch.id, expiresAt });
    const DAY = 24 * HOUR;
    const recent = await link(new Date(Date.now() - 89 * DAY));
    const old = await link(new Date(Date.now() - 91 * DAY));

    const run = await tasks(undefined, 7, 90).run('expired-downloads', { dryRun: false });
    expect(run).toMatchObject({ removed: 1, sample: [old.id] });
    expect(await world.fixture.repositories.downloads.findById(old.id)).toBeNull();
    expect((await world.fixture.repositories.downloads.listPageForUser(user.id)).items.map((row) => row.id)).toEqual([
      recent.id,
    ]);
  });
});

describe('stale-batches', () => {
  it('fails the unfinished images of a batch stuck past the timeout, with a reason, and leaves a moving batch alone', async () => {
    const stuck = await world.fixture.uploadBatch([
      { name: 'c.png', bytes: Buffer.from('c') },
      { name: 'd.png', bytes: Buffer.from('d') },
    ]);
    const busy = await world.fixture.uploadBatch([{ name: 'e.png', bytes: Buffer.from('e') }]);
    // Nothing of the first batch has changed for three hours (written past the updated_at triggers).
    const threeHoursAgo = new Date(Date.now() - 3 * HOUR).toISOString();
    await world.fixture.client.sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update images set updated_at = ${threeHoursAgo} where batch_id = ${stuck.batch.id}`;
      await tx`update batches set updated_at = ${threeHoursAgo} where id = ${stuck.batch.id}`;
    });

    const dryRun = await tasks().run('stale-batches', { dryRun: true });
    expect(dryRun).toMatchObject({ removed: 1, sample: [stuck.batch.id] });
    expect((await world.fixture.repositories.batches.findById(stuck.batch.id))?.status).toBe('queued');

    expect(await tasks().run('stale-batches', { dryRun: false })).toMatchObject({ removed: 1 });
    const images = await world.fixture.repositories.images.listAllByBatch(stuck.batch.id);
    expect(images.map((image) => [image.status, image.error])).toEqual([
      ['failed', STUCK_BATCH_ERROR],
      ['failed', STUCK_BATCH_ERROR],
    ]);
    expect((await world.fixture.repositories.batches.findById(stuck.batch.id))?.status).toBe('failed');
    // The service never finished them: both images' quota is given back, once, and the moving batch's is not.
    expect(
      (await world.fixture.repositories.quotaCredits.listForUser(stuck.user.id)).map((credit) => credit.imageId).sort(),
    ).toEqual(stuck.images.map((image) => image.id).sort());
    expect(await world.fixture.repositories.quotaCredits.listForUser(busy.user.id)).toEqual([]);
    expect(world.fixture.events).toContainEqual(
      expect.objectContaining({ type: 'batch.status', batchId: stuck.batch.id, status: 'failed' }),
    );
    expect((await world.fixture.repositories.batches.findById(busy.batch.id))?.status).toBe('queued');
    expect(await tasks().run('stale-batches', { dryRun: false })).toMatchObject({ removed: 0 });
  });
});

describe('failed-jobs', () => {
  it('removes failed jobs past their retention from every queue, and keeps younger ones', async () => {
    const worker = new Worker(
      'maintenance',
      async () => {
        throw new Error('always fails');
      },
      { connection: world.redis.duplicate({ maxRetriesPerRequest: null }), prefix: bullPrefix(world.prefix) },
    );
    const jobs = await Promise.all(
      [1, 2].map(() => world.queues.maintenance.add('prune-sessions', { retentionDays: 1 }, { attempts: 1 })),
    );
    await expect.poll(() => world.queues.maintenance.getFailedCount(), { timeout: 10_000 }).toBe(2);
    await worker.close();

    expect(await tasks().run('failed-jobs', { dryRun: false })).toMatchObject({ removed: 0 });
    const eightDaysOn = () => new Date(Date.now() + 8 * 24 * HOUR);
    const dryRun = await tasks(eightDaysOn).run('failed-jobs', { dryRun: true });
    expect(dryRun).toMatchObject({ removed: 2 });
    expect(dryRun.sample?.sort()).toEqual(jobs.map((job) => `maintenance:${job.id}`).sort());
    expect(await world.queues.maintenance.getFailedCount()).toBe(2);

    // BullMQ's clean reads Redis's own clock: a retention of zero stands for the days gone by.
    expect(await tasks(undefined, 0).run('failed-jobs', { dryRun: false })).toMatchObject({ removed: 2 });
    expect(await world.queues.maintenance.getFailedCount()).toBe(0);
    expect(await tasks(undefined, 0).run('failed-jobs', { dryRun: false })).toMatchObject({ removed: 0 });
  });
});

describe('the worker’s schedule', () => {
  it('runs every cleanup task on a schedule of its own, one per task however many workers start', async () => {
    const port = await freePort();
    const env = {
      ...testServiceEnv('cleanup-schedule'),
      REDIS_PREFIX: world.prefix,
      DATABASE_URL: world.fixture.databaseUrl,
      WORKER_PORT: String(port),
      ANALYSIS_STEPS: '',
    };
    const workers = [
      spawnService(WORKER_ENTRY, env),
      spawnService(WORKER_ENTRY, { ...env, WORKER_PORT: String(await freePort()) }),
    ];
    try {
      await waitForStatus(workers[0]!, `http://127.0.0.1:${port}/health/ready`);
      await expect
        .poll(
          async () => (await world.queues.maintenance.getJobSchedulers()).filter((s) => s.name === 'cleanup').length,
          {
            timeout: 20_000,
          },
        )
        .toBe(4);
      const schedules = await world.queues.maintenance.getJobSchedulers();
      expect(
        schedules
          .filter((s) => s.name === 'cleanup')
          .map((s) => s.every)
          .sort((a, b) => Number(a) - Number(b)),
      ).toEqual([600_000, 3_600_000, 21_600_000, 86_400_000]);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });
});
