// The container engine that `npm run build:images` drives: podman where it is installed, else docker with a running
// engine. Each one's flags for these machines are here (the STACK-NOTES findings), so the other files stay generic.
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';

export interface Engine {
  name: 'podman' | 'docker';
  /** Before the Dockerfile and its arguments. */
  buildFlags: string[];
  /** Before the image, for every container started. */
  runFlags: string[];
}

export const say = (text: string) => process.stderr.write(`[build-images] ${text}\n`);

/** Runs a command to its end; its stdout, or an error with what it printed when it fails. */
export function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${command} ${args.slice(0, 3).join(' ')} … exited with ${result.status}:\n${output}`);
  }
  return String(result.stdout ?? '');
}

export const succeeds = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** CONTAINER_ENGINE=podman|docker chooses; otherwise podman when present, else docker when its engine answers. */
export function pickEngine(): Engine {
  const wanted = process.env.CONTAINER_ENGINE;
  if (wanted && wanted !== 'podman' && wanted !== 'docker') throw new Error('CONTAINER_ENGINE is podman or docker');
  if (wanted !== 'docker' && succeeds('podman', ['--version'])) {
    // crun fails here (setrlimit, cgroups v1): runc does, with limits within the machine's own.
    const runtime = succeeds('runc', ['--version']) ? ['--runtime', 'runc'] : [];
    return {
      name: 'podman',
      // podman's default OCI format drops HEALTHCHECK; docker's keeps it.
      buildFlags: [...runtime, '--format', 'docker'],
      runFlags: [...runtime, '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096'],
    };
  }
  // The docker client alone answers --version; `docker info` needs the engine.
  if (wanted !== 'podman' && succeeds('docker', ['info'])) return { name: 'docker', buildFlags: [], runFlags: [] };
  throw new Error(
    wanted
      ? `${wanted} is not usable here`
      : 'neither podman nor a running docker engine was found: apt-get install podman buildah runc mmdebstrap uidmap',
  );
}

export const imageExists = (engine: Engine, image: string) => succeeds(engine.name, ['image', 'inspect', image]);
