import { bullPrefix, closeQueues, createQueues, type Queues } from '@renamer/jobs';
import { type Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack } from './support/admin-stack';

const ADMIN_EMAIL = 'queues-ops@renamer.test';
let stack: AdminStack;
let queues: Queues;
let worker: Worker;
/** What the worker did: the ids of the jobs it ran. */
const ran: string[] = [];
let failNext = true;

beforeAll(async () => {
  stack = await startAdminStack({ name: 'admin-queues', adminEmails: ADMIN_EMAIL });
  queues = createQueues(stack.platform.redis, stack.env.REDIS_PREFIX);
  // A worker of the maintenance queue as the service's workers take its jobs: through Redis, nothing else.
  worker = new Worker(
    'maintenance',
    async (job: Job) => {
      ran.push(job.id!);
      if (job.data.failOnce && failNext) {
        failNext = false;
        throw new Error('the disk was full');
      }
    },
    {
      connection: stack.platform.redis.duplicate({ maxRetriesPerRequest: null }),
      prefix: bullPrefix(stack.env.REDIS_PREFIX),
    },
  );
  await worker.waitUntilReady();
});
afterAll(async () => {
  await worker?.close();
  await closeQueues(queues);
  await stack?.close();
});

async function admin() {
  const signed = await signedIn(stack, ADMIN_EMAIL);
  const post = async (path: string, json?: unknown) =>
    signed.admin.fetch(path, { method: 'POST', ...(json ? { json } : {}), csrf: await signed.api.csrfToken() });
  return { ...signed, post };
}

describe('queues', () => {
  it('lists every queue with its counts, workers and paused state', async () => {
    const { admin: client } = await admin();
    const response = await client.fetch('/api/admin/queues');
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { name: string; workers: number; paused: boolean }[] };
    expect(items.map((queue) => queue.name)).toEqual(['batches', 'images', 'maintenance', 'webhooks']);
    expect(items.find((queue) => queue.name === 'maintenance')).toMatchObject({ workers: 1, paused: false });
  });

  it('stops processing while a queue is paused and starts again when it is resumed', async () => {
    const { post } = await admin();
    const paused = await post('/api/admin/queues/maintenance/pause');
    expect(await paused.json()).toMatchObject({ name: 'maintenance', paused: true });

    const job = await queues.maintenance.add('prune-sessions', { retentionDays: 30 });
    // While paused the job waits; a second of a worker that polls continuously is plenty to have taken it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ran).not.toContain(job.id);
    expect(await job.getState()).toBe('waiting');

    expect(await (await post('/api/admin/queues/maintenance/resume')).json()).toMatchObject({ paused: false });
    await expect.poll(() => job.getState(), { timeout: 10_000 }).toBe('completed');
    expect(ran).toContain(job.id);

    const audit = await stack.repositories.auditLog.list({ targetType: 'queue', targetId: 'maintenance' });
    expect(audit.items.map((entry) => [entry.action, entry.after])).toEqual(
      expect.arrayContaining([
        ['queue.resume', { paused: false }],
        ['queue.pause', { paused: true }],
      ]),
    );
  });

  it('shows a failed job with its reason, runs it again, and cleans what is completed', async () => {
    const { admin: client, post } = await admin();
    const job = await queues.maintenance.add('prune-sessions', { retentionDays: 30, failOnce: true }, { attempts: 1 });
    await expect.poll(() => job.getState(), { timeout: 10_000 }).toBe('failed');

    const failed = await client.fetch('/api/admin/queues/maintenance/failed');
    const { items } = (await failed.json()) as { items: { id: string; failedReason: string }[] };
    expect(items).toContainEqual(expect.objectContaining({ id: job.id, failedReason: 'the disk was full' }));

    const retry = await post(`/api/admin/queues/maintenance/jobs/${job.id}/retry`);
    expect(retry.status).toBe(200);
    await expect.poll(() => job.getState(), { timeout: 10_000 }).toBe('completed');
    expect((await post(`/api/admin/queues/maintenance/jobs/${job.id}/retry`)).status).toBe(409);

    const cleaned = await post('/api/admin/queues/maintenance/clean', { state: 'completed' });
    expect((await cleaned.json()) as { removed: number }).toMatchObject({ removed: expect.any(Number) });
    expect(await queues.maintenance.getCompletedCount()).toBe(0);
  });

  it('answers an unknown queue or job as not found', async () => {
    const { admin: client, post } = await admin();
    expect((await client.fetch('/api/admin/queues/emails/failed')).status).toBe(404);
    expect((await post('/api/admin/queues/nope/pause')).status).toBe(404);
    expect((await post('/api/admin/queues/maintenance/jobs/12345678/retry')).status).toBe(404);
  });
});

describe('cleanup tasks on demand', () => {
  it('runs a task, with a dry run that only counts, audits the real run, and answers an unknown task 404', async () => {
    const { post } = await admin();
    const dryRun = await post('/api/admin/cleanup/stale-batches?dryRun=true');
    expect(dryRun.status).toBe(200);
    expect(await dryRun.json()).toMatchObject({ task: 'stale-batches', removed: expect.any(Number), dryRun: true });

    const run = await post('/api/admin/cleanup/failed-jobs');
    expect(run.status).toBe(200);
    const result = await run.json();
    expect(result).toMatchObject({ task: 'failed-jobs', removed: expect.any(Number), dryRun: false });
    const audit = await stack.repositories.auditLog.list({ action: 'cleanup.failed-jobs' });
    expect(audit.items[0]).toMatchObject({ targetType: 'cleanup', targetId: 'failed-jobs', details: result });

    const unknown = await post('/api/admin/cleanup/everything');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
  });
});
