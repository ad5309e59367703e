import helmet from '@fastify/helmet';
import { authentication, authenticationOptions, rateLimits, requireCredentials, SECURITY_SCHEMES } from '@renamer/auth';
import { createHttpService, registerOpenApi } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import { type AdminDeps, createAdminServices } from './admin-services';
import { healthRoutes } from './routes/health';
import { userRoutes } from './routes/users';

export const ADMIN_API_VERSION = '0.1.0';

/**
 * The operators' API on its own port, composed like the API: the service graph once, then external
 * plugins, then routes. The same session cookie, CSRF tokens and API keys as the API; every route but
 * the OpenAPI document (and /health/*, /metrics) needs the admin role.
 */
export async function buildAdminApi(deps: AdminDeps): Promise<FastifyInstance> {
  const { env, logger, platform } = deps;
  const app = createHttpService({
    service: 'admin-api',
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  const services = createAdminServices(deps);
  app.addHook('onClose', services.close);

  await app.register(helmet, { global: true });
  await registerOpenApi(app, {
    title: 'Renamer admin API',
    version: ADMIN_API_VERSION,
    description:
      'Operators’ API: the admin role is needed. The contract is docs/api.md; errors are RFC 9457 problem documents.',
    path: '/api/admin/openapi.json',
    securitySchemes: SECURITY_SCHEMES,
    tags: [
      { name: 'health', description: 'Dependencies, queues and workers.' },
      { name: 'users', description: 'Users’ accounts: bans.' },
    ],
  });
  await app.register(authentication, authenticationOptions(env, services.repositories));
  await app.register(rateLimits, {
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    service: 'admin-api',
    perMinute: env.RATE_LIMIT_PER_MINUTE,
  });

  await app.register(requireCredentials, {
    role: 'admin',
    routes: async (admin) => {
      await admin.register(healthRoutes, { healthChecks: platform.healthChecks, queues: services.queues });
      await admin.register(userRoutes, { accounts: services.accounts });
    },
  });
  return app;
}
