// The tests that may be skipped in CI (CI=true): vitest.tally-reporter.ts fails the run on any other skipped test
// (`skip`, `skipIf`, `runIf`, `todo`, a `ctx.skip()` call). Keep it short: a test that needs a tool gets the tool
// installed by .ci/run instead.

export interface SkipAllowance {
  /** The test file, from the repository's root: `e2e/kubernetes.test.ts`. */
  file: string;
  /** The test's full name, its suites first, joined by ' > ' as vitest prints it. */
  test: string;
  /** Why it cannot run in CI. */
  reason: string;
}

export const SKIP_ALLOWLIST: readonly SkipAllowance[] = [];
