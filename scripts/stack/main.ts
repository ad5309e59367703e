import { appDatabase } from './app-database';
import { stopChildren, terminateChildren } from './children';
import { migrate } from './migrate';
import { findPostgres } from './postgres';
import { paint, say } from './say';
import { start } from './start';
import { listenForStopSignals, onStop, StopRequested } from './stop-signals';
import { Teardown } from './teardown';
import { runTests } from './test-run';

export type Mode = 'start' | 'test' | 'migrate';

/** Runs one mode of the bootstrap to its end, undoes what it set up, and returns the exit code. */
export async function main(mode: Mode, args: string[]): Promise<number> {
  listenForStopSignals();
  onStop(terminateChildren);
  const teardown = new Teardown();
  let exitCode: number;
  let lastLine: string | undefined;
  try {
    if (mode === 'start') exitCode = await start(teardown);
    else if (mode === 'test') ({ exitCode, lastLine } = await runTests(args, teardown));
    else exitCode = await migrateOnly(teardown);
  } catch (error) {
    if (error instanceof StopRequested) {
      exitCode = mode === 'start' ? 0 : 130;
    } else {
      process.stderr.write(`${paint('red', 'error:')} ${(error as Error).message}\n`);
      exitCode = 1;
    }
  }
  await stopChildren();
  await teardown.run();
  if (lastLine) process.stdout.write(`${lastLine}\n`);
  return exitCode;
}

async function migrateOnly(teardown: Teardown): Promise<number> {
  const postgres = await findPostgres('long-lived', teardown);
  say(`PostgreSQL: ${postgres.description}`);
  const database = await appDatabase(postgres);
  await migrate(database.url, database.label);
  return 0;
}
