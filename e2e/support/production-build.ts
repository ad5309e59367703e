import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { type SpawnedService, spawnProcess } from '@renamer/service-kit/testing';
import {
  type Dockerfile,
  expandVariables,
  type Instruction,
  keyValues,
  parseDockerfile,
  type Stage,
  stageChain,
} from './dockerfile';

export const REPO = resolve(import.meta.dirname, '../..');
export const DOCKERFILE = join(REPO, 'infra/docker/Dockerfile');

/** Who the services run as: `nobody` when the tests run as root (as CI does), else the tests' own user. */
export const UNPRIVILEGED =
  process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : { uid: process.getuid!(), gid: process.getgid!() };

/** The pnpm that `npm test` installed or found (scripts/bootstrap.mjs), and the store it installs from. */
function findPnpm(): string {
  const onPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (onPath.status === 0 && Number.parseInt(onPath.stdout, 10) >= 12) return 'pnpm';
  return join(REPO, '.data/tools/node_modules/.bin/pnpm');
}

/**
 * The Dockerfile's build replayed outside a container, under `root`: each stage's WORKDIR, COPY, ENV and RUN as the
 * builder would run them, every absolute path of the image mapped into `root` (the pnpm store cache into this
 * machine's store), so that what the image would build and run is built and run here. What it cannot replay is
 * named where it is skipped: the global pnpm install (this machine's pnpm is used), and a network `pnpm fetch`
 * (run `--offline` from this machine's store).
 */
export function createProductionReplay(root: string) {
  const dockerfile: Dockerfile = parseDockerfile(DOCKERFILE);
  const pnpm = findPnpm();
  const store = execFileSync(pnpm, ['store', 'path'], { cwd: REPO, encoding: 'utf8' }).trim();
  const context = join(root, 'context');
  const log: string[] = [];

  /** A folder of the image's filesystem, here. `/app` is per image: the three services each have their own. */
  function hostPath(path: string, image: string): string {
    if (path === '/pnpm-store' || path.startsWith('/pnpm-store/')) return store + path.slice('/pnpm-store'.length);
    if (path === '/app' || path.startsWith('/app/')) return join(root, 'images', image, path);
    return join(root, 'fs', path);
  }

  /** Every absolute path in a shell command that names a folder of the image, mapped as `hostPath` maps it. */
  function mapCommand(command: string, image: string): string {
    const tops = ['repo', 'deploy', 'app', 'var', 'pnpm-store'].join('|');
    return command.replace(
      new RegExp(`(^|[\\s"'=])(/(?:${tops})(?:/[^\\s"';]*)?)`, 'g'),
      (_, before: string, path: string) => `${before}${hostPath(path, image)}`,
    );
  }

  interface StageState {
    image: string;
    cwd: string;
    env: Record<string, string>;
    user: string;
    cmd: string[];
  }

  function run(command: string, state: StageState) {
    const started = Date.now();
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: state.cwd,
      env: { ...process.env, ...state.env, PATH: `${dirname(pnpm)}:${process.env.PATH}` },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    log.push(`RUN ${command} (${Date.now() - started} ms)`);
    if (result.status !== 0) {
      throw new Error(`RUN ${command}\nexited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
    }
  }

  /** Whether a RUN line is one this replay stands in for, and how. */
  function adaptRun(command: string): string | null {
    if (/^npm install --global pnpm@/.test(command)) return null;
    if (/\bpnpm fetch\b/.test(command)) return `${command} --offline`;
    // The image's `node` user is the unprivileged user here.
    return command.replace(/\bnode:node\b/g, `${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`);
  }

  function copy(instruction: Instruction, state: StageState, variables: Record<string, string>) {
    const parts = expandVariables(instruction.args, variables).split(' ');
    const destination = parts.pop()!;
    const target = isAbsolute(destination) ? hostPath(destination, state.image) : join(state.cwd, destination);
    const from = instruction.flags.from;
    for (const source of parts) {
      const origin = from ? hostPath(source, state.image) : join(context, source);
      if (!existsSync(origin)) throw new Error(`COPY ${instruction.args}: ${source} does not exist`);
      // A folder's contents go into the destination; a file goes into it when it is a folder (`./`, several sources).
      const folder = statSync(origin).isDirectory();
      const into = !folder && (parts.length > 1 || destination.endsWith('/')) ? join(target, basename(source)) : target;
      if (from && folder) linkTree(origin, into);
      else cpSync(origin, into, { recursive: true });
    }
    log.push(`COPY ${instruction.args}`);
  }

  /** Replays `stages`; of those in `built` (already replayed) only what sets the state, not what writes files. */
  function replay(stages: Stage[], image: string, args: Record<string, string>, built = new Set<string>()) {
    const state: StageState = { image, cwd: root, env: {}, user: 'root', cmd: [] };
    const variables: Record<string, string> = { ...dockerfile.globalArgs, ...args };
    for (const stage of stages) {
      for (const instruction of stage.instructions) {
        const { keyword } = instruction;
        if (built.has(stage.name) && (keyword === 'COPY' || keyword === 'RUN')) continue;
        if (keyword === 'WORKDIR') {
          state.cwd = hostPath(expandVariables(instruction.args, variables), image);
          mkdirSync(state.cwd, { recursive: true });
        } else if (keyword === 'ENV') {
          for (const [key, value] of keyValues(instruction.args)) {
            const expanded = expandVariables(value, variables);
            variables[key] = expanded;
            state.env[key] = expanded.startsWith('/') ? hostPath(expanded, image) : expanded;
          }
        } else if (keyword === 'ARG') {
          const [name = '', fallback] = instruction.args.split('=', 2);
          variables[name] = args[name] ?? variables[name] ?? fallback ?? '';
          state.env[name] = variables[name]!;
        } else if (keyword === 'COPY') {
          copy(instruction, state, variables);
        } else if (keyword === 'RUN') {
          const command = adaptRun(instruction.args);
          if (command !== null) run(mapCommand(command, image), state);
        } else if (keyword === 'USER') {
          state.user = instruction.args;
        } else if (keyword === 'CMD') {
          state.cmd = JSON.parse(instruction.args) as string[];
        }
      }
    }
    return state;
  }

  return {
    dockerfile,
    log,

    /** The build context: the files `COPY . .` sends, as the repository holds them now, less .dockerignore's. */
    prepareContext() {
      const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
        cwd: REPO,
        encoding: 'utf8',
      })
        .split('\0')
        .filter((file) => file && existsSync(join(REPO, file)));
      const ignore = dockerignore().add(readFileSync(join(REPO, '.dockerignore'), 'utf8'));
      for (const file of ignore.filter(listed)) cpSync(join(REPO, file), join(context, file));
      // Readable by the unprivileged user, as an image's files are (mkdtemp makes a folder only its owner reads).
      chmodSync(root, 0o755);
    },

    /** Replays the stages up to and including `build`: dependencies, the build and each app's deploy. */
    build: () => replay(stageChain(dockerfile, 'build'), 'build', {}),

    /** The `migrate` target's own lines on the build's filesystem: its user and CMD. */
    migrateCommand: () =>
      commandOf(replay(stageChain(dockerfile, 'migrate'), 'migrate', {}, new Set(['workspace', 'build']))),

    /** The final stage for one app: its files copied from the build, its ENV, and the command its CMD runs. */
    app: (app: string, port: number) =>
      commandOf(replay(stageChain(dockerfile, 'app'), app, { APP: app, PORT: String(port) })),
  };
}

/**
 * Copies a folder's contents as hard links where `cp -l` can (GNU cp): a deployed app's node_modules holds hundreds
 * of megabytes that a copy would write again for each image, while the services only read them.
 */
function linkTree(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  const linked = spawnSync('cp', ['-al', `${from}/.`, to]);
  if (linked.status !== 0) cpSync(from, to, { recursive: true });
}

export interface ImageCommand {
  cwd: string;
  /** ENV of the image, its paths mapped. */
  env: Record<string, string>;
  user: string;
  command: string;
  args: string[];
}

function commandOf(state: { cwd: string; env: Record<string, string>; user: string; cmd: string[] }): ImageCommand {
  const [command = '', ...args] = state.cmd;
  return { cwd: state.cwd, env: state.env, user: state.user, command, args };
}

/**
 * Starts an image's command here as its container would: its working directory, its ENV and the settings given,
 * nothing else from this process's environment; as the unprivileged user when the image names one (`node`).
 */
export function startImageCommand(
  image: ImageCommand,
  settings: Record<string, string>,
  home: string,
  extraArgs: string[] = [],
): SpawnedService {
  const command = image.command === 'node' ? process.execPath : image.command;
  return spawnProcess(command, [...image.args, ...extraArgs], {
    cwd: image.cwd,
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: join(home, 'tmp'), ...image.env, ...settings },
    ...(image.user !== 'root' && UNPRIVILEGED),
  });
}
