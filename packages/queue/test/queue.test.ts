import { randomUUID } from 'node:crypto';
import { JOB_NAMES, type JobName } from '@renamer/contracts';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { assertHandlersCover, closeQueues, createQueues, defineHandler, enqueue, startWorkers } from '../src';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisPrefix = `${process.env.REDIS_PREFIX ?? 'renamer-test:'}queue-${randomUUID().slice(0, 8)}:`;
const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });

afterAll(async () => {
  const keys = await connection.keys(`${redisPrefix}*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
});

describe('handler coverage', () => {
  const handle = async () => undefined;

  it('accepts exactly one handler per catalog job', () => {
    expect(() => assertHandlersCover(JOB_NAMES.map((name) => ({ name, handle })))).not.toThrow();
  });

  it('refuses a catalog job without a handler', () => {
    const withoutPrune = JOB_NAMES.filter((name) => name !== 'prune-sessions').map((name) => ({ name, handle }));
    expect(() => assertHandlersCover(withoutPrune)).toThrow(/no handler for prune-sessions$/);
  });

  it('refuses two handlers for one job and handlers for unknown jobs', () => {
    const doubled = [
      { name: 'prune-sessions' as const, handle },
      { name: 'prune-sessions' as const, handle },
    ];
    expect(() => assertHandlersCover(doubled)).toThrow(/more than one handler for prune-sessions/);
    expect(() =>
      assertHandlersCover([
        { name: 'prune-sessions', handle },
        { name: 'resize' as never, handle },
      ]),
    ).toThrow(/not in the catalog: resize/);
  });
});

/** Handlers that do nothing, for every catalog job but `name`: a worker must cover the whole catalog. */
const otherJobsThan = (name: JobName) =>
  JOB_NAMES.filter((other) => other !== name).map((other) => ({ name: other, handle: async () => undefined }));

describe('queues against real Redis', () => {
  it('refuses a payload that does not match the catalog before queueing it', async () => {
    const queues = createQueues(connection, redisPrefix);
    try {
      await expect(enqueue(queues, 'prune-sessions', { retentionDays: 0 })).rejects.toThrow();
      expect(await queues.maintenance.count()).toBe(0);
    } finally {
      await closeQueues(queues);
    }
  });

  it('runs a queued job on a worker, retrying a failed attempt with backoff', async () => {
    const queues = createQueues(connection, redisPrefix);
    const seen: { retentionDays: number; attempt: number }[] = [];
    const done = new Promise<Job>((resolve, reject) => {
      const workers = startWorkers(
        [
          ...otherJobsThan('prune-sessions'),
          defineHandler({
            name: 'prune-sessions',
            handle: async (payload, job) => {
              seen.push({ retentionDays: payload.retentionDays, attempt: job.attemptsMade });
              if (job.attemptsMade === 0) throw new Error('transient');
              return { removed: 3 };
            },
          }),
        ],
        {
          connection,
          redisPrefix,
          onCompleted: (job) => {
            Promise.all(workers.map((w) => w.close())).then(() => resolve(job), reject);
          },
        },
      );
    });
    try {
      const queued = await enqueue(queues, 'prune-sessions', { retentionDays: 30 });
      expect(queued.opts.attempts).toBe(3);
      const job = await done;
      expect(job.id).toBe(queued.id);
      expect(job.returnvalue).toEqual({ removed: 3 });
      expect(seen).toEqual([
        { retentionDays: 30, attempt: 0 },
        { retentionDays: 30, attempt: 1 },
      ]);
    } finally {
      await closeQueues(queues);
    }
  });
});
