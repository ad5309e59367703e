// `npm start` and `npm run db:migrate`, run by scripts/bootstrap.mjs: PostgreSQL and Redis found or started, the
// migrations applied, then (start) the services side by side until Ctrl-C or until one of them stops.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import closeWithGrace from 'close-with-grace';
import { type ConcurrentlyResult, concurrently } from 'concurrently';
import waitOn from 'wait-on';
import { createDatabase } from '../../packages/db/src/databases';
import { migrateDatabase } from '../../packages/db/src/migrate';
import { fleetSize, instancesOf, metricsTargets, portVariable } from './instances';
import { findPostgres } from './postgres';
import { findRedis } from './redis';
import { elapsedSince, redactUrl, say } from './say';
import { buildWebIfChanged } from './web-build';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** What was found or started for the services, stopped after them. */
const started: { stop?: () => Promise<unknown> }[] = [];
let services: ConcurrentlyResult | undefined;
let stopping = false;
let failure: Error | undefined;

// A Ctrl-C reaches this process once (the bootstrap passes it on) and concurrently passes it on to each service;
// once they have all exited, the PostgreSQL and Redis started for them stop.
const shutdown = closeWithGrace(
  {
    delay: false,
    logger: { error: (error) => say(error instanceof Error ? error.message : String(error)) },
    // close-with-grace exits before concurrently would pass a second Ctrl-C on: pass it on here, so that the
    // services exit at once too.
    onSecondSignal: (signal) => {
      for (const { pid, process: running } of services?.commands ?? []) if (running && pid) process.kill(pid, signal);
    },
  },
  async ({ signal, err }) => {
    stopping = true;
    if (signal) say(`${signal}: stopping…`);
    else for (const command of services?.commands ?? []) command.kill();
    await services?.result.catch(() => undefined);
    await Promise.all(started.map((server) => server.stop?.()));
    // close-with-grace prints what is thrown here and exits with 1.
    if (err ?? failure) throw err ?? failure;
  },
);

function stopEverything(reason: Error): void {
  if (stopping) return;
  failure = reason;
  shutdown.close();
}

async function main(mode: string, args: string[]): Promise<void> {
  const size = fleetSize(args);
  const [database, redis] = await Promise.all([findPostgres('long-lived'), mode === 'start' ? findRedis() : undefined]);
  started.push(database, ...(redis ? [redis] : []));
  say(`PostgreSQL: ${database.description}`);
  if (redis) say(`Redis: ${redis.description}`);
  const url = database.configuredUrl ?? (await createDatabase(database.serverUrl, 'renamer'));
  const startedAt = performance.now();
  await migrateDatabase(url);
  say(`migrations applied to ${database.configuredUrl ? 'DATABASE_URL' : 'renamer'} in ${elapsedSince(startedAt)}`);
  if (!redis) return shutdown.close();
  if (stopping) return;

  const env = process.env;
  // WEB_DIST_DIR set empty: the API serves no web app, so there is none to build.
  if (env.WEB_DIST_DIR !== '') {
    const webStartedAt = performance.now();
    const web = await buildWebIfChanged(resolve(repoRoot, 'apps/web'));
    say(web === 'built' ? `web app built in ${elapsedSince(webStartedAt)}` : 'web app: the last build is current');
  }
  if (stopping) return;
  const [devIdp] = !env.OIDC_ISSUER && env.NODE_ENV !== 'production' ? instancesOf('dev-idp', 1) : [];
  const apis = instancesOf('api', size.apis);
  const workers = instancesOf('worker', size.workers);
  const [adminApi] = instancesOf('admin-api', 1);
  const running = [...(devIdp ? [devIdp] : []), ...apis, ...workers, adminApi!];
  const serviceEnv = {
    ...Object.fromEntries(
      running
        .filter((instance) => instance.name === instance.app)
        .map((instance) => [portVariable(instance.app), instance.port]),
    ),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${apis[0]!.port}`,
    ADMIN_API_URL: env.ADMIN_API_URL ?? `http://127.0.0.1:${adminApi!.port}`,
    ...(devIdp && { OIDC_ISSUER: `http://localhost:${devIdp.port}` }),
    // Every API instance serves the web app, whose socket comes from the instance's own origin.
    ...(size.fleet && { WS_ALLOWED_ORIGINS: apis.map((api) => `http://localhost:${api.port}`).join(',') }),
    // The processes started, on the ports they were given: the admin dashboard's Health page reads their metrics.
    METRICS_TARGETS: metricsTargets(running),
    DATABASE_URL: url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: env.REDIS_PREFIX ?? 'renamer:',
    STORAGE_DRIVER: env.STORAGE_DRIVER ?? 'fs',
    // Absolute, so every service sees the same directory whatever its working directory.
    STORAGE_DIR: resolve(repoRoot, env.STORAGE_DIR ?? '.data/objects'),
  };
  if (serviceEnv.STORAGE_DRIVER === 'fs') await mkdir(serviceEnv.STORAGE_DIR, { recursive: true });
  services = concurrently(
    running.map((instance) => ({
      name: instance.name,
      env: { ...serviceEnv, [portVariable(instance.app)]: instance.port },
      // exec: the shell gives way to node, so that signals reach the service itself.
      // The telemetry hook first: it starts tracing before anything it traces loads (and does nothing unconfigured).
      command: `exec "${process.execPath}" --import ./packages/telemetry/src/register.mjs --import tsx apps/${instance.app}/src/server.ts`,
    })),
    // raw: each service writes to this terminal itself (its logger names the service on every line), rather
    // than through this process reading and prefixing every line. In a fleet a process that fails is started
    // again after 1 s, 2 s, 4 s… as an orchestrator would (a service that stops cleanly exits 0 and stays stopped).
    { cwd: repoRoot, raw: true, ...(size.fleet && { restartTries: -1, restartDelay: 'exponential' as const }) },
  );
  // Not concurrently's killOthersOn: during a Ctrl-C it would signal the services still closing a second time.
  for (const command of services.commands) {
    // In a fleet concurrently restarts a process that failed, and `close` comes only once one exits cleanly.
    let exited = false;
    command.stateChange.subscribe((state) => {
      if (!size.fleet || stopping) return;
      if (state === 'exited') say(`${command.name} exited`);
      if (state === 'started' && exited) say(`${command.name} started again`);
      exited ||= state === 'exited';
    });
    command.close.subscribe(({ exitCode }) => {
      if (size.fleet && !stopping) return;
      stopEverything(new Error(`${command.name} exited with code ${exitCode}: stopping everything`));
    });
  }

  const resources = running.map((instance) => `http-get://127.0.0.1:${instance.port}/health/ready`);
  await waitOn({ resources, timeout: 30_000 }).catch(() => {
    if (!stopping) say('still waiting for every service to answer /health/ready');
    return waitOn({ resources });
  });
  if (stopping) return;
  say('Renamer is running:');
  say(`  web        ${serviceEnv.PUBLIC_URL}/`);
  for (const instance of running)
    say(`  ${instance.name.padEnd(10)} http://localhost:${instance.port}${instance.path}`);
  const storage = serviceEnv.STORAGE_DRIVER === 's3' ? `S3 ${env.S3_ENDPOINT}` : serviceEnv.STORAGE_DIR;
  say(`  objects in ${storage}; Redis keys under ${serviceEnv.REDIS_PREFIX} on ${redactUrl(redis.url)}`);
  if (devIdp) {
    say(`  sign in at ${serviceEnv.PUBLIC_URL}/api/auth/login (development sign-in: any email and name)`);
  }
  say('Ctrl-C stops everything.');
}

main(process.argv[2] ?? 'start', process.argv.slice(3)).catch(stopEverything);
