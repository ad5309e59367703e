import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { type SpawnedService, spawnProcess } from '@renamer/runtime/testing';
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

/** The pnpm that `npm test` installed or found (scripts/bootstrap.mjs), as an absolute path. */
function findPnpm(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v pnpm && pnpm --version'], { encoding: 'utf8' });
  const [path = '', version = ''] = onPath.stdout.trim().split('\n');
  if (onPath.status === 0 && Number.parseInt(version, 10) >= 12) return path;
  return join(REPO, '.data/tools/node_modules/.bin/pnpm');
}

/** A container's PATH, with this machine's node (and pnpm) first: nothing of the tests' own PATH. */
const containerPath = (...tools: string[]) =>
  [...new Set([process.execPath, ...tools].map((tool) => dirname(tool)))].join(':') +
  ':/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The top folders of the image that the Dockerfile names; each is mapped to a folder of the replay. */
const IMAGE_FOLDERS = ['repo', 'deploy', 'app', 'var', 'pnpm-store'];
const IMAGE_PATH = new RegExp(`(^|[\\s"'=])(/(?:${IMAGE_FOLDERS.join('|')})(?:/[^\\s"';]*)?)(?=[\\s"';]|$)`, 'g');
/** Instructions that shape only the running container, which the replay starts by other means. */
const CONTAINER_ONLY = new Set(['EXPOSE', 'HEALTHCHECK', 'LABEL']);
/** The longest one RUN line may take before the replay gives up on it. */
const RUN_TIMEOUT_MS = 240_000;

interface StageState {
  image: string;
  cwd: string;
  /** ARG and ENV: what RUN lines see. */
  buildEnv: Record<string, string>;
  /** ENV alone: what the container's process sees. */
  env: Record<string, string>;
  user: string;
  cmd: string[];
}

/**
 * The Dockerfile's build replayed outside a container, under `root`: each stage's WORKDIR, COPY, ENV, USER and RUN
 * as the builder would run them, every path of the image mapped into `root` (the pnpm store cache into this
 * machine's store), with nothing of the tests' environment. What it cannot replay is named where it is adapted: the
 * global pnpm install (this machine's pnpm is used), a network `pnpm fetch` (run `--offline` from this machine's
 * store), and system packages (this machine must already have what such a line installs). Any other instruction
 * or flag it does not know stops it, rather than passing over what the image would do.
 */
export function createProductionReplay(root: string) {
  const dockerfile: Dockerfile = parseDockerfile(DOCKERFILE);
  const pnpm = findPnpm();
  const store = execFileSync(pnpm, ['store', 'path'], { cwd: REPO, encoding: 'utf8' }).trim();
  // pnpm checks the lockfile against the registry's metadata even offline; its cache of both is this machine's, as
  // the build's cache mount is the image's. A check that must reach the registry trusts what this machine trusts.
  const pnpmMachine = {
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    ...(process.env.NODE_EXTRA_CA_CERTS && { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }),
  };
  const context = join(root, 'context');
  const home = join(root, 'build-home');
  mkdirSync(home, { recursive: true });
  /** What the folder held when `pnpm fetch` ran in it. */
  let fetchedFrom: string[] = [];

  /**
   * A path of the image's filesystem, here. `/app` is each image's own; the rest is shared, `/var/lib/renamer`
   * among it, as the volume an operator mounts there for the fs storage driver is.
   */
  function hostPath(path: string, image: string): string {
    if (path === '/pnpm-store' || path.startsWith('/pnpm-store/')) return store + path.slice('/pnpm-store'.length);
    if (path === '/app' || path.startsWith('/app/')) return join(root, 'images', image, path);
    return join(root, 'fs', path);
  }

  const mapCommand = (command: string, image: string) =>
    command.replace(IMAGE_PATH, (_, before: string, path: string) => `${before}${hostPath(path, image)}`);

  function run(command: string, state: StageState) {
    if (/\bpnpm fetch\b/.test(command)) fetchedFrom = readdirSync(state.cwd).sort();
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: state.cwd,
      env: { PATH: containerPath(pnpm), HOME: home, ...pnpmMachine, ...state.buildEnv },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: RUN_TIMEOUT_MS,
      ...(state.user !== 'root' && UNPRIVILEGED),
    });
    if (result.status !== 0) {
      const why = result.error ? String(result.error) : `exited with ${result.status}`;
      throw new Error(`RUN ${command}\n${why}:\n${result.stdout}\n${result.stderr}`);
    }
  }

  /** The line as the replay runs it, or null when it stands in for it (after checking what it can). */
  function adaptRun(command: string, state: StageState): string | null {
    if (/^npm install --global pnpm@/.test(command)) return null;
    if (/\bpnpm fetch\b/.test(command)) return `${command} --offline`;
    if (/\bapt-get\b/.test(command)) {
      // `check || install`: the replay runs the check; the install would change this machine.
      const [check = '', install] = command.split('||');
      if (install === undefined) throw new Error(`RUN ${command}: the replay cannot install system packages here`);
      run(check.trim(), state);
      return null;
    }
    // The image's `node` user is the unprivileged user here.
    return command.replace(/\bnode:node\b/g, `${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`);
  }

  function copy(instruction: Instruction, state: StageState, variables: Record<string, string>) {
    const { from, ...others } = instruction.flags;
    if (Object.keys(others).length > 0) throw new Error(`COPY ${instruction.args}: the replay knows only --from`);
    const parts = expandVariables(instruction.args, variables).split(' ');
    const destination = parts.pop()!;
    const target = isAbsolute(destination) ? hostPath(destination, state.image) : join(state.cwd, destination);
    for (const source of parts) {
      const origin = from ? hostPath(source, state.image) : join(context, source);
      if (!existsSync(origin)) throw new Error(`COPY ${instruction.args}: ${source} does not exist`);
      // A folder's contents go into the destination; a file goes into it when it is a folder.
      const folder = statSync(origin).isDirectory();
      const intoFolder =
        !folder &&
        (parts.length > 1 || destination.endsWith('/') || (existsSync(target) && statSync(target).isDirectory()));
      const into = intoFolder ? join(target, basename(source)) : target;
      if (from && folder) linkTree(origin, into);
      else cpSync(origin, into, { recursive: true });
    }
  }

  /** Replays `stages`; of those in `built` (already replayed) only what sets the state, not what writes files. */
  function replay(stages: Stage[], image: string, args: Record<string, string>, built = new Set<string>()) {
    const state: StageState = { image, cwd: hostPath('/', image), buildEnv: {}, env: {}, user: 'root', cmd: [] };
    for (const stage of stages) {
      // A stage sees a global ARG only once it declares it again, as the builder does.
      const variables: Record<string, string> = {};
      for (const instruction of stage.instructions) {
        const { keyword } = instruction;
        if (built.has(stage.name) && (keyword === 'COPY' || keyword === 'RUN')) continue;
        if (keyword === 'WORKDIR') {
          const path = expandVariables(instruction.args, variables);
          state.cwd = isAbsolute(path) ? hostPath(path, image) : join(state.cwd, path);
          mkdirSync(state.cwd, { recursive: true });
        } else if (keyword === 'ENV') {
          for (const [key, value] of keyValues(instruction.args)) {
            const expanded = expandVariables(value, variables);
            variables[key] = expanded;
            state.env[key] = expanded.startsWith('/') ? hostPath(expanded, image) : expanded;
            state.buildEnv[key] = state.env[key]!;
          }
        } else if (keyword === 'ARG') {
          const [name, fallback] = splitOnce(instruction.args, '=');
          variables[name] = args[name] ?? dockerfile.globalArgs[name] ?? fallback ?? '';
          state.buildEnv[name] = variables[name]!;
        } else if (keyword === 'COPY') {
          copy(instruction, state, variables);
        } else if (keyword === 'RUN') {
          const command = adaptRun(instruction.args, state);
          if (command !== null) run(mapCommand(command, image), state);
        } else if (keyword === 'USER') {
          state.user = instruction.args;
        } else if (keyword === 'CMD') {
          if (!instruction.args.startsWith('[')) throw new Error(`CMD ${instruction.args}: the replay runs exec form`);
          state.cmd = JSON.parse(instruction.args) as string[];
        } else if (!CONTAINER_ONLY.has(keyword)) {
          throw new Error(`${keyword} ${instruction.args}: the replay does not know this instruction`);
        }
      }
    }
    return state;
  }

  return {
    /** The files of the folder `pnpm fetch` ran in, when it ran. */
    fetchedFrom: () => fetchedFrom,

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

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/**
 * Copies a folder's contents, as hard links where `cp -l` can (GNU cp) and the tests run as root: a deployed app's
 * node_modules holds hundreds of megabytes that a copy would write again for each image, and the services, run as
 * `nobody`, cannot change files root owns. A test run as its own user copies, so no service can write into the
 * store the links would share.
 */
function linkTree(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  const linked = process.getuid?.() === 0 && spawnSync('cp', ['-al', `${from}/.`, to]).status === 0;
  if (!linked) cpSync(from, to, { recursive: true });
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
export function startImageCommand(image: ImageCommand, settings: Record<string, string>, home: string): SpawnedService {
  const command = image.command === 'node' ? process.execPath : image.command;
  return spawnProcess(command, image.args, {
    cwd: image.cwd,
    env: { PATH: containerPath(), HOME: home, TMPDIR: join(home, 'tmp'), ...image.env, ...settings },
    ...(image.user !== 'root' && UNPRIVILEGED),
  });
}
