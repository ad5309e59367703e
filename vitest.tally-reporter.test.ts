import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SKIP_ALLOWLIST, type SkipAllowance } from './vitest.skip-allowlist';
import {
  checkSkips,
  type ModuleOutcome,
  type SkippedTest,
  skippedTests,
  skipReport,
  type TestOutcome,
  tallyLine,
  tallyTestRun,
} from './vitest.tally-reporter';

type TestSpec = string | { name?: string; state: string; mode?: string; note?: string };

function module(state: string, tests: TestSpec[], file = 'e2e/some.test.ts'): ModuleOutcome {
  const outcomes: TestOutcome[] = tests.map((spec, index) => {
    const {
      name = `test ${index}`,
      state: testState,
      mode = 'run',
      note,
    } = typeof spec === 'string' ? { state: spec } : spec;
    return { fullName: name, options: { mode }, result: () => ({ state: testState, note }) };
  });
  return { relativeModuleId: file, state: () => state, children: { allTests: () => outcomes } };
}

describe('tallyTestRun', () => {
  it('counts tests by outcome across files', () => {
    const tally = tallyTestRun(
      [module('failed', ['passed', 'failed', 'skipped']), module('passed', ['passed', 'passed'])],
      0,
    );
    expect(tally).toEqual({ passed: 3, failed: 1, skipped: 1 });
  });

  it('counts a file that fails outside its tests as one failure', () => {
    expect(tallyTestRun([module('failed', [])], 0)).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });

  it('does not count a failing file twice when its tests already failed', () => {
    expect(tallyTestRun([module('failed', ['failed', 'failed'])], 0).failed).toBe(2);
  });

  it('counts unhandled errors as failures', () => {
    expect(tallyTestRun([module('passed', ['passed'])], 2)).toEqual({ passed: 1, failed: 2, skipped: 0 });
  });

  it('counts skips that fail the run as failed, not skipped', () => {
    const tally = tallyTestRun([module('passed', ['passed', 'skipped', 'skipped', 'skipped'])], 0, 2);
    expect(tally).toEqual({ passed: 1, failed: 2, skipped: 1 });
    expect(tallyLine(tally)).toBe('1 passed, 2 failed, 1 skipped');
  });
});

describe('tallyLine', () => {
  it('says passed and failed, always', () => {
    expect(tallyLine({ passed: 12, failed: 0, skipped: 0 })).toBe('12 passed, 0 failed');
  });

  it('adds skipped only when some were', () => {
    expect(tallyLine({ passed: 3, failed: 1, skipped: 2 })).toBe('3 passed, 1 failed, 2 skipped');
  });
});

describe('skipped tests in CI', () => {
  const run = [
    module(
      'passed',
      [
        { name: 'tools > nginx redirects', state: 'skipped', note: 'nginx is not installed' },
        { name: 'tools > kustomize renders', state: 'skipped', mode: 'skip' },
        { name: 'later', state: 'skipped', mode: 'todo' },
        { name: 'runs', state: 'passed' },
      ],
      'e2e/tools.test.ts',
    ),
    module('passed', [{ name: 'runs too', state: 'passed' }], 'e2e/other.test.ts'),
  ];

  it('lists every skipped test by file and full name, with how it was skipped and its note', () => {
    expect(skippedTests(run)).toEqual([
      { file: 'e2e/tools.test.ts', test: 'tools > nginx redirects', mode: 'run', note: 'nginx is not installed' },
      { file: 'e2e/tools.test.ts', test: 'tools > kustomize renders', mode: 'skip', note: undefined },
      { file: 'e2e/tools.test.ts', test: 'later', mode: 'todo', note: undefined },
    ]);
  });

  it('lets through only what the allow-list names by file and full name', () => {
    const allowlist: SkipAllowance[] = [
      { file: 'e2e/tools.test.ts', test: 'tools > kustomize renders', reason: 'no cluster here' },
      // The same name in another file allows nothing here.
      { file: 'e2e/other.test.ts', test: 'later', reason: 'not written yet' },
    ];
    const { disallowed, unused } = checkSkips(
      skippedTests(run),
      allowlist,
      new Set(['e2e/tools.test.ts', 'e2e/other.test.ts']),
    );
    expect(disallowed.map((test) => test.test)).toEqual(['tools > nginx redirects', 'later']);
    expect(unused).toEqual([allowlist[1]]);
  });

  it('calls an entry stale only when its file ran (a run of some files leaves the others alone)', () => {
    const entry = { file: 'e2e/kubernetes.test.ts', test: 'renders', reason: 'needs kubectl' };
    expect(checkSkips([], [entry], new Set(['e2e/tools.test.ts'])).unused).toEqual([]);
    expect(checkSkips([], [entry], new Set(['e2e/kubernetes.test.ts'])).unused).toEqual([entry]);
  });

  it('allows nothing with an empty allow-list', () => {
    const skipped = skippedTests(run);
    expect(checkSkips(skipped, [], new Set()).disallowed).toEqual(skipped);
  });

  it('names each offending test, how it was skipped and its note, then the way out', () => {
    const disallowed: SkippedTest[] = [
      { file: 'e2e/tools.test.ts', test: 'tools > nginx redirects', mode: 'run', note: 'nginx is not installed' },
      { file: 'e2e/tools.test.ts', test: 'tools > kustomize renders', mode: 'skip', note: undefined },
      { file: 'e2e/tools.test.ts', test: 'later', mode: 'todo', note: undefined },
    ];
    const unused = [{ file: 'e2e/old.test.ts', test: 'gone', reason: 'was needed once' }];
    expect(skipReport({ disallowed, unused })).toEqual([
      '3 skipped test(s) fail this CI run (CI=true):',
      '  e2e/tools.test.ts > tools > nginx redirects',
      '      skipped by ctx.skip() while running: nginx is not installed',
      '  e2e/tools.test.ts > tools > kustomize renders',
      '      skipped (skip, skipIf or runIf, on it or its suite)',
      '  e2e/tools.test.ts > later',
      '      todo',
      'Make each run in CI (install what it needs in .ci/run), or name it with a reason in vitest.skip-allowlist.ts.',
      'vitest.skip-allowlist.ts: e2e/old.test.ts > gone was not skipped: remove the entry.',
    ]);
    expect(skipReport({ disallowed: [], unused: [] })).toEqual([]);
  });

  it('keeps an allow-list whose every entry names an existing test file and gives a reason', () => {
    for (const entry of SKIP_ALLOWLIST) {
      expect(existsSync(entry.file), entry.file).toBe(true);
      expect(entry.test.trim(), entry.file).not.toBe('');
      expect(entry.reason.trim(), `${entry.file} > ${entry.test}`).not.toBe('');
    }
  });
});
