// The processes `npm start` runs and what each is told of the others: pure, so that tests can check it.
import { parseArgs } from 'node:util';

/** The apps of `apps/<app>/src/server.ts`, each listening on `<APP>_PORT`; `path` is what to open once it runs. */
export const APPS = {
  'dev-idp': { port: 3002, path: '/.well-known/openid-configuration' },
  api: { port: 3000, path: '/' },
  worker: { port: 3003, path: '/metrics' },
  'admin-api': { port: 3001, path: '/' },
} as const;
export type App = keyof typeof APPS;
/** One process of the stack; in a fleet the n-th instance of an app listens 100 × (n − 1) above the first. */
export type Instance = { app: App; name: string; port: string; path: string };
const INSTANCE_PORT_STEP = 100;
const MAX_INSTANCES = 10;

export const portVariable = (app: App) => `${app.toUpperCase().replace('-', '_')}_PORT`;

/** `count` instances of `app`, the first on `<APP>_PORT` from `env` (or the app's usual port). */
export const instancesOf = (app: App, count: number, env: NodeJS.ProcessEnv = process.env): Instance[] =>
  Array.from({ length: count }, (_, index) => ({
    app,
    name: index === 0 ? app : `${app}-${index + 1}`,
    port: String(Number(env[portVariable(app)] ?? APPS[app].port) + index * INSTANCE_PORT_STEP),
    path: APPS[app].path,
  }));

/** `npm start -- --api 2 --workers 3`: how many API and worker processes (node's own argument parser). */
export function fleetSize(args: string[]): { apis: number; workers: number; fleet: boolean } {
  const { values } = parseArgs({ args, options: { api: { type: 'string' }, workers: { type: 'string' } } });
  const count = (flag: 'api' | 'workers') => {
    const value = Number(values[flag] ?? 1);
    if (!Number.isInteger(value) || value < 1 || value > MAX_INSTANCES) {
      throw new Error(`--${flag} takes a whole number from 1 to ${MAX_INSTANCES}, not ${values[flag]}`);
    }
    return value;
  };
  return {
    apis: count('api'),
    workers: count('workers'),
    fleet: values.api !== undefined || values.workers !== undefined,
  };
}

/**
 * The admin API's METRICS_TARGETS: every API and worker process started, by name, on the port it was given (the
 * admin dashboard's Health page reads their `/metrics`), whether one of each on their usual ports or a fleet.
 */
export const metricsTargets = (instances: Instance[]): string =>
  instances
    .filter((instance) => instance.app === 'api' || instance.app === 'worker')
    .map((instance) => `${instance.name}=http://127.0.0.1:${instance.port}/metrics`)
    .join(',');
