// The last line of `npm test`: `N passed, N failed` (and `N skipped` when some were). In CI (`failOnSkip`, set by
// vitest.config.ts when CI=true) a skipped test that vitest.skip-allowlist.ts does not name fails the run, and
// counts as failed in that line.
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { SKIP_ALLOWLIST, type SkipAllowance } from './vitest.skip-allowlist';

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

/** The shape of vitest's TestCase this needs. */
export interface TestOutcome {
  /** The test's name after its suites', joined by ' > '. */
  fullName: string;
  /** 'skip' (`skip`, `skipIf`, `runIf`, or a skipped suite), 'todo', or 'run' for one that ran (and maybe `ctx.skip()`). */
  options: { mode: string };
  result(): { state: string; note?: string | undefined };
}

/** The shape of vitest's TestModule this needs, narrow enough to build in a test. */
export interface ModuleOutcome {
  /** The file, relative to the root: `e2e/kubernetes.test.ts`. */
  relativeModuleId: string;
  state(): string;
  children: { allTests(): Iterable<TestOutcome> };
}

/**
 * Counts test cases by outcome. A file that fails outside any test (it does not load, a hook throws) and an
 * unhandled error each count as one failure, so the tally never says "0 failed" for a run that failed. Skips that
 * fail the run (`failingSkips`) count as failed, not skipped.
 */
export function tallyTestRun(modules: Iterable<ModuleOutcome>, unhandledErrors: number, failingSkips = 0): Tally {
  const tally: Tally = { passed: 0, failed: unhandledErrors + failingSkips, skipped: 0 };
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
  tally.skipped -= failingSkips;
  return tally;
}

export function tallyLine({ passed, failed, skipped }: Tally): string {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

export interface SkippedTest {
  file: string;
  test: string;
  /** How it was skipped: 'skip', 'todo', or 'run' for a `ctx.skip()` while it ran. */
  mode: string;
  /** The note given to `ctx.skip(note)`, if any. */
  note: string | undefined;
}

export interface SkipCheck {
  /** Skipped tests the allow-list does not name: each fails the run. */
  disallowed: SkippedTest[];
  /** Allow-list entries for the files that ran that matched no skipped test: stale, to be removed. */
  unused: SkipAllowance[];
}

/** Every skipped test of the run, in file order. */
export function skippedTests(modules: Iterable<ModuleOutcome>): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state !== 'skipped') continue;
      skipped.push({ file: module.relativeModuleId, test: test.fullName, mode: test.options.mode, note: result.note });
    }
  }
  return skipped;
}

/** Sorts the skipped tests into those the allow-list names (by file and full name) and those it does not. */
export function checkSkips(
  skipped: readonly SkippedTest[],
  allowlist: readonly SkipAllowance[],
  filesRun: ReadonlySet<string>,
): SkipCheck {
  const names = (entry: { file: string; test: string }) => `${entry.file}\0${entry.test}`;
  const allowed = new Set(allowlist.map(names));
  const seen = new Set(skipped.map(names));
  return {
    disallowed: skipped.filter((test) => !allowed.has(names(test))),
    unused: allowlist.filter((entry) => filesRun.has(entry.file) && !seen.has(names(entry))),
  };
}

function describeSkip({ mode, note }: SkippedTest): string {
  const how =
    mode === 'todo'
      ? 'todo'
      : mode === 'skip'
        ? 'skipped (skip, skipIf or runIf, on it or its suite)'
        : 'skipped by ctx.skip() while running';
  return note ? `${how}: ${note}` : how;
}

/** The lines printed above the tally when skips fail the run: each offending test, then the way out. */
export function skipReport({ disallowed, unused }: SkipCheck): string[] {
  const lines: string[] = [];
  if (disallowed.length) {
    lines.push(`${disallowed.length} skipped test(s) fail this CI run (CI=true):`);
    for (const test of disallowed) lines.push(`  ${test.file} > ${test.test}`, `      ${describeSkip(test)}`);
    lines.push(
      'Make each run in CI (install what it needs in .ci/run), or name it with a reason in vitest.skip-allowlist.ts.',
    );
  }
  for (const entry of unused) {
    lines.push(`vitest.skip-allowlist.ts: ${entry.file} > ${entry.test} was not skipped: remove the entry.`);
  }
  return lines;
}

export interface TallyReporterOptions {
  /** Whether a skipped test that the allow-list does not name fails the run (vitest.config.ts: when CI=true). */
  failOnSkip?: boolean;
  allowlist?: readonly SkipAllowance[];
}

export default class TallyReporter implements Reporter {
  private vitest: Vitest | undefined;
  private filtered = false;
  private readonly failOnSkip: boolean;
  private readonly allowlist: readonly SkipAllowance[];

  constructor({ failOnSkip = false, allowlist = SKIP_ALLOWLIST }: TallyReporterOptions = {}) {
    this.failOnSkip = failOnSkip;
    this.allowlist = allowlist;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    // A run narrowed to some tests (-t, file:line, tags) skips the others by design: it is not the CI run.
    const config = this.vitest?.config;
    this.filtered =
      Boolean(config?.testNamePattern || config?.tagsFilter?.length) ||
      specifications.some(
        (spec) => spec.testNamePattern || spec.testLines?.length || spec.testIds?.length || spec.testTagsFilter?.length,
      );
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: 'passed' | 'interrupted' | 'failed',
  ): void {
    const checkSkipped = this.failOnSkip && !this.filtered && reason !== 'interrupted';
    const check = checkSkipped
      ? checkSkips(
          skippedTests(testModules),
          this.allowlist,
          new Set(testModules.map((module) => module.relativeModuleId)),
        )
      : { disallowed: [], unused: [] };
    const lines = skipReport(check);
    if (this.failOnSkip && this.filtered)
      lines.push('Skipped tests are not checked: this run is narrowed to some tests.');
    // Vitest sets a failing exit code only from test results and errors, and never clears one set here.
    if (check.disallowed.length) process.exitCode = 1;
    if (lines.length) lines.unshift('');
    lines.push(tallyLine(tallyTestRun(testModules, unhandledErrors.length, check.disallowed.length)));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
