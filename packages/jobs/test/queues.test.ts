import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  bullPrefix,
  closeQueues,
  createQueues,
  createWorkerPool,
  enqueue,
  type Handler,
  type JobHandlers,
  type WorkerPoolOptions,
} from '../src';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runPrefix = `${process.env.REDIS_PREFIX ?? 'renamer-test:'}queue-${randomUUID().slice(0, 8)}:`;
const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
const logger = pino({ level: 'silent' });

afterAll(async () => {
  const keys = await connection.keys(`${runPrefix}*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}

const idle = { handle: async () => undefined };
/** Handlers that do nothing, for the jobs a test does not look at. */
const idleHandlers: JobHandlers = {
  'process-batch': idle,
  'propose-batch': idle,
  'analyze-image': idle,
  'reconcile-images': idle,
  'reconcile-webhooks': idle,
  'prune-sessions': idle,
  cleanup: idle,
  'webhook-event': idle,
  'deliver-webhook': idle,
};

/** Queues and a running pool under a Redis prefix of the test's own, closed when the test ends. */
function startPool(handlers: Partial<JobHandlers>, options: Partial<WorkerPoolOptions> = {}) {
  const redisPrefix = `${runPrefix}${randomUUID().slice(0, 8)}:`;
  const queues = createQueues(connection, redisPrefix);
  const pool = createWorkerPool({ ...idleHandlers, ...handlers }, { connection, redisPrefix, logger, ...options });
  pool.run();
  onTestFinished(async () => {
    await pool.close();
    await closeQueues(queues);
  });
  return { queues, redisPrefix };
}

/**
 * The handler map is checked by the compiler, not by vitest: one handler per catalog job, typed by its
 * payload. Nothing here runs; `pnpm typecheck` (tsc over the whole repo, tests included, a step of .ci/run)
 * fails when either `@ts-expect-error` below stops marking an error, i.e. when an incomplete or mistyped map
 * would compile.
 */
function _handlerMapIsCheckedByTheCompiler() {
  const { 'prune-sessions': _left, ...withoutPrune } = idleHandlers;
  // @ts-expect-error: a map without a handler for `prune-sessions` does not compile.
  const _incomplete: JobHandlers = withoutPrune;
  const _mistyped: Handler<'prune-sessions'> = {
    // @ts-expect-error: the payload of `prune-sessions` has no `batchId`.
    handle: async ({ batchId }) => batchId,
  };
}

describe('queues against real Redis', () => {
  it('refuses a payload that does not match the catalog before queueing it', async () => {
    const queues = createQueues(connection, runPrefix);
    try {
      await expect(enqueue(queues, 'prune-sessions', { retentionDays: 0 })).rejects.toThrow();
      expect(await queues.maintenance.count()).toBe(0);
    } finally {
      await closeQueues(queues);
    }
  });

  it('runs a queued job on a worker, retrying a failed attempt with backoff', async () => {
    const seen: { retentionDays: number; finalAttempt: boolean }[] = [];
    const completed: string[] = [];
    const { queues } = startPool(
      {
        'prune-sessions': {
          handle: async (payload, { finalAttempt }) => {
            seen.push({ retentionDays: payload.retentionDays, finalAttempt });
            if (seen.length === 1) throw new Error('transient');
            return { removed: 3 };
          },
        },
      },
      { onCompleted: (job) => completed.push(String(job.id)) },
    );
    const queued = await enqueue(queues, 'prune-sessions', { retentionDays: 30 });
    expect(queued.opts.attempts).toBe(3);
    await until(() => completed.length === 1);
    expect(completed).toEqual([queued.id]);
    expect((await queues.maintenance.getJob(String(queued.id)))?.returnvalue).toEqual({ removed: 3 });
    expect(seen).toEqual([
      { retentionDays: 30, finalAttempt: false },
      { retentionDays: 30, finalAttempt: false },
    ]);
  });

  it("runs each queue at its own concurrency: the catalog's, or the deployment's override", async () => {
    const running = { images: 0, maintenance: 0 };
    const peak = { images: 0, maintenance: 0 };
    let finished = 0;
    const busy = (queue: keyof typeof running) => async () => {
      running[queue] += 1;
      peak[queue] = Math.max(peak[queue], running[queue]);
      await sleep(150);
      running[queue] -= 1;
      finished += 1;
    };
    const { queues } = startPool(
      { 'analyze-image': { handle: busy('images') }, 'prune-sessions': { handle: busy('maintenance') } },
      { queues: { images: { concurrency: 2 } } },
    );
    for (let i = 0; i < 4; i++) {
      await enqueue(queues, 'analyze-image', { imageId: randomUUID(), batchId: randomUUID() });
      await enqueue(queues, 'prune-sessions', { retentionDays: 30 });
    }
    await until(() => finished === 8);
    expect(peak).toEqual({ images: 2, maintenance: 1 });
  });

  it("spaces a queue's jobs by its rate limit", async () => {
    const started: number[] = [];
    const { queues } = startPool(
      { 'prune-sessions': { handle: async () => started.push(Date.now()) } },
      { queues: { maintenance: { concurrency: 2, rateLimit: { max: 1, durationMs: 600 } } } },
    );
    await enqueue(queues, 'prune-sessions', { retentionDays: 30 });
    await enqueue(queues, 'prune-sessions', { retentionDays: 31 });
    await until(() => started.length === 2);
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(500);
  });

  it('settles a job once it has failed for good, and not after an attempt that will be retried', async () => {
    const settled: { olderThanSeconds: number; finalAttempt: boolean; error: string }[] = [];
    const { queues } = startPool({
      'reconcile-images': {
        handle: async () => {
          throw new Error('database unreachable');
        },
        onFailedForGood: async (payload, { finalAttempt }, error) => {
          settled.push({ olderThanSeconds: payload.olderThanSeconds, finalAttempt, error: error.message });
        },
      },
    });
    await enqueue(queues, 'reconcile-images', { olderThanSeconds: 7 });
    await until(() => settled.length === 1);
    expect(settled).toEqual([{ olderThanSeconds: 7, finalAttempt: true, error: 'database unreachable' }]);
  });

  it('settles a job whose workers kept dying once it stalled past the limit, attempts left or not', async () => {
    const redisPrefix = `${runPrefix}${randomUUID().slice(0, 8)}:`;
    const queues = createQueues(connection, redisPrefix);
    onTestFinished(() => closeQueues(queues));
    const queued = await enqueue(queues, 'prune-sessions', { retentionDays: 30 });
    // Three workers that each take the job and die holding it: nothing renews its lock.
    const dying = Array.from(
      { length: 3 },
      () =>
        new Worker('maintenance', () => new Promise(() => {}), {
          connection,
          prefix: bullPrefix(redisPrefix),
          skipLockRenewal: true,
          lockDuration: 200,
          stalledInterval: 100,
          maxStalledCount: 2,
        }),
    );
    onTestFinished(() => Promise.all(dying.map((worker) => worker.close(true))).then(() => undefined));
    await until(async () => Boolean((await queues.maintenance.getJob(String(queued.id)))?.deferredFailure));

    const handled: unknown[] = [];
    const settled: { retentionDays: number; error: string }[] = [];
    const pool = createWorkerPool(
      {
        ...idleHandlers,
        'prune-sessions': {
          handle: async (payload) => handled.push(payload),
          onFailedForGood: async (payload, _context, error) => {
            settled.push({ retentionDays: payload.retentionDays, error: error.message });
          },
        },
      },
      { connection, redisPrefix, logger },
    );
    pool.run();
    onTestFinished(() => pool.close());
    await until(() => settled.length === 1);
    expect(settled).toEqual([{ retentionDays: 30, error: 'job stalled more than allowable limit' }]);
    expect(handled).toEqual([]);
    expect(await (await queues.maintenance.getJob(String(queued.id)))?.getState()).toBe('failed');
  });

  it('gives each handler a logger that names the job, and the batch and image its payload names', async () => {
    const lines: Record<string, unknown>[] = [];
    const capture = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const [imageId, batchId] = [randomUUID(), randomUUID()];
    const { queues } = startPool(
      {
        'analyze-image': {
          handle: async (_payload, { logger: log }) => log.info('analysing'),
        },
      },
      { logger: capture },
    );
    await enqueue(queues, 'analyze-image', { imageId, batchId });
    await until(() => lines.some((line) => line.msg === 'job completed'));

    const context = { jobId: `analyze-${imageId}`, job: 'analyze-image', batchId, imageId };
    expect(lines.find((line) => line.msg === 'analysing')).toMatchObject(context);
    expect(lines.find((line) => line.msg === 'job completed')).toMatchObject({
      ...context,
      durationMs: expect.any(Number),
    });
  });

  it('fails a job whose name the catalog does not know, without running any handler', async () => {
    const handled: string[] = [];
    const failures: string[] = [];
    const { queues } = startPool(
      { 'prune-sessions': { handle: async () => handled.push('prune-sessions') } },
      { onFailed: (_job, error) => failures.push(error.message) },
    );
    // As a producer outside the catalog (an older release, a typo in a script) would add it.
    await queues.maintenance.add('resize', { width: 10 });
    await until(() => failures.length === 1);
    expect(failures).toEqual(['job resize is not in the catalog of queue maintenance']);
    expect(handled).toEqual([]);
  });
});
