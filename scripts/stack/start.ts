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
import { findPostgres } from './postgres';
import { findRedis } from './redis';
import { elapsedSince, redactUrl, say } from './say';
import { buildWebIfChanged } from './web-build';

/** A service of `apps/<name>/src/server.ts`, listening on `<NAME>_PORT`; `path` is what to open once it runs. */
type Service = { name: string; port: number; path: string };
const DEV_IDP: Service = { name: 'dev-idp', port: 3002, path: '/.well-known/openid-configuration' };
const API: Service = { name: 'api', port: 3000, path: '/' };
const ADMIN_API: Service = { name: 'admin-api', port: 3001, path: '/' };
const SERVICES: Service[] = [API, { name: 'worker', port: 3003, path: '/metrics' }, ADMIN_API];
const portVariable = (service: Service) => `${service.name.toUpperCase().replace('-', '_')}_PORT`;
const portOf = (service: Service) => process.env[portVariable(service)] ?? String(service.port);
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

async function main(mode: string): Promise<void> {
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
  const webStartedAt = performance.now();
  const web = await buildWebIfChanged(resolve(repoRoot, 'apps/web'));
  say(web === 'built' ? `web app built in ${elapsedSince(webStartedAt)}` : 'web app: the last build is current');
  if (stopping) return;
  const running = !env.OIDC_ISSUER && env.NODE_ENV !== 'production' ? [DEV_IDP, ...SERVICES] : SERVICES;
  const serviceEnv = {
    ...Object.fromEntries(running.map((service) => [portVariable(service), portOf(service)])),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${portOf(API)}`,
    ADMIN_API_URL: env.ADMIN_API_URL ?? `http://127.0.0.1:${portOf(ADMIN_API)}`,
    ...(running.includes(DEV_IDP) && { OIDC_ISSUER: `http://localhost:${portOf(DEV_IDP)}` }),
    DATABASE_URL: url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: env.REDIS_PREFIX ?? 'renamer:',
    STORAGE_DRIVER: env.STORAGE_DRIVER ?? 'fs',
    // Absolute, so every service sees the same directory whatever its working directory.
    STORAGE_DIR: resolve(repoRoot, env.STORAGE_DIR ?? '.data/objects'),
  };
  if (serviceEnv.STORAGE_DRIVER === 'fs') await mkdir(serviceEnv.STORAGE_DIR, { recursive: true });
  services = concurrently(
    running.map((service) => ({
      name: service.name,
      env: serviceEnv,
      // exec: the shell gives way to node, so that signals reach the service itself.
      // The telemetry hook first: it starts tracing before anything it traces loads (and does nothing unconfigured).
      command: `exec "${process.execPath}" --import ./packages/telemetry/src/register.mjs --import tsx apps/${service.name}/src/server.ts`,
    })),
    // raw: each service writes to this terminal itself (its logger names the service on every line), rather
    // than through this process reading and prefixing every line.
    { cwd: repoRoot, raw: true },
  );
  // Not concurrently's killOthersOn: during a Ctrl-C it would signal the services still closing a second time.
  for (const command of services.commands) {
    command.close.subscribe(({ exitCode }) =>
      stopEverything(new Error(`${command.name} exited with code ${exitCode}: stopping everything`)),
    );
  }

  const resources = running.map((service) => `http-get://127.0.0.1:${portOf(service)}/health/ready`);
  await waitOn({ resources, timeout: 30_000 }).catch(() => {
    if (!stopping) say('still waiting for every service to answer /health/ready');
    return waitOn({ resources });
  });
  if (stopping) return;
  say('Renamer is running:');
  say(`  web        ${serviceEnv.PUBLIC_URL}/`);
  for (const service of running) say(`  ${service.name.padEnd(10)} http://localhost:${portOf(service)}${service.path}`);
  const storage = serviceEnv.STORAGE_DRIVER === 's3' ? `S3 ${env.S3_ENDPOINT}` : serviceEnv.STORAGE_DIR;
  say(`  objects in ${storage}; Redis keys under ${serviceEnv.REDIS_PREFIX} on ${redactUrl(redis.url)}`);
  if (running.includes(DEV_IDP)) {
    say(`  sign in at ${serviceEnv.PUBLIC_URL}/api/auth/login (development sign-in: any email and name)`);
  }
  say('Ctrl-C stops everything.');
}

main(process.argv[2] ?? 'start').catch(stopEverything);
