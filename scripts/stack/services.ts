import type { Colour } from './say';

export interface ServiceDefinition {
  name: string;
  entry: string;
  portVariable: string;
  defaultPort: number;
  colour: Colour;
  /** What to open in a browser once it runs. */
  path: string;
}

export const services: ServiceDefinition[] = [
  {
    name: 'api',
    entry: 'apps/api/src/server.ts',
    portVariable: 'API_PORT',
    defaultPort: 3000,
    colour: 'cyan',
    path: '/',
  },
  {
    name: 'worker',
    entry: 'apps/worker/src/server.ts',
    portVariable: 'WORKER_PORT',
    defaultPort: 3003,
    colour: 'magenta',
    path: '/metrics',
  },
  {
    name: 'admin-api',
    entry: 'apps/admin-api/src/server.ts',
    portVariable: 'ADMIN_API_PORT',
    defaultPort: 3001,
    colour: 'yellow',
    path: '/',
  },
];

export function portOf(service: ServiceDefinition, env: NodeJS.ProcessEnv): number {
  return Number(env[service.portVariable] ?? service.defaultPort);
}
