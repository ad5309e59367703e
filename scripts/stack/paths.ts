import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const dataDir = join(repoRoot, '.data');

/** Node arguments that run a TypeScript file with tsx. */
export function tsxArgs(entry: string): string[] {
  return ['--import', import.meta.resolve('tsx'), resolve(repoRoot, entry)];
}

/** Preloads the module that ends a process should its parent, the stack, die without stopping it. */
export function exitWithParentArgs(): string[] {
  return ['--import', pathToFileURL(join(repoRoot, 'scripts/stack/exit-with-parent.mjs')).href];
}
