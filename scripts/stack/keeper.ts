import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Sets something up in a keeper and returns how to let it go. */
export type Hold<Args> = (args: Args) => Promise<() => Promise<unknown>>;

const HOST = fileURLToPath(new URL('keeper-host.ts', import.meta.url));

/**
 * Runs the `hold` of `module` (a file URL) with `args` in keeper-host.ts; resolves, once that is ready, to what
 * lets it go.
 */
export async function startKeeper(module: string, args: object): Promise<() => Promise<unknown>> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST, module, JSON.stringify(args)], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const ready = once(createInterface({ input: child.stdout }), 'line').then(() => true);
  if (!(await Promise.race([ready, exited.then(() => false)]))) {
    throw new Error(`a keeper of ${module} stopped while starting (its output is above)`);
  }
  return () => {
    child.stdin.end();
    return exited;
  };
}
