import { LogLevel, NodeEnv, parseEnv } from '@renamer/service-kit';
import { z } from 'zod';
import type { DevIdpOptions } from './dev-idp';

export const DEFAULT_DEV_IDP_PORT = 3002;

const devIdpEnv = z.object({
  NODE_ENV: NodeEnv,
  LOG_LEVEL: LogLevel,
  DEV_IDP_PORT: z.coerce.number().int().min(1).max(65535).default(DEFAULT_DEV_IDP_PORT),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  OIDC_CLIENT_ID: z.string().min(1).default('renamer-dev'),
  OIDC_CLIENT_SECRET: z.string().min(1).default('renamer-dev-secret'),
});

/** The standalone provider's environment, parsed once at boot; a bad value throws naming the variable. */
export function loadDevIdpEnv(source: NodeJS.ProcessEnv) {
  const env = parseEnv(devIdpEnv, source);
  const options: DevIdpOptions = {
    issuer: `http://localhost:${env.DEV_IDP_PORT}`,
    port: env.DEV_IDP_PORT,
    clients: [
      {
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
        redirectUris: [`${env.PUBLIC_URL.replace(/\/+$/, '')}/api/auth/callback`],
      },
    ],
  };
  return { nodeEnv: env.NODE_ENV, logLevel: env.LOG_LEVEL, options };
}

export function devIdpOptionsFromEnv(source: NodeJS.ProcessEnv): DevIdpOptions {
  return loadDevIdpEnv(source).options;
}
