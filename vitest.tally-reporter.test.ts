import { describe, expect, it } from 'vitest';
import { type ModuleOutcome, tallyLine, tallyTestRun } from './vitest.tally-reporter';

function module(state: string, testStates: string[]): ModuleOutcome {
  return {
    state: () => state,
    children: { allTests: () => testStates.map((testState) => ({ result: () => ({ state: testState }) })) },
  };
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
});

describe('tallyLine', () => {
  it('says passed and failed, always', () => {
    expect(tallyLine({ passed: 12, failed: 0, skipped: 0 })).toBe('12 passed, 0 failed');
  });

  it('adds skipped only when some were', () => {
    expect(tallyLine({ passed: 3, failed: 1, skipped: 2 })).toBe('3 passed, 1 failed, 2 skipped');
  });
});
