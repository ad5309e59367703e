// The import rules of docs/architecture.md, run by dependency-cruiser (.dependency-cruiser.cjs) over the tree.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules/.bin/depcruise');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser in `cwd` over `paths` and returns the rules' violations. */
function violations(cwd: string, paths: string[]): Violation[] {
  const run = spawnSync(depcruise, [...paths, '--config', config, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const scratch = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(path: string, text: string) {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

describe('the package map', () => {
  it('holds across the apps and packages: no import breaks a rule', () => {
    const found = violations(root, ['apps', 'packages']);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('catches a package importing one it may not, an unlisted package and a package importing an app', () => {
    file('tsconfig.json', '{}\n');
    file('packages/domain/src/rule.ts', "export { openDb } from '../../db/src/client';\n");
    file('packages/db/src/client.ts', 'export const openDb = () => 1;\n');
    file('packages/newcomer/src/index.ts', "export { openDb } from '../../db/src/client';\n");
    file('packages/runtime/src/boot.ts', "export { app } from '../../../apps/api/src/app';\n");
    file('apps/api/src/app.ts', 'export const app = 1;\n');
    const found = violations(scratch, ['apps', 'packages']).map((v) => `${v.rule.name}: ${v.from}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'domain-imports: packages/domain/src/rule.ts',
        'no-unlisted-package: packages/newcomer/src/index.ts',
        'packages-never-import-apps: packages/runtime/src/boot.ts',
      ]),
    );
  });
});
