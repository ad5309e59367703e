// The test run's own database, Redis key prefix and storage directory, for `npm test`, plain `vitest`, an IDE or
// watch mode alike; the setup file (vitest.setup.ts) puts them into each test file's environment.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropDatabase } from './packages/db/src/databases';
import { createIsolatedDatabase } from './packages/runtime/src/testing/isolated-database';
import { deleteRedisKeys } from './packages/runtime/src/testing/test-env';
import { type Hold, startKeeper } from './scripts/stack/keeper';
import { findPostgres } from './scripts/stack/postgres';
import { findRedis } from './scripts/stack/redis';
import { elapsedSince, say } from './scripts/stack/say';

export interface TestRunEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  /** Keys and channels of this run start with it. */
  REDIS_PREFIX: string;
  STORAGE_DIR: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testRunEnv: TestRunEnv;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const id = randomBytes(5).toString('hex');
  const database = `renamer_test_${id}`;
  const redisPrefix = `renamer-test-${id}:`;
  const dir = await mkdtemp(join(tmpdir(), `renamer-test-${id}-`));
  const [postgres, redis] = await Promise.all([findPostgres('throwaway'), findRedis()]);
  // Whatever the run leaves goes once this process ends, however it ends (vitest exits at once on Ctrl-C,
  // without a teardown); a throwaway cluster or a private Redis goes as a whole.
  const leftovers = startKeeper(import.meta.url, {
    dir,
    database: postgres.stop ? undefined : { serverUrl: postgres.serverUrl, name: database },
    redis: redis.stop ? undefined : { url: redis.url, prefix: redisPrefix },
  });
  const startedAt = performance.now();
  const [removeLeftovers, { url }] = await Promise.all([
    leftovers,
    createIsolatedDatabase(postgres.serverUrl, database),
  ]);
  say(`PostgreSQL: ${postgres.description}; database ${database} migrated in ${elapsedSince(startedAt)}`);
  say(`Redis: ${redis.description}; keys under ${redisPrefix}`);
  project.provide('testRunEnv', {
    DATABASE_URL: url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redisPrefix,
    STORAGE_DIR: dir,
  });
  return async () => {
    await removeLeftovers();
    await Promise.all([postgres.stop?.(), redis.stop?.()]);
  };
}

interface Leftovers {
  dir: string;
  database?: { serverUrl: string; name: string };
  redis?: { url: string; prefix: string };
}

/** Removes what a run leaves, in a keeper (scripts/stack/keeper.ts) once the run's process has ended. */
export const hold: Hold<Leftovers> =
  async ({ dir, database, redis }) =>
  async () => {
    const results = await Promise.allSettled([
      database && dropDatabase(database.serverUrl, database.name),
      redis && deleteRedisKeys(redis.url, redis.prefix),
      rm(dir, { recursive: true, force: true }),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') process.stderr.write(`could not clean up: ${result.reason}\n`);
    }
  };
