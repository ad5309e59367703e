import { registerCallerPlugins, requireCredentials } from '@renamer/auth';
import { createHttpService, createMetrics, registerOpenApi } from '@renamer/http';
import type { FastifyInstance } from 'fastify';
import { type AdminDeps, createAdminServices } from './admin-services';
import { ADMIN_OPENAPI } from './openapi-info';
import { analyticsRoutes } from './routes/analytics';
import { auditLogRoutes } from './routes/audit-log';
import { cleanupRoutes } from './routes/cleanup';
import { featureFlagRoutes } from './routes/feature-flags';
import { healthRoutes } from './routes/health';
import { logRoutes } from './routes/logs';
import { metricsRoutes } from './routes/metrics';
import { paymentRoutes } from './routes/payments';
import { queueRoutes } from './routes/queues';
import { userRoutes } from './routes/users';

/**
 * The operators' API on its own port, composed like the API: the service graph once, then external
 * plugins, then routes, each of which validates, calls one service function and answers. The same session
 * cookie, CSRF tokens and API keys as the API; every route but the OpenAPI document (and /health/*, /metrics)
 * needs the admin role.
 */
export async function buildAdminApi(deps: AdminDeps): Promise<FastifyInstance> {
  const { env, logger, platform } = deps;
  const metrics = createMetrics('admin-api');
  const app = createHttpService({
    service: 'admin-api',
    metrics,
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
    securityHeaders: { https: env.PUBLIC_URL.startsWith('https:') },
    checkResponses: env.NODE_ENV === 'test',
  });
  const services = createAdminServices(deps, metrics);
  app.addHook('onClose', services.close);

  await registerOpenApi(app, ADMIN_OPENAPI);
  await registerCallerPlugins(app, {
    env,
    redis: platform.redis,
    repositories: services.repositories,
    service: 'admin-api',
  });

  await app.register(requireCredentials, {
    role: 'admin',
    routes: async (admin) => {
      await admin.register(healthRoutes, { health: services.health });
      await admin.register(userRoutes, { users: services.users });
      await admin.register(analyticsRoutes, { analytics: services.analytics });
      await admin.register(paymentRoutes, { payments: services.payments });
      await admin.register(auditLogRoutes, { auditLog: services.auditLog });
      await admin.register(queueRoutes, { queues: services.queues });
      await admin.register(cleanupRoutes, { cleanup: services.cleanup });
      await admin.register(logRoutes, { logs: services.logs });
      await admin.register(metricsRoutes, { metrics: services.metrics });
      await admin.register(featureFlagRoutes, { flags: services.flags });
    },
  });
  return app;
}
