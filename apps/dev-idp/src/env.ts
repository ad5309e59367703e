import { readFileSync } from 'node:fs';
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
  /** The issuer's origin; unset: `http://localhost:<DEV_IDP_PORT>`. An `https:` one needs the two files below. */
  DEV_IDP_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  /** PEM certificate (with its chain) and private key served for an `https:` issuer. */
  DEV_IDP_TLS_CERT_FILE: z.string().min(1).optional(),
  DEV_IDP_TLS_KEY_FILE: z.string().min(1).optional(),
});

function requireTlsFiles(env: z.infer<typeof devIdpEnv>, ctx: z.RefinementCtx): void {
  const https = env.DEV_IDP_ISSUER?.startsWith('https:') ?? false;
  for (const name of ['DEV_IDP_TLS_CERT_FILE', 'DEV_IDP_TLS_KEY_FILE'] as const) {
    if (https && !env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required for an https issuer' });
    if (!https && env[name])
      ctx.addIssue({ code: 'custom', path: [name], message: 'only for an https DEV_IDP_ISSUER' });
  }
}

/** The standalone provider's environment, parsed once at boot; a bad value throws naming the variable. */
export function loadDevIdpEnv(source: NodeJS.ProcessEnv) {
  const env = parseEnv(devIdpEnv.superRefine(requireTlsFiles), source);
  const options: DevIdpOptions = {
    issuer: env.DEV_IDP_ISSUER ?? `http://localhost:${env.DEV_IDP_PORT}`,
    port: env.DEV_IDP_PORT,
    ...(env.DEV_IDP_TLS_CERT_FILE &&
      env.DEV_IDP_TLS_KEY_FILE && {
        tls: { cert: readFileSync(env.DEV_IDP_TLS_CERT_FILE), key: readFileSync(env.DEV_IDP_TLS_KEY_FILE) },
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
