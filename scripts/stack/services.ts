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

/** The development OpenID provider, run only when no real one is configured (and never in production). */
export const devIdentityProvider: ServiceDefinition = {
  name: 'dev-idp',
  entry: 'apps/dev-idp/src/server.ts',
  portVariable: 'DEV_IDP_PORT',
  defaultPort: 3002,
  colour: 'green',
  path: '/.well-known/openid-configuration',
};

export function servicesFor(env: NodeJS.ProcessEnv): ServiceDefinition[] {
  const needsDevIdp = !env.OIDC_ISSUER && env.NODE_ENV !== 'production';
  return needsDevIdp ? [devIdentityProvider, ...services] : services;
}

export function portOf(service: ServiceDefinition, env: NodeJS.ProcessEnv): number {
  return Number(env[service.portVariable] ?? service.defaultPort);
}
