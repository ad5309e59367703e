import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { repoRoot } from './paths';
import { throwIfStopped } from './stop-signals';

export interface Child {
  name: string;
  /** Exit code; a death by signal counts as 128 + its number, as in a shell. */
  exited: Promise<number>;
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  /** Lines of stdout and stderr, or 'inherit' to hand the terminal to the child. */
  output: 'inherit' | ((line: string, stream: 'stdout' | 'stderr') => void);
}

const running = new Set<ChildProcess>();
const KILL_AFTER_MS = 30_000;

/**
 * Starts a process in a process group of its own: Ctrl-C then reaches only the stack, which sends each child
 * exactly one SIGTERM (the services treat a second signal as "exit now").
 */
export function spawnChild(name: string, command: string, args: string[], options: ChildOptions): Child {
  throwIfStopped();
  const proc = spawn(command, args, {
    cwd: repoRoot,
    env: options.env,
    detached: true,
    stdio: options.output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  const { output } = options;
  if (output !== 'inherit') {
    forwardLines(proc.stdout, (line) => output(line, 'stdout'));
    forwardLines(proc.stderr, (line) => output(line, 'stderr'));
  }
  const exited = new Promise<number>((resolve) => {
    proc.on('error', (error) => {
      running.delete(proc);
      process.stderr.write(`${name}: ${error.message}\n`);
      resolve(127);
    });
    proc.on('close', (code, signal) => {
      running.delete(proc);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
  return { name, exited };
}

function forwardLines(stream: Readable | null, onLine: (line: string) => void): void {
  if (stream) createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', onLine);
}

/** SIGTERM to every running child, SIGKILL to the groups of those still there later (or at once when forced). */
export function terminateChildren(force = false): void {
  for (const proc of running) {
    if (force) {
      killGroup(proc);
    } else {
      proc.kill('SIGTERM');
      setTimeout(() => killGroup(proc), KILL_AFTER_MS).unref();
    }
  }
}

/** Terminates every running child and waits until all have exited. */
export async function stopChildren(): Promise<void> {
  const exits = [...running].map((proc) => new Promise((resolve) => proc.once('close', resolve)));
  terminateChildren();
  await Promise.all(exits);
}

function killGroup(proc: ChildProcess): void {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
