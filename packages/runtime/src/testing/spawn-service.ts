import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface SpawnedService {
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** What it wrote to stdout alone. */
  stdout(): string;
  exited: Promise<number | null>;
  /** SIGTERM, SIGKILL if it has not exited 10 s later, then the exit code. */
  stop(): Promise<number | null>;
}

export interface SpawnOptions {
  /** Options for node itself, such as `--cpu-prof`. */
  nodeArgs?: string[];
  /**
   * The process writes straight to this file instead of through this process: a service logging every request
   * under load would otherwise make this process read and hold every line (benchmarks measure those cores).
   */
  logFile?: string;
}

/** Tracing's start, loaded before the service as `npm start` loads it (it does nothing unless configured). */
const TELEMETRY_REGISTER = createRequire(import.meta.url).resolve('@renamer/telemetry/register');

/** Runs a TypeScript entrypoint as its own process, as `npm start` does. */
export function spawnService(
  entry: string,
  env: Record<string, string>,
  { nodeArgs = [], logFile }: SpawnOptions = {},
): SpawnedService {
  return spawnProcess(process.execPath, [...nodeArgs, '--import', TELEMETRY_REGISTER, '--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    logFile,
  });
}

export interface SpawnProcessOptions {
  /** The whole environment of the process (nothing is inherited). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user and group (when this process may: as root). */
  uid?: number;
  gid?: number;
  logFile?: string;
}

/** How long a stopped service may take to exit before it is killed. */
const STOP_GRACE_MS = 10_000;

/** Runs any command as a service: its output kept (or written to `logFile`), stopped with SIGTERM. */
export function spawnProcess(
  command: string,
  args: string[],
  { env, cwd, uid, gid, logFile }: SpawnProcessOptions,
): SpawnedService {
  const fd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(command, args, {
    env,
    cwd,
    uid,
    gid,
    stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => (logFile === undefined ? output : readFileSync(logFile, 'utf8').slice(-20_000)),
    stdout: () => stdout,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(killer);
      }
      return exited;
    },
  };
}

/** Polls `url` until it answers `status`, or fails with the service's output when it exits or time runs out. */
export async function waitForStatus(
  service: SpawnedService,
  url: string,
  status = 200,
  timeoutMs = 20_000,
): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output()}`);
    const response = await fetch(url).catch(() => null);
    if (response?.status === status) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer ${status} in ${timeoutMs} ms:\n${service.output()}`);
}
