// `npm run build:images`: every image of infra/docker/Dockerfile built with podman (docker where podman is missing),
// then one batch run through them (batch-check.ts), and how long the build took.
//
//   npm run build:images                           on a base made from Debian's archive (debian-base.ts), made once
//                                                  and kept; the default while NODE_IMAGE is unset (--debian-base)
//   NODE_IMAGE=node:20-slim npm run build:images   on another base: any image with Node ≥ 20.9, npm and a `node` user
//   npm run build:images -- --rebuild-base         makes Debian's base again
//   npm run build:images -- --no-batch             builds only
//   npm run build:images -- --prune                then removes the dangling images earlier builds of this file left
//                                                  (3–4 GB each); with CI=true it always does
//   IMAGE_TAG (default local) tags the images; CONTAINER_ENGINE=podman|docker chooses the engine. Build logs go to
//   .data/images/<image>.log.
//
// The images are built from one copy of the work tree, so all four come from the same sources and share the stages
// they have in common (the workspace and its build) even while files change under the build.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Images, runBatchCheck } from './batch-check';
import { ensureDebianBase } from './debian-base';
import { type Engine, pickEngine, run, say } from './engine';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const DOCKERFILE = 'infra/docker/Dockerfile';
/** The Dockerfile's images: each service is its final stage with APP and PORT, the migrate job its own target. */
const IMAGES: Record<keyof Images, string[]> = {
  api: ['--build-arg', 'APP=api', '--build-arg', 'PORT=3000'],
  worker: ['--build-arg', 'APP=worker', '--build-arg', 'PORT=3003'],
  'admin-api': ['--build-arg', 'APP=admin-api', '--build-arg', 'PORT=3001'],
  migrate: ['--target', 'migrate'],
};

const seconds = (since: number) => (performance.now() - since) / 1000;
const duration = (total: number) => `${Math.floor(total / 60)} min ${Math.round(total % 60)} s`;

/** A copy of the work tree to build from (its .dockerignore still applies). */
function snapshotContext(): string {
  const context = mkdtempSync(join(tmpdir(), 'renamer-images-context-'));
  const copy = 'tar -C "$1" --exclude=./.git --exclude=node_modules --exclude=./.data -cf - . | tar -C "$2" -xf -';
  run('bash', ['-o', 'pipefail', '-c', copy, 'copy', repoRoot, context]);
  return context;
}

function build(engine: Engine, context: string, base: string, name: keyof Images, tag: string): void {
  const logFile = join(repoRoot, '.data', 'images', `${name}.log`);
  mkdirSync(join(logFile, '..'), { recursive: true });
  const log = openSync(logFile, 'w');
  const startedAt = performance.now();
  const result = spawnSync(
    engine.name,
    [
      ...['build', ...engine.buildFlags, '--file', join(context, DOCKERFILE)],
      ...['--build-arg', `NODE_IMAGE=${base}`, ...IMAGES[name], '--tag', tag, context],
    ],
    { stdio: ['ignore', log, log], env: { ...process.env, DOCKER_BUILDKIT: '1' } },
  );
  closeSync(log);
  if (result.status !== 0) {
    const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-40).join('\n');
    throw new Error(`building ${tag} failed (whole log: ${logFile}):\n${tail}`);
  }
  say(`built ${tag} in ${duration(seconds(startedAt))} (log: ${logFile})`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'debian-base': { type: 'boolean', default: false },
      'rebuild-base': { type: 'boolean', default: false },
      'no-batch': { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false },
    },
  });
  const engine = pickEngine();
  const fromRegistry = process.env.NODE_IMAGE && !values['debian-base'] && !values['rebuild-base'];
  const base = fromRegistry ? process.env.NODE_IMAGE! : ensureDebianBase(engine, { rebuild: values['rebuild-base'] });
  const tags = {} as Images;
  for (const name of Object.keys(IMAGES) as (keyof Images)[]) {
    tags[name] = `renamer-${name}:${process.env.IMAGE_TAG ?? 'local'}`;
  }
  const list = Object.values(tags).join(', ');
  say(`building ${list} with ${engine.name} on ${base}`);

  const startedAt = performance.now();
  const context = snapshotContext();
  try {
    for (const [name, tag] of Object.entries(tags)) build(engine, context, base, name as keyof Images, tag);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  const buildSeconds = seconds(startedAt);
  say(`built ${list} in ${duration(buildSeconds)}`);
  // Only this Dockerfile's superseded images go (its LABEL): those just built, the stages they share and every
  // other image on the machine are kept.
  if (values.prune || process.env.CI === 'true') {
    run(engine.name, ['image', 'prune', '--force', '--filter', 'label=dev.renamer.build=renamer']);
  }

  if (!values['no-batch']) {
    await runBatchCheck(engine, tags);
  }
  process.stdout.write(
    `Images ${list} built in ${duration(buildSeconds)} ` +
      `(${engine.name}, base ${base})${values['no-batch'] ? '' : '; one batch ran through them'}.\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`[build-images] failed: ${error.message}\n`);
  process.exit(1);
});
