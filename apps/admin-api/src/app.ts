import helmet from '@fastify/helmet';
import { createHttpService, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import type { AdminEnv } from './env';

export type AdminDeps = ServiceDeps<AdminEnv>;

/** The operators' API on its own port; admin routes arrive with sign-in (they need the admin role). */
export async function buildAdminApi({ env, logger, platform }: AdminDeps): Promise<FastifyInstance> {
  const app = createHttpService({
    service: 'admin-api',
    logger,
    healthChecks: platform.healthChecks,
    trustProxy: env.TRUST_PROXY,
  });
  await app.register(helmet, { global: true });
  return app;
}
