import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort, spawnService, testServiceEnv, waitForStatus } from '@renamer/runtime/testing';
import { previewObjectKey } from '@renamer/storage';
import { describe, expect, it } from 'vitest';
import { useCleanupWorld } from './support/cleanup-world';

const WORKER_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const { world, tasks: cleanupTasks } = useCleanupWorld('retention');

const tasks = (retainOriginalsDays?: number) => cleanupTasks({ RETAIN_ORIGINALS_DAYS: retainOriginalsDays });

/** A batch of `files` photos, `ageDays` old, its date first shown `noticeDaysAgo` ago (null: never), with previews. */
async function oldBatch(files: number, ageDays: number, noticeDaysAgo: number | null, status = 'completed') {
  const made = await world.fixture.uploadBatch(
    Array.from({ length: files }, (_, index) => ({ name: `${index}.png`, bytes: Buffer.from(crypto.randomUUID()) })),
  );
  const objects = made.images.flatMap((image) => [
    image.storageKey,
    previewObjectKey(made.user.id, image.id, 'small'),
    previewObjectKey(made.user.id, image.id, 'large'),
  ]);
  for (const image of made.images) {
    for (const size of ['small', 'large'] as const) {
      await world.fixture.store.put(previewObjectKey(made.user.id, image.id, size), Readable.from([Buffer.from('w')]), {
        size: 1,
      });
    }
  }
  const notice = noticeDaysAgo === null ? null : new Date(Date.now() - noticeDaysAgo * 86_400_000).toISOString();
  await world.fixture.client.sql`
    update batches set status = ${status}, created_at = ${new Date(Date.now() - ageDays * 86_400_000).toISOString()},
      retention_notice_at = ${notice} where id = ${made.batch.id}`;
  return { ...made, objects };
}

const exists = async (key: string) => (await world.fixture.store.stat(key)) !== null;

describe('the retention task', () => {
  it('removes each due image once when two runs meet, and leaves a batch still at work or shown too recently', async () => {
    const due = [await oldBatch(3, 40, 8), await oldBatch(2, 31, 10)];
    const atWork = await oldBatch(1, 40, 8, 'processing');
    const shownLately = await oldBatch(1, 60, 6);
    const dueImages = due.flatMap((batch) => batch.images.map((image) => image.id));

    const dryRun = await tasks(30).run('retention', { dryRun: true });
    expect(dryRun.removed).toBe(5);
    expect(dryRun.sample?.sort()).toEqual([...dueImages].sort());
    for (const key of due.flatMap((batch) => batch.objects)) expect(await exists(key)).toBe(true);

    const [first, second] = await Promise.all([
      tasks(30).run('retention', { dryRun: false }),
      tasks(30).run('retention', { dryRun: false }),
    ]);
    expect(first.removed + second.removed).toBe(5);
    for (const batch of due) {
      expect(await world.fixture.repositories.batches.findById(batch.batch.id)).toBeNull();
      for (const key of batch.objects) expect(await exists(key)).toBe(false);
    }
    for (const kept of [atWork, shownLately]) {
      expect(await world.fixture.repositories.batches.findById(kept.batch.id)).not.toBeNull();
      expect(await world.fixture.repositories.images.listAllByBatch(kept.batch.id)).toHaveLength(1);
      for (const key of kept.objects) expect(await exists(key)).toBe(true);
    }
    // Off, the same batches are left alone, whatever their age.
    expect(await tasks(undefined).run('retention', { dryRun: false })).toEqual({
      task: 'retention',
      removed: 0,
      dryRun: false,
    });
    expect(await tasks(1).run('retention', { dryRun: true })).toMatchObject({ removed: 0 });
  });
});

describe('the worker’s retention schedule', () => {
  it('is kept only while RETAIN_ORIGINALS_DAYS is set: a worker started without it removes it', async () => {
    const retentionSchedules = async () =>
      (await world.queues.maintenance.getJobSchedulers()).filter(
        (schedule) => schedule.name === 'cleanup' && schedule.template?.data?.task === 'retention',
      );
    const start = async (extra: Record<string, string>) => {
      const port = await freePort();
      const worker = spawnService(WORKER_ENTRY, {
        ...testServiceEnv('retention-schedule'),
        REDIS_PREFIX: world.prefix,
        DATABASE_URL: world.fixture.databaseUrl,
        WORKER_PORT: String(port),
        ANALYSIS_STEPS: '',
        ...extra,
      });
      await waitForStatus(worker, `http://127.0.0.1:${port}/health/ready`);
      return worker;
    };

    const on = await start({ RETAIN_ORIGINALS_DAYS: '30' });
    try {
      await expect
        .poll(async () => (await retentionSchedules()).map((s) => s.every), { timeout: 20_000 })
        .toEqual([43_200_000]);
    } finally {
      await on.stop();
    }
    const off = await start({});
    try {
      await expect.poll(async () => (await retentionSchedules()).length, { timeout: 20_000 }).toBe(0);
      expect(
        (await world.queues.maintenance.getJobSchedulers()).filter((schedule) => schedule.name === 'cleanup'),
      ).toHaveLength(4);
    } finally {
      await off.stop();
    }
  });
});
