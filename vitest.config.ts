import { configDefaults, defineConfig } from 'vitest/config';

/** Files that measure their own process (its memory), which other files' leftovers in a shared process would skew. */
const measuresItsProcess = ['apps/api/test/gc-nudge.test.ts'];

/** CI sets CI=true (.ci/run runs there): a skipped test then fails the run unless vitest.skip-allowlist.ts names it. */
const ci = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

export default defineConfig({
  test: {
    globalSetup: ['vitest.global-setup.ts'],
    setupFiles: ['vitest.setup.ts'],
    env: {
      // Services under test log only when asked to (LOG_LEVEL=debug npm test); testServiceEnv passes it on.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
    // The tally ends the output with one line `N passed, N failed`; in CI it also fails the run on a skipped test.
    reporters: ['default', ['./vitest.tally-reporter.ts', { failOnSkip: ci }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most files wait on services, sockets
    // and child processes far more than they compute, so a second one fills the idle core (docs/testing.md).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            '{apps,packages}/*/{src,test}/**/*.test.ts',
            'e2e/**/*.test.ts',
            // The start script's pure parts (which processes, on which ports).
            'scripts/**/*.test.ts',
            // Rules over the whole tree (the package map's imports, the table of image formats).
            'test/**/*.test.ts',
            'vitest.*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...measuresItsProcess],
          // Files share a process's loaded modules instead of importing the whole service graph again each (178 s
          // of a run went to imports). They share no state through them: each file builds its own app, stack,
          // database or Redis prefix, and restores what it changes (timers, environment).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'alone', include: measuresItsProcess } },
      {
        extends: true,
        // The web app's component tests, each in a fresh jsdom (named in each file).
        test: { name: 'web', include: ['apps/web/src/**/*.test.tsx'] },
      },
    ],
  },
});
