// The entry of `npm start`, `npm test`, `npm run db:migrate` and (for CI) `install`. Plain Node with no
// dependencies, because it is what installs them: it finds (or installs) pnpm, installs the workspace when
// needed, then hands over to vitest (test) or to scripts/stack/start.ts (start, migrate).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modes = ['start', 'test', 'migrate', 'install'];
// Older majors read the lockfile but not the build approvals in pnpm-workspace.yaml.
const PNPM_MAJOR = 12;
const installStamp = join(root, 'node_modules', '.renamer-install-stamp');

function fail(message) {
  process.stderr.write(`\n${message}\n`);
  process.exit(1);
}

/**
 * The workspace's projects, from the `packages:` list of pnpm-workspace.yaml (read by hand: nothing is installed
 * yet); its entries are folders (`e2e`) or folders of projects (`apps/*`).
 */
function workspaceProjects() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = /^packages:\n((?:[ \t]+-.*\n?)*)/m.exec(yaml)?.[1] ?? '';
  const globs = [...list.matchAll(/-\s*["']?([^"'\s#]+)/g)].map((match) => match[1]);
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const dir = glob.slice(0, -2);
    return readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  });
}

/** Whether the last install is newer than the lockfile, the workspace file and every project's package.json. */
function installIsCurrent() {
  const projects = workspaceProjects();
  const inputs = ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', ...projects.map((p) => `${p}/package.json`)];
  const installedAt = statSync(installStamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return inputs.every((file) => (statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0) <= installedAt);
}

/** pnpm from PATH, else one installed into .data/tools (no global write, so no root needed). */
function findPnpm() {
  if (Number.parseInt(spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).stdout, 10) >= PNPM_MAJOR) return 'pnpm';
  const tools = join(root, '.data', 'tools');
  const privatePnpm = join(tools, 'node_modules', '.bin', 'pnpm');
  if (existsSync(privatePnpm)) return privatePnpm;
  process.stderr.write(`renamer: installing pnpm ${PNPM_MAJOR} into .data/tools\n`);
  // Run the npm that runs us when there is one (npm_execpath), so a PATH without npm still works.
  const npm = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const args = ['install', '--prefix', tools, '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${PNPM_MAJOR}`];
  const result = spawnSync(npm[0], [...npm.slice(1), ...args], { stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(privatePnpm)) {
    fail(
      `Could not install pnpm (npm ${args.join(' ')} failed). Install it yourself: npm install -g pnpm@${PNPM_MAJOR}`,
    );
  }
  return privatePnpm;
}

function installDependencies() {
  if (installIsCurrent()) return;
  const pnpm = findPnpm();
  process.stderr.write('renamer: installing dependencies (pnpm install --frozen-lockfile)\n');
  const result = spawnSync(pnpm, ['install', '--frozen-lockfile'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    fail(
      'Installing dependencies failed (pnpm install --frozen-lockfile): see the output above.\n' +
        'If it says the lockfile is out of date, a package.json changed without pnpm-lock.yaml: run `pnpm install` and commit the lockfile.',
    );
  }
  writeFileSync(installStamp, `${new Date().toISOString()}\n`);
}

/**
 * Runs node with `args` in a process group of its own, so a Ctrl-C reaches it once, through this process (the
 * services treat a second signal as "exit now"); then ends whatever it left in that group and exits as it did.
 */
function runDetached(args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', detached: true });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Nothing was left.
    }
    process.exit(code ?? 128 + constants.signals[signal]);
  });
}

/** The newest modification time under a folder (0 when it is missing). */
function newestUnder(dir) {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(dir).map((name) => newestUnder(join(dir, name))));
}

/**
 * The CLI's one-file bundle (apps/cli/dist/renamer.js), built when its sources or the contracts changed, so that
 * `node apps/cli/dist/renamer.js` works after `npm start` or `npm test` (about half a second).
 */
function buildCliIfChanged() {
  const cli = join(root, 'apps', 'cli');
  const built = statSync(join(cli, 'dist', 'renamer.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(newestUnder(join(cli, 'src')), newestUnder(join(root, 'packages', 'contracts', 'src')));
  if (built > sources) return;
  const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const result = spawnSync(process.execPath, [tsup, '--silent'], { cwd: cli, stdio: 'inherit' });
  if (result.status !== 0) fail('Building the CLI (tsup in apps/cli) failed: see the output above.');
}

const [mode, ...args] = process.argv.slice(2);
if (!modes.includes(mode)) fail(`usage: node scripts/bootstrap.mjs ${modes.join('|')} [args…]`);
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number);
if (nodeMajor < 20 || (nodeMajor === 20 && nodeMinor < 9)) {
  fail(`Renamer needs Node.js 20.9 or newer; this is ${process.version}.`);
}
installDependencies();
if (mode !== 'migrate') buildCliIfChanged();
// For tests, vitest.global-setup.ts finds PostgreSQL and Redis.
const vitest = [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...args];
if (mode !== 'install')
  runDetached(mode === 'test' ? vitest : ['--import', 'tsx', 'scripts/stack/start.ts', mode, ...args]);
