import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from './children';
import { createDatabase, databaseUrl, dropDatabase } from './databases';
import { findDependencies } from './dependencies';
import { migrate } from './migrate';
import { exitWithParentArgs, repoRoot } from './paths';
import { deleteKeysWithPrefix } from './resp';
import { say } from './say';
import { throwIfStopped } from './stop-signals';
import { type Tally, tallyLine } from './tally';
import type { Teardown } from './teardown';
import { testRunNames } from './test-run-names';

const VITEST = join(repoRoot, 'node_modules/vitest/vitest.mjs');
const TALLY_REPORTER = join(repoRoot, 'scripts/stack/vitest-tally-reporter.ts');

/**
 * `npm test`: a database, a Redis key prefix and a storage directory of the run's own, every test of the repo
 * through vitest (with `args` passed on), and everything of the run removed afterwards. Its last line tallies
 * the run.
 */
export async function runTests(args: string[], teardown: Teardown): Promise<{ exitCode: number; lastLine: string }> {
  const { postgres, redis } = await findDependencies('throwaway', teardown);
  throwIfStopped();
  const run = testRunNames();

  await createDatabase(postgres.serverUrl, run.database);
  teardown.defer(`drop the database ${run.database}`, () => dropDatabase(postgres.serverUrl, run.database));
  teardown.defer(`delete the Redis keys under ${run.redisPrefix}`, () =>
    deleteKeysWithPrefix(redis.url, run.redisPrefix),
  );
  const tempDir = await mkdtemp(join(tmpdir(), `renamer-test-${run.id}-`));
  teardown.defer(`remove ${tempDir}`, () => rm(tempDir, { recursive: true, force: true }));
  say(`PostgreSQL: ${postgres.description}; database ${run.database}`);
  say(`Redis: ${redis.description}; keys under ${run.redisPrefix}`);

  const testDatabaseUrl = databaseUrl(postgres.serverUrl, run.database);
  await migrate(testDatabaseUrl, `database ${run.database}`);

  const storageDir = join(tempDir, 'objects');
  await mkdir(storageDir);
  const tallyFile = join(tempDir, 'tally.json');
  const reporters = args.some((arg) => arg.startsWith('--reporter')) ? [] : ['--reporter=default'];
  const vitest = spawnChild(
    'vitest',
    process.execPath,
    [...exitWithParentArgs(), VITEST, 'run', ...reporters, `--reporter=${TALLY_REPORTER}`, ...args],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        // Services under test log only when asked to (LOG_LEVEL=debug npm test).
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
        DATABASE_URL: testDatabaseUrl,
        REDIS_URL: redis.url,
        REDIS_PREFIX: run.redisPrefix,
        STORAGE_DRIVER: 'fs',
        STORAGE_DIR: storageDir,
        RENAMER_TALLY_FILE: tallyFile,
      },
      output: 'inherit',
    },
  );
  const exitCode = await vitest.exited;
  const tally = existsSync(tallyFile) ? (JSON.parse(await readFile(tallyFile, 'utf8')) as Tally) : undefined;
  return { exitCode, lastLine: tally ? tallyLine(tally) : `vitest reported no results (exit code ${exitCode})` };
}
