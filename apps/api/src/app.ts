import helmet from '@fastify/helmet';
import { authentication } from '@renamer/auth';
import { createRepositories } from '@renamer/db';
import { createHttpService, createMetrics, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ApiEnv } from './env';
import { registerAccountModule } from './modules/accounts';
import { registerBatchModule } from './modules/batches';
import { registerProgressModule } from './modules/progress';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { filesRoutes } from './routes/files';

export type ApiDeps = ServiceDeps<ApiEnv>;

export const API_VERSION = '0.1.0';

/** The HTTP API: external plugins first, then the app's modules (services and their routes). */
export async function buildApi({ env, logger, platform }: ApiDeps): Promise<FastifyInstance> {
  const metrics = createMetrics('api');
  const app = createHttpService({
    service: 'api',
    metrics,
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  const repositories = createRepositories(platform.db.db);
  const deps = { env, logger, platform, repositories, metrics };

  await app.register(helmet, { global: true });
  await registerOpenApi(app, API_VERSION);
  await app.register(authentication, {
    secret: env.SESSION_SECRET,
    secureCookies: env.NODE_ENV !== 'development',
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
  });
  await registerRateLimit(app, {
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    signInPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
  });

  await registerAccountModule(app, deps);
  const batches = await registerBatchModule(app, deps);
  await registerProgressModule(app, deps, batches);
  await app.register(filesRoutes, { store: platform.store, signingSecret: env.SESSION_SECRET });
  return app;
}
