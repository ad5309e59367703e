import helmet from '@fastify/helmet';
import { createHttpService, type ServiceDeps } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ApiEnv } from './env';
import { registerOpenApi } from './plugins/openapi';
import { filesRoutes } from './routes/files';

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
  await app.register(helmet, { global: true });
  await registerOpenApi(app, API_VERSION);
  await app.register(filesRoutes, { store: platform.store, signingSecret: env.SESSION_SECRET });
  return app;
}
