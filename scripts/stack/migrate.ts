import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnChild } from './children';
import { exitWithParentArgs, repoRoot, tsxArgs } from './paths';
import { elapsedSince, say } from './say';
import { throwIfStopped } from './stop-signals';

const MIGRATE_CLI = 'packages/db/src/migrate-cli.ts';

/** Applies the committed migrations to `databaseUrl`; its output shows only when it fails. */
export async function migrate(databaseUrl: string, label: string): Promise<void> {
  if (!existsSync(join(repoRoot, MIGRATE_CLI))) throw new Error(`${MIGRATE_CLI} is missing: cannot apply migrations`);
  const startedAt = performance.now();
  const output: string[] = [];
  const child = spawnChild('migrate', process.execPath, [...exitWithParentArgs(), ...tsxArgs(MIGRATE_CLI)], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    output: (line) => output.push(line),
  });
  const code = await child.exited;
  throwIfStopped();
  if (code !== 0) throw new Error(`migrations failed on ${label} (exit ${code}):\n${output.join('\n')}`);
  say(`migrations applied to ${label} in ${elapsedSince(startedAt)}`);
}
