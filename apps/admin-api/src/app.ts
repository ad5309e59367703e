import { registerCallerPlugins, requireCredentials } from '@renamer/auth';
import { createHttpService, createMetrics, registerOpenApi } from '@renamer/http';
import { logStreamKey } from '@renamer/runtime';
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
 * plugins, then routes. The same session cookie, CSRF tokens and API keys as the API; every route but
 * the OpenAPI document (and /health/*, /metrics) needs the admin role.
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
  const services = createAdminServices(deps);
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
      await admin.register(healthRoutes, { healthChecks: platform.healthChecks, queues: services.queues });
      await admin.register(userRoutes, {
        accounts: services.accounts,
        users: services.repositories.users,
        payments: services.repositories.payments,
      });
      await admin.register(analyticsRoutes, { analytics: services.repositories.analytics });
      await admin.register(paymentRoutes, {
        payments: services.repositories.payments,
        auditLog: services.repositories.auditLog,
        stripe: services.stripe,
      });
      await admin.register(auditLogRoutes, { auditLog: services.repositories.auditLog });
      await admin.register(queueRoutes, { queues: services.queues, auditLog: services.repositories.auditLog });
      await admin.register(cleanupRoutes, { tasks: services.cleanup, auditLog: services.repositories.auditLog });
      await admin.register(logRoutes, { redis: platform.redis, streamKey: logStreamKey(env.REDIS_PREFIX) });
      await admin.register(metricsRoutes, { targets: env.METRICS_TARGETS, own: metrics, queues: services.queues });
      await admin.register(featureFlagRoutes, {
        db: platform.db.db,
        featureFlags: services.repositories.featureFlags,
        auditLog: services.repositories.auditLog,
        flags: services.flags,
      });
    },
  });
  return app;
}
