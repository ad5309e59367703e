import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { appDatabase } from './app-database';
import { type Child, spawnChild } from './children';
import { findDependencies } from './dependencies';
import { formatLogLine } from './log-lines';
import { migrate } from './migrate';
import { exitWithParentArgs, repoRoot, tsxArgs } from './paths';
import type { PrivateService } from './private-service';
import { waitUntilReady } from './readiness';
import { paint, prefixFor, say, warn } from './say';
import { portOf, type ServiceDefinition, servicesFor } from './services';
import { StopRequested, stopRequested, throwIfStopped } from './stop-signals';
import type { Teardown } from './teardown';
import { redactUrl } from './urls';

/** `npm start`: dependencies, migrations, then api, worker and admin-api until Ctrl-C or until one of them dies. */
export async function start(teardown: Teardown): Promise<number> {
  const { postgres, redis } = await findDependencies('long-lived', teardown);
  say(`PostgreSQL: ${postgres.description}`);
  say(`Redis: ${redis.description}`);
  throwIfStopped();
  const database = await appDatabase(postgres);
  await migrate(database.url, database.label);
  throwIfStopped();

  const services = servicesFor(process.env);
  const env = serviceEnv(services, database.url, redis.url);
  if (env.STORAGE_DRIVER === 'fs') await mkdir(env.STORAGE_DIR as string, { recursive: true });
  const children = services.map((service) => spawnService(service, env));
  const privateServices: [string, PrivateService | undefined][] = [
    ['the embedded PostgreSQL', postgres.privateService],
    ['the private redis-server', redis.privateService],
  ];
  const firstDeath = Promise.race([
    ...children.map((child) => child.exited.then((code) => ({ name: child.name, code }))),
    ...privateServices.flatMap(([name, service]) => (service ? [service.exited.then(() => ({ name, code: 1 }))] : [])),
  ]);
  const ready = waitUntilReady(
    services.map((service) => ({ name: service.name, port: portOf(service, env) })),
    (waitingFor) => warn(`still waiting for ${waitingFor.join(', ')} to answer /health/ready`),
  ).then(() => 'ready' as const);

  let outcome = await Promise.race([ready, firstDeath, stopRequested]);
  if (outcome === 'ready') {
    printAddresses(services, env, redis.url);
    outcome = await Promise.race([firstDeath, stopRequested]);
  }
  if (outcome instanceof StopRequested) {
    const codes = await Promise.all(children.map((child) => child.exited));
    return codes.every((code) => code === 0) ? 0 : 1;
  }
  warn(`${outcome.name} exited with code ${outcome.code}: stopping everything`);
  return outcome.code || 1;
}

function serviceEnv(services: ServiceDefinition[], databaseUrl: string, redisUrl: string): NodeJS.ProcessEnv {
  const env = process.env;
  const ports = Object.fromEntries(services.map((service) => [service.portVariable, String(portOf(service, env))]));
  return {
    ...env,
    ...ports,
    NODE_ENV: env.NODE_ENV ?? 'development',
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${ports.API_PORT}`,
    ...(ports.DEV_IDP_PORT ? { OIDC_ISSUER: `http://localhost:${ports.DEV_IDP_PORT}` } : {}),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: env.REDIS_PREFIX ?? 'renamer:',
    STORAGE_DRIVER: env.STORAGE_DRIVER ?? 'fs',
    // Absolute, so every service sees the same directory whatever its working directory.
    STORAGE_DIR: resolve(repoRoot, env.STORAGE_DIR ?? '.data/objects'),
  };
}

function spawnService(service: ServiceDefinition, env: NodeJS.ProcessEnv): Child {
  const prefix = prefixFor(service.name, service.colour);
  return spawnChild(service.name, process.execPath, [...exitWithParentArgs(), ...tsxArgs(service.entry)], {
    env,
    output: (line, stream) => {
      const text = formatLogLine(line, paint).map((formatted) => `${prefix}${formatted}\n`);
      (stream === 'stdout' ? process.stdout : process.stderr).write(text.join(''));
    },
  });
}

function printAddresses(services: ServiceDefinition[], env: NodeJS.ProcessEnv, redisUrl: string): void {
  say(paint('bold', 'Renamer is running:'));
  for (const service of services) {
    say(`  ${service.name.padEnd(10)} ${paint('cyan', `http://localhost:${portOf(service, env)}${service.path}`)}`);
  }
  const storage = env.STORAGE_DRIVER === 's3' ? `S3 ${env.S3_ENDPOINT ?? ''}` : env.STORAGE_DIR;
  say(`  objects in ${storage}; Redis keys under ${env.REDIS_PREFIX} on ${redactUrl(redisUrl)}`);
  if (services.some((service) => service.name === 'dev-idp')) {
    say(`  sign in at http://localhost:${env.API_PORT}/api/auth/login (development sign-in: any email and name)`);
  }
  say('Ctrl-C stops everything.');
}
