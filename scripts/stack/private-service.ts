import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from './paths';
import { type Colour, prefixFor } from './say';
import { throwIfStopped } from './stop-signals';

/** What private-service-host.mjs runs. */
export type PrivateServiceSpec =
  | { kind: 'postgres'; port: number; dataDir: string; throwaway: boolean; user: string; password: string }
  | { kind: 'redis'; port: number; dir: string };

export interface PrivateService {
  /** Resolves when the host exits, asked to or not. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

const HOST = join(repoRoot, 'scripts/stack/private-service-host.mjs');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

/**
 * Starts a private PostgreSQL or redis-server through private-service-host.mjs, in a process group of its own,
 * and resolves once the host says it runs. What the host says after that is printed under `name`.
 */
export async function startPrivateService(
  name: string,
  colour: Colour,
  spec: PrivateServiceSpec,
): Promise<PrivateService> {
  throwIfStopped();
  const host = spawn(process.execPath, [HOST, JSON.stringify(spec)], {
    cwd: repoRoot,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => host.on('close', () => resolve()));
  const errorLines: string[] = [];
  let started = false;
  createInterface({ input: host.stderr }).on('line', (line) => {
    if (started) process.stderr.write(`${prefixFor(name, colour)}${line}\n`);
    else errorLines.push(line);
  });
  const announced = new Promise<void>((resolve, reject) => {
    createInterface({ input: host.stdout }).on('line', (line) => {
      if (line === 'started') resolve();
    });
    void exited.then(() => reject(new Error(`${name} did not start:\n${errorLines.join('\n')}`)));
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    timer.unref();
  });
  const stop = async () => {
    host.stdin.end();
    const timer = setTimeout(() => {
      if (host.pid !== undefined && host.exitCode === null) process.kill(-host.pid, 'SIGKILL');
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  try {
    await announced;
  } catch (error) {
    await stop();
    throw error;
  }
  started = true;
  return { exited, stop };
}
