import { defineConfig } from 'vitest/config';

/** CI sets CI=true (.ci/run runs there): a skipped test then fails the run unless vitest.skip-allowlist.ts names it. */
const ci = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

export default defineConfig({
  test: {
    include: [
      '{apps,packages}/*/{src,test}/**/*.test.ts',
      // The web app's component tests (jsdom, named in each file).
      'apps/web/src/**/*.test.tsx',
      'e2e/**/*.test.ts',
      // Rules over the whole tree (the package map's imports).
      'test/**/*.test.ts',
      'vitest.*.test.ts',
    ],
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
  },
});
