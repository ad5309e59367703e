// One batch through the built images, run as a deployment runs them: a scratch database migrated by the migrate
// image, an API key from the API image's operator command, the three services on the host's network (its PostgreSQL
// and Redis) sharing one storage folder, each ready and passing its image's HEALTHCHECK, then a photo and a HEIC file
// uploaded with the key and a proposed name awaited for each. Everything made is removed again, whatever happens.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase } from '../../packages/db/src/databases';
import { freePort } from '../../packages/runtime/src/testing/free-port';
import { deleteRedisKeys } from '../../packages/runtime/src/testing/test-env';
import { type Engine, run, say } from './engine';

export interface Images {
  api: string;
  worker: string;
  'admin-api': string;
  migrate: string;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = [
  { path: 'fixtures/photos/kite.jpg', type: 'image/jpeg' },
  { path: 'fixtures/camera/colorful-cups.heic', type: 'image/heic' },
];
const READY_TIMEOUT_MS = 90_000;
const BATCH_TIMEOUT_MS = 180_000;
/** Where the images keep their files (the fs storage driver): the Dockerfile's STORAGE_DIR is below it. */
const STORAGE_MOUNT = '/var/lib/renamer';
/** The uid of the images' `node` user. */
const NODE_UID = 1000;

export async function runBatchCheck(engine: Engine, images: Images): Promise<void> {
  const id = randomBytes(4).toString('hex');
  const undo: (() => unknown)[] = [];
  let passed = false;
  let cleaning: Promise<void> | undefined;
  /** Once, whichever comes first: the end of the check or a signal. */
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch (error) {
          say(`clean-up: ${(error as Error).message}`);
        }
      }
    })());
  const onSignal = () => void cleanUp().finally(() => process.exit(130));
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  try {
    const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const database = `renamer_images_${id}`;
    const databaseUrl = await createDatabase(serverUrl, database);
    undo.push(() => dropDatabase(serverUrl, database));
    const prefix = `renamer-images-${id}:`;
    undo.push(() => deleteRedisKeys(redisUrl, prefix));
    const storage = mkdtempSync(join(tmpdir(), 'renamer-images-storage-'));
    undo.push(() => rmSync(storage, { recursive: true, force: true }));
    chmodSync(storage, 0o777);
    if (process.getuid?.() === 0) chownSync(storage, NODE_UID, NODE_UID);

    const oneShot = (image: string, args: string[] = []) =>
      run(engine.name, [
        ...['run', '--rm', '--no-healthcheck', '--network', 'host', ...engine.runFlags],
        ...['-e', `DATABASE_URL=${databaseUrl}`, image, ...args],
      ]);
    say(`migrating ${database} with ${images.migrate}`);
    oneShot(images.migrate);
    const key = oneShot(images.api, ['node', 'dist/commands/create-api-key.js', '--email', 'ops@example.com'])
      .trim()
      .split('\n')
      .at(-1)!;

    const [apiPort, workerPort, adminPort] = [await freePort(), await freePort(), await freePort()];
    const api = `http://127.0.0.1:${apiPort}`;
    const shared = [
      'HOST=127.0.0.1',
      `DATABASE_URL=${databaseUrl}`,
      `REDIS_URL=${redisUrl}`,
      `REDIS_PREFIX=${prefix}`,
      `SESSION_SECRET=${randomBytes(32).toString('hex')}`,
      `PUBLIC_URL=${api}`,
      'STORAGE_DRIVER=fs',
    ];
    const start = (name: string, image: string, env: string[]) => {
      const container = `renamer-images-${id}-${name}`;
      undo.push(() => {
        if (!passed) say(`${container}'s last lines:\n${logsOf(engine, container)}`);
        run(engine.name, ['rm', '--force', container]);
      });
      run(engine.name, [
        ...['run', '--detach', '--name', container, '--network', 'host', ...engine.runFlags],
        ...['--volume', `${storage}:${STORAGE_MOUNT}`, ...[...shared, ...env].flatMap((variable) => ['-e', variable])],
        image,
      ]);
      return { image, container };
    };
    // The API refuses to start in production without an identity provider; this one is never called here.
    const services = [
      start('api', images.api, [`API_PORT=${apiPort}`, `HEALTH_PORT=${apiPort}`, 'OIDC_ISSUER=https://localhost:1']),
      start('worker', images.worker, [`WORKER_PORT=${workerPort}`, `HEALTH_PORT=${workerPort}`]),
      start('admin-api', images['admin-api'], [
        `ADMIN_API_PORT=${adminPort}`,
        `HEALTH_PORT=${adminPort}`,
        `METRICS_TARGETS=api=${api}/metrics,worker=http://127.0.0.1:${workerPort}/metrics`,
      ]),
    ];
    await Promise.all([apiPort, workerPort, adminPort].map((port) => waitReady(`http://127.0.0.1:${port}`)));
    say(`api (${apiPort}), worker (${workerPort}) and admin-api (${adminPort}) are ready`);
    for (const service of services) await checkHealthcheck(engine, service.image, service.container);

    const headers = { authorization: `Bearer ${key}` };
    const form = new FormData();
    for (const fixture of FIXTURES) {
      form.append(
        'files',
        await openAsBlob(join(repoRoot, fixture.path), { type: fixture.type }),
        basename(fixture.path),
      );
    }
    const upload = await json<{ batchId: string; accepted: unknown[]; rejected: unknown[] }>(`${api}/api/batch`, {
      method: 'POST',
      headers,
      body: form,
    });
    if (upload.accepted.length !== FIXTURES.length) throw new Error(`upload refused: ${JSON.stringify(upload)}`);
    say(`batch ${upload.batchId} uploaded; waiting for it`);
    const startedAt = performance.now();
    let status = '';
    while (performance.now() - startedAt < BATCH_TIMEOUT_MS) {
      ({ status } = await json<{ status: string }>(`${api}/api/batch/${upload.batchId}/status`, { headers }));
      if (status !== 'queued' && status !== 'processing') break;
      await sleep(1000);
    }
    if (status !== 'completed') {
      throw new Error(
        `batch ${upload.batchId} is ${status}, not completed (waited up to ${BATCH_TIMEOUT_MS / 1000} s)`,
      );
    }
    const { items } = await json<{ items: { originalFilename: string; proposedFilename: string | null }[] }>(
      `${api}/api/image/batch/${upload.batchId}`,
      { headers },
    );
    const named = items.filter((image) => image.proposedFilename);
    process.stdout.write(
      `Batch ${upload.batchId} completed in ${((performance.now() - startedAt) / 1000).toFixed(1)} s:\n` +
        items.map((image) => `  ${image.originalFilename} → ${image.proposedFilename ?? '(no name)'}\n`).join(''),
    );
    if (items.length !== FIXTURES.length || named.length !== items.length) {
      throw new Error('not every image of the batch got a proposed filename');
    }
    passed = true;
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${body.slice(0, 500)}`);
  return JSON.parse(body) as T;
}

async function waitReady(base: string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`${base}/health/ready`);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(500);
  }
  throw new Error(`${base}/health/ready: ${last}`);
}

/** The image keeps its HEALTHCHECK, and the check passes against the running container. */
async function checkHealthcheck(engine: Engine, image: string, container: string): Promise<void> {
  const format = engine.name === 'podman' ? '{{json .HealthCheck}}' : '{{json .Config.Healthcheck}}';
  const config = run(engine.name, ['image', 'inspect', '--format', format, image]).trim();
  if (!config || config === 'null')
    throw new Error(`${image} has no HEALTHCHECK (podman keeps it with --format docker)`);
  if (engine.name === 'podman') {
    run('podman', ['healthcheck', 'run', container]); // exits 1 when unhealthy
  } else {
    // docker runs the check itself, the first time one interval after the start.
    const deadline = performance.now() + 60_000;
    let health = '';
    while (health !== 'healthy' && performance.now() < deadline) {
      await sleep(1000);
      health = run('docker', ['inspect', '--format', '{{.State.Health.Status}}', container]).trim();
    }
    if (health !== 'healthy') throw new Error(`${container} is ${health}`);
  }
  say(`${image}'s HEALTHCHECK passes`);
}

function logsOf(engine: Engine, container: string): string {
  const { stdout, stderr } = spawnSync(engine.name, ['logs', '--tail', '40', container], { encoding: 'utf8' });
  return `${stdout ?? ''}${stderr ?? ''}`.trimEnd();
}
