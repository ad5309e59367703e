// The last line of `npm test`: `N passed, N failed` (and `N skipped` when some were).
import type { Reporter, TestModule } from 'vitest/node';

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

/** The shape of vitest's TestModule this needs, narrow enough to build in a test. */
export interface ModuleOutcome {
  state(): string;
  children: { allTests(): Iterable<{ result(): { state: string } }> };
}

/**
 * Counts test cases by outcome. A file that fails outside any test (it does not load, a hook throws) and an
 * unhandled error each count as one failure, so the tally never says "0 failed" for a run that failed.
 */
export function tallyTestRun(modules: Iterable<ModuleOutcome>, unhandledErrors: number): Tally {
  const tally: Tally = { passed: 0, failed: unhandledErrors, skipped: 0 };
  for (const module of modules) {
    let failedTests = 0;
    for (const test of module.children.allTests()) {
      const { state } = test.result();
      if (state === 'passed') tally.passed++;
      else if (state === 'failed') failedTests++;
      else if (state === 'skipped') tally.skipped++;
    }
    tally.failed += failedTests || (module.state() === 'failed' ? 1 : 0);
  }
  return tally;
}

export function tallyLine({ passed, failed, skipped }: Tally): string {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

export default class TallyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    process.stdout.write(`${tallyLine(tallyTestRun(testModules, unhandledErrors.length))}\n`);
  }
}
