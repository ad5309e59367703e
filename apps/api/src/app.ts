import helmet from '@fastify/helmet';
import { authentication } from '@renamer/auth';
import { createRepositories } from '@renamer/db';
import { emailHash } from '@renamer/domain';
import { createHttpService, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ApiEnv } from './env';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { accountRoutes } from './routes/auth/account';
import { apiKeyRoutes } from './routes/auth/api-keys';
import { signInRoutes } from './routes/auth/sign-in';
import { filesRoutes } from './routes/files';
import { createAccountService } from './services/account';
import { createApiKeyService } from './services/api-keys';
import { createOidcClient } from './services/oidc-client';
import { createSignInService } from './services/sign-in';

export type ApiDeps = ServiceDeps<ApiEnv>;

export const API_VERSION = '0.1.0';

/** The HTTP API: external plugins first, then the app's services, then its routes. */
export async function buildApi({ env, logger, platform }: ApiDeps): Promise<FastifyInstance> {
  const app = createHttpService({
    service: 'api',
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  const repositories = createRepositories(platform.db.db);
  const secureCookies = env.NODE_ENV !== 'development';

  await app.register(helmet, { global: true });
  await registerOpenApi(app, API_VERSION);
  await app.register(authentication, {
    secret: env.SESSION_SECRET,
    secureCookies,
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
  });
  await registerRateLimit(app, {
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    signInPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
  });

  const oidc = createOidcClient({
    issuer: env.OIDC_ISSUER,
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
  const account = createAccountService({ users: repositories.users, store: platform.store, logger });
  const apiKeys = createApiKeyService({ apiKeys: repositories.apiKeys });

  await app.register(signInRoutes, {
    oidc,
    signIn,
    publicUrl: env.PUBLIC_URL,
    secureCookies,
    sessionTtlSeconds: env.SESSION_TTL,
  });
  await app.register(accountRoutes, {
    account,
    revokeSession: (sessionId) => repositories.sessions.revoke(sessionId, new Date()),
  });
  await app.register(apiKeyRoutes, { apiKeys });
  await app.register(filesRoutes, { store: platform.store, signingSecret: env.SESSION_SECRET });
  return app;
}
