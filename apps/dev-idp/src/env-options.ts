import type { DevIdpOptions } from './dev-idp';

export const DEFAULT_DEV_IDP_PORT = 3002;

/** Options for the standalone provider, from DEV_IDP_PORT, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL. */
export function devIdpOptionsFromEnv(env: NodeJS.ProcessEnv): DevIdpOptions {
  const port = env.DEV_IDP_PORT ? Number(env.DEV_IDP_PORT) : DEFAULT_DEV_IDP_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`DEV_IDP_PORT must be a port number, got ${env.DEV_IDP_PORT}`);
  }
  const publicUrl = (env.PUBLIC_URL || 'http://localhost:3000').replace(/\/+$/, '');
  return {
    issuer: `http://localhost:${port}`,
    port,
    clients: [
      {
        clientId: env.OIDC_CLIENT_ID || 'renamer-dev',
        clientSecret: env.OIDC_CLIENT_SECRET || 'renamer-dev-secret',
        redirectUris: [`${publicUrl}/api/auth/callback`],
      },
    ],
  };
}
