import { readFileSync } from 'node:fs';
import { ConfigError, LogLevel, NodeEnv, parseEnv } from '@renamer/runtime';
import { z } from 'zod';
import type { DevIdpOptions } from './dev-idp';

export const DEFAULT_DEV_IDP_PORT = 3002;

const devIdpEnv = z.object({
  NODE_ENV: NodeEnv,
  LOG_LEVEL: LogLevel,
  /** Unset: the port of DEV_IDP_ISSUER, else 3002. */
  DEV_IDP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  OIDC_CLIENT_ID: z.string().min(1).default('renamer-dev'),
  OIDC_CLIENT_SECRET: z.string().min(1).default('renamer-dev-secret'),
  /** The issuer's origin; unset: `http://localhost:<DEV_IDP_PORT>`. An `https:` one needs the two files below. */
  DEV_IDP_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  /** PEM certificate (with its chain) and private key served for an `https:` issuer. */
  DEV_IDP_TLS_CERT_FILE: z.string().min(1).optional(),
  DEV_IDP_TLS_KEY_FILE: z.string().min(1).optional(),
});

/** An https issuer has its certificate and key, a plain one none; the issuer and DEV_IDP_PORT name one port. */
function checkIssuer(env: z.infer<typeof devIdpEnv>, ctx: z.RefinementCtx): void {
  const issuer = env.DEV_IDP_ISSUER ? new URL(env.DEV_IDP_ISSUER) : null;
  const https = issuer?.protocol === 'https:';
  for (const name of ['DEV_IDP_TLS_CERT_FILE', 'DEV_IDP_TLS_KEY_FILE'] as const) {
    if (https && !env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required for an https issuer' });
    if (!https && env[name])
      ctx.addIssue({ code: 'custom', path: [name], message: 'only for an https DEV_IDP_ISSUER' });
  }
  if (issuer?.port && env.DEV_IDP_PORT !== undefined && Number(issuer.port) !== env.DEV_IDP_PORT) {
    ctx.addIssue({
      code: 'custom',
      path: ['DEV_IDP_PORT'],
      message: `differs from DEV_IDP_ISSUER's port ${issuer.port}`,
    });
  }
}

/** A PEM file the settings name; one that cannot be read stops the start naming the variable. */
function pemFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError([{ variable, message: `cannot be read: ${(error as Error).message}` }]);
  }
}

/** The standalone provider's environment, parsed once at boot; a bad value throws naming the variable. */
export function loadDevIdpEnv(source: NodeJS.ProcessEnv) {
  const env = parseEnv(devIdpEnv.superRefine(checkIssuer), source);
  const issuerPort = env.DEV_IDP_ISSUER ? new URL(env.DEV_IDP_ISSUER).port : '';
  const port = env.DEV_IDP_PORT ?? (issuerPort ? Number(issuerPort) : DEFAULT_DEV_IDP_PORT);
  const options: DevIdpOptions = {
    issuer: env.DEV_IDP_ISSUER ?? `http://localhost:${port}`,
    port,
    ...(env.DEV_IDP_TLS_CERT_FILE &&
      env.DEV_IDP_TLS_KEY_FILE && {
        tls: {
          cert: pemFile('DEV_IDP_TLS_CERT_FILE', env.DEV_IDP_TLS_CERT_FILE),
          key: pemFile('DEV_IDP_TLS_KEY_FILE', env.DEV_IDP_TLS_KEY_FILE),
        },
      }),
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
