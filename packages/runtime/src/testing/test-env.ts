import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * A new directory under the test run's STORAGE_DIR (vitest.global-setup.ts makes it and removes it with
 * everything in it once the run ends), so that nothing a test writes outlives the run.
 */
export function testDir(name: string): string {
  const runDir = process.env.STORAGE_DIR;
  if (!runDir) throw new Error('STORAGE_DIR is not set: run the tests through vitest.config.ts (npm test)');
  return mkdtempSync(join(runDir, `${name}-`));
}

/**
 * The environment of the test run (vitest's global setup gives it a database and a REDIS_PREFIX of its own),
 * with a unique Redis prefix and storage directory for one test file.
 */
export function testServiceEnv(name: string) {
  const prefix = `${process.env.REDIS_PREFIX}${name}-${randomUUID().slice(0, 8)}:`;
  return {
    NODE_ENV: 'test',
    // vitest.config.ts sets it: 'silent' unless the run asks for more (LOG_LEVEL=debug npm test).
    LOG_LEVEL: process.env.LOG_LEVEL!,
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL!,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_PREFIX: prefix,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: testDir(name),
    // The API serves no web app unless a test asks for one (its own build, or a fixture of one).
    WEB_DIST_DIR: '',
  };
}

/** Deletes every key under `prefix` (SCAN + UNLINK); prefixes hold no glob characters (REDIS_PREFIX's schema). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) {
      if (keys.length) await redis.unlink(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}
