import { z } from 'zod';
import type { DevIdpOptions } from './dev-idp';

export const DEFAULT_DEV_IDP_PORT = 3002;

const devIdpEnv = z.object({
  DEV_IDP_PORT: z.coerce.number().int().min(1).max(65535).default(DEFAULT_DEV_IDP_PORT),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  OIDC_CLIENT_ID: z.string().min(1).default('renamer-dev'),
  OIDC_CLIENT_SECRET: z.string().min(1).default('renamer-dev-secret'),
});

/** Options for the standalone provider, parsed once at boot; a bad value throws naming the variable. */
export function devIdpOptionsFromEnv(source: NodeJS.ProcessEnv): DevIdpOptions {
  const parsed = devIdpEnv.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  return {
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
}
