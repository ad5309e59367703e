// A vitest reporter that writes the run's tally (tally.ts) as JSON to RENAMER_TALLY_FILE, and prints nothing.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { tallyTestRun } from './tally';

export default class TallyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const file = process.env.RENAMER_TALLY_FILE;
    if (file) writeFileSync(file, JSON.stringify(tallyTestRun(testModules, unhandledErrors.length)));
  }
}
