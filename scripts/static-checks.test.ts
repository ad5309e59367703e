import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './stack/paths';

/** Lint, format and types gate every `npm test`, so CI refuses what a reviewer would. */
function run(command: string, args: string[]) {
  const result = spawnSync(join(repoRoot, 'node_modules/.bin', command), args, { cwd: repoRoot, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('static checks', () => {
  it('passes biome (lint and format)', () => {
    const { status, output } = run('biome', ['check', '--error-on-warnings', '.']);
    expect(status, output).toBe(0);
  }, 120_000);

  it('passes the TypeScript compiler in strict mode over the whole repository', () => {
    const { status, output } = run('tsc', ['-p', 'tsconfig.json']);
    expect(status, output).toBe(0);
  }, 180_000);
});
