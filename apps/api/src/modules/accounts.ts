import { emailHash } from '@renamer/domain';
import type { FastifyInstance } from 'fastify';
import { DEV_IDP_ISSUER } from '../env';
import { accountRoutes } from '../routes/auth/account';
import { apiKeyRoutes } from '../routes/auth/api-keys';
import { signInRoutes } from '../routes/auth/sign-in';
import { createAccountService } from '../services/account';
import { createApiKeyService } from '../services/api-keys';
import { createOidcClient } from '../services/oidc-client';
import { createSignInService } from '../services/sign-in';
import type { ModuleDeps } from './types';

/** Sign-in through the OpenID provider, the account, its quota and its API keys. */
export async function registerAccountModule(app: FastifyInstance, { env, logger, platform, repositories }: ModuleDeps) {
  const oidc = createOidcClient({
    issuer: env.OIDC_ISSUER ?? DEV_IDP_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: new URL('/api/auth/callback', env.PUBLIC_URL).href,
    allowInsecure: env.NODE_ENV !== 'production',
  });
  const signIn = createSignInService({
    users: repositories.users,
    sessions: repositories.sessions,
    adminEmailHashes: new Set(env.ADMIN_EMAILS.map(emailHash)),
    sessionTtlSeconds: env.SESSION_TTL,
  });
  await app.register(signInRoutes, {
    oidc,
    signIn,
    publicUrl: env.PUBLIC_URL,
    secureCookies: env.NODE_ENV !== 'development',
    sessionTtlSeconds: env.SESSION_TTL,
  });
  await app.register(accountRoutes, {
    account: createAccountService({ users: repositories.users, store: platform.store, logger }),
    revokeSession: (sessionId) => repositories.sessions.revoke(sessionId, new Date()),
  });
  await app.register(apiKeyRoutes, { apiKeys: createApiKeyService({ apiKeys: repositories.apiKeys }) });
}
