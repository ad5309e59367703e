import { type CleanupEnv, closeQueues, createCleanupTasks, createQueues, type Queues } from '@renamer/jobs';
import { createRedis } from '@renamer/runtime';
import { testServiceEnv } from '@renamer/runtime/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createHandlerFixture, type HandlerFixture } from './handler-fixture';

export interface CleanupWorld {
  fixture: HandlerFixture;
  redis: Redis;
  /** The queues under `prefix`, the Redis prefix a worker process started by the file is given too. */
  queues: Queues;
  prefix: string;
}

/**
 * The cleanup tasks' ground for a test file: a handler fixture (a database and store of its own) and queues under a
 * Redis prefix of its own, made before the file's tests and closed after them; the fields are there inside tests.
 * `tasks` makes the tasks over it, with the given settings over defaults (stale after 2 h, failed jobs kept 7 days,
 * download records 90, originals kept until deleted).
 */
export function useCleanupWorld(name: string) {
  const world = {} as CleanupWorld;
  beforeAll(async () => {
    world.fixture = await createHandlerFixture(name);
    world.prefix = testServiceEnv(name).REDIS_PREFIX;
    world.redis = createRedis(process.env.REDIS_URL!);
    world.queues = createQueues(world.redis, world.prefix);
  });
  afterAll(async () => {
    if (world.queues) await closeQueues(world.queues);
    world.redis?.disconnect();
    await world.fixture?.close();
  });
  const tasks = (config: Partial<CleanupEnv> = {}, now?: () => Date) =>
    createCleanupTasks({
      downloads: world.fixture.repositories.downloads,
      images: world.fixture.repositories.images,
      batches: world.fixture.repositories.batches,
      tracker: world.fixture.tracker,
      store: world.fixture.store,
      queues: world.queues,
      config: { STALE_BATCH_AFTER_MINUTES: 120, FAILED_JOB_RETENTION_DAYS: 7, DOWNLOAD_HISTORY_DAYS: 90, ...config },
      now,
    });
  return { world, tasks };
}
