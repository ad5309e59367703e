import helmet from '@fastify/helmet';
import { authentication, authenticationOptions, requireCredentials } from '@renamer/auth';
import { createRepositories } from '@renamer/db';
import { closeQueues, createQueues } from '@renamer/queue';
import { createHttpService, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import type { AdminEnv } from './env';
import { adminHealthRoutes } from './routes/health';

export type AdminDeps = ServiceDeps<AdminEnv>;

/** The operators' API on its own port: the same session cookie and API keys, and the admin role. */
export async function buildAdminApi({ env, logger, platform }: AdminDeps): Promise<FastifyInstance> {
  const app = createHttpService({
    service: 'admin-api',
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  const repositories = createRepositories(platform.db.db);
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  app.addHook('onClose', () => closeQueues(queues));

  await app.register(helmet, { global: true });
  await app.register(authentication, authenticationOptions(env, repositories));
  await app.register(requireCredentials, {
    role: 'admin',
    routes: async (admin) => {
      await admin.register(adminHealthRoutes, { healthChecks: platform.healthChecks, queues });
    },
  });
  return app;
}
