import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { photo, upload, waitForBatch } from '@renamer/api/testing';
import { freePort, spawnService, waitForStatus } from '@renamer/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createQueues } from '../packages/queue/src/queues';
import { type PipelineStack, SLOW_WORKER_ENTRY, startPipelineStack } from './support/pipeline-stack';

/**
 * Faults lose nothing: processes killed or stopped in the middle of their work, each test with processes of its
 * own over the stack's PostgreSQL database, Redis prefix and store.
 */

const API_ENTRY = fileURLToPath(new URL('../apps/api/src/server.ts', import.meta.url));
let stack: PipelineStack;
let apiUrl: string;

beforeAll(async () => {
  stack = await startPipelineStack('faults');
  apiUrl = (await stack.startApi()).url;
}, 60_000);
afterAll(() => stack?.close());

const photos = (seeds: number[]) =>
  Promise.all(
    seeds.map(async (seed) => ({ name: `IMG_${seed}.JPG`, type: 'image/jpeg', bytes: await photo('jpeg', seed) })),
  );

/** The `n` of a `select count(*)::int as n` query. */
const countOf = async (rows: PromiseLike<readonly Record<string, unknown>[]>) => Number((await rows)[0]?.n);

/** BullMQ's own count of the jobs of every queue still marked active. */
async function activeJobs(): Promise<number> {
  const queues = createQueues({ url: stack.env.REDIS_URL }, stack.env.REDIS_PREFIX);
  try {
    const counts = await Promise.all(Object.values(queues).map((queue) => queue.getJobCounts('active')));
    return counts.reduce((sum, count) => sum + (count.active ?? 0), 0);
  } finally {
    await Promise.all(Object.values(queues).map((queue) => queue.close()));
  }
}

describe('a worker killed with SIGKILL in the middle of a batch', () => {
  it('leaves every image ready in the end, each with exactly one proposal and one history row, and no job active', async () => {
    const owner = await stack.createUser();
    const doomed = await stack.startWorker({ SLOW_ANALYSIS_MS: '1500', WORKER_CONCURRENCY: '2' }, SLOW_WORKER_ENTRY);
    const { body } = await upload(apiUrl, owner.key, await photos([1001, 1002, 1003, 1004, 1005, 1006]));
    await waitForBatch(
      apiUrl,
      owner.key,
      body.batchId,
      (status) => status.counts.processing >= 1 && status.processed >= 1,
      30_000,
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const rescuer = await stack.startWorker();
    onTestFinished(() => rescuer.stop().then(() => undefined));
    const done = await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.status === 'completed', 60_000);
    expect(done.counts).toMatchObject({ ready: 6, processing: 0, queued: 0, failed: 0 });
    const history = await stack.platform.db.sql<{ image_id: string; proposals: number; rows: number }[]>`
      select i.id as image_id,
        count(h.id) filter (where h.source = 'proposal')::int as proposals, count(h.id)::int as rows
      from images i left join filename_history h on h.image_id = i.id
      where i.batch_id = ${body.batchId} group by i.id`;
    expect(history).toHaveLength(6);
    for (const image of history) expect(image).toMatchObject({ proposals: 1, rows: 1 });
    expect(await activeJobs()).toBe(0);
  }, 120_000);
});

describe('a worker stopped with SIGTERM', () => {
  it('finishes or hands back the job it holds within its grace period, takes no new one, and exits 0', async () => {
    const owner = await stack.createUser();
    const stopping = await stack.startWorker({ SLOW_ANALYSIS_MS: '1500', WORKER_CONCURRENCY: '1' }, SLOW_WORKER_ENTRY);
    const { body } = await upload(apiUrl, owner.key, await photos([1011, 1012, 1013, 1014]));
    await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.counts.processing === 1, 30_000);
    const signalledAt = Date.now();
    stopping.child.kill('SIGTERM');
    const code = await stopping.exited;
    // Its grace: the job lock (2 s here) plus a margin; never the 60 s of a hung process.
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(code).toBe(0);
    const finished = await countOf(
      stack.platform.db
        .sql`select count(*)::int as n from images where batch_id = ${body.batchId} and status = 'ready'`,
    );
    // The job it held at most: no new one after the signal.
    expect(finished).toBeLessThanOrEqual(1);
    expect(await activeJobs()).toBe(0);

    const next = await stack.startWorker();
    onTestFinished(() => next.stop().then(() => undefined));
    const done = await waitForBatch(apiUrl, owner.key, body.batchId, (status) => status.status === 'completed', 60_000);
    expect(done.counts.ready).toBe(4);
  }, 120_000);
});

describe('an API instance killed in the middle of an upload', () => {
  it('fails the client’s request, and leaves no row, no object and no quota counted for what was not stored', async () => {
    const owner = await stack.createUser();
    const port = await freePort();
    const api = spawnService(API_ENTRY, {
      ...stack.env,
      API_PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    await waitForStatus(api, `http://127.0.0.1:${port}/health/ready`, 200, 60_000);

    const [first, second] = await photos([1021, 1022]);
    const boundary = 'renamer-fault-boundary';
    const part = (file: typeof first) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file!.name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        file!.bytes,
        Buffer.from('\r\n'),
      ]);
    const body = Buffer.concat([part(first), part(second), Buffer.from(`--${boundary}--\r\n`)]);
    // The first file whole and half of the second, then the API dies before the rest arrives.
    const sent = Math.floor(body.length * 0.75);
    const outcome = new Promise<string>((resolve) => {
      const req = request(`http://127.0.0.1:${port}/api/batch`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      });
      req.on('response', (response) => resolve(`answered ${response.statusCode}`));
      req.on('error', (error) => resolve(`failed: ${error.message}`));
      req.write(body.subarray(0, sent), () => setTimeout(() => api.child.kill('SIGKILL'), 300));
    });
    expect(await outcome).toMatch(/^failed: /);
    await api.exited;

    const images = await countOf(
      stack.platform.db.sql`select count(*)::int as n from images where user_id = ${owner.user.id}`,
    );
    const batches = await countOf(
      stack.platform.db.sql`select count(*)::int as n from batches where user_id = ${owner.user.id}`,
    );
    expect({ images, batches }).toEqual({ images: 0, batches: 0 });
    expect(await stack.storedKeys(owner.user.id)).toEqual([]);
    const quota = await fetch(`${apiUrl}/api/auth/quota`, { headers: owner.headers });
    expect(await quota.json()).toMatchObject({ used: 0 });
  }, 60_000);
});
