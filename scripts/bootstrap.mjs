// The entry of `npm start`, `npm test` and `npm run db:migrate`. Plain Node with no dependencies, because it is
// what installs them: it finds (or installs) pnpm, installs the workspace when needed, then hands over to the
// TypeScript in scripts/stack/ that brings up PostgreSQL and Redis and runs the mode.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modes = ['start', 'test', 'migrate'];
const PNPM_MAJOR = 12;
const installStamp = join(root, 'node_modules', '.renamer-install-stamp');

function fail(message) {
  process.stderr.write(`\n${message}\n`);
  process.exit(1);
}

function note(message) {
  process.stderr.write(`renamer: ${message}\n`);
}

/** Files whose change calls for a new install: the lockfile, the workspace file and every project's package.json. */
function installInputs() {
  const lockfile = join(root, 'pnpm-lock.yaml');
  const importers =
    readFileSync(lockfile, 'utf8')
      .split(/\nimporters:\n/)[1]
      ?.split(/\n(?=\S)/)[0] ?? '';
  const projects = [...importers.matchAll(/^ {2}(\S[^:]*):$/gm)].map((match) => match[1]);
  return [lockfile, join(root, 'pnpm-workspace.yaml'), ...projects.map((dir) => join(root, dir, 'package.json'))];
}

function installIsCurrent() {
  const stamp = statSync(installStamp, { throwIfNoEntry: false });
  return (
    !!stamp &&
    installInputs().every((file) => (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= stamp.mtimeMs)
  );
}

function majorVersion(pnpm) {
  const result = spawnSync(pnpm, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? Number.parseInt(result.stdout, 10) : 0;
}

function pnpmOnPath() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = dir && join(dir, 'pnpm');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    // Older majors read the lockfile but not the build approvals in pnpm-workspace.yaml.
    if (majorVersion(candidate) >= PNPM_MAJOR) return candidate;
  }
  return undefined;
}

/** pnpm from PATH, else one installed into .data/tools (no global write, so no root needed). */
function findPnpm() {
  const onPath = pnpmOnPath();
  if (onPath) return onPath;
  const tools = join(root, '.data', 'tools');
  const privatePnpm = join(tools, 'node_modules', '.bin', 'pnpm');
  if (existsSync(privatePnpm)) return privatePnpm;
  note(`installing pnpm ${PNPM_MAJOR} into .data/tools`);
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
  note('installing dependencies (pnpm install --frozen-lockfile)');
  const result = spawnSync(pnpm, ['install', '--frozen-lockfile'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    fail(
      'Installing dependencies failed (pnpm install --frozen-lockfile): see the output above.\n' +
        'If it says the lockfile is out of date, a package.json changed without pnpm-lock.yaml: run `pnpm install` and commit the lockfile.',
    );
  }
  writeFileSync(installStamp, `${new Date().toISOString()}\n`);
}

const [mode, ...args] = process.argv.slice(2);
if (!modes.includes(mode)) fail(`usage: node scripts/bootstrap.mjs ${modes.join('|')} [args…]`);
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number);
if (nodeMajor < 20 || (nodeMajor === 20 && nodeMinor < 9))
  fail(`Renamer needs Node.js 20.9 or newer; this is ${process.version}.`);

installDependencies();
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('./stack/main.ts');
process.exit(await main(mode, args));
