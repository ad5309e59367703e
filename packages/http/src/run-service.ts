import {
  closeOnSignals,
  createLogger,
  createPlatform,
  exitOnBootFailure,
  type Logger,
  logShippingFromEnv,
  type Platform,
  type PlatformEnv,
} from '@renamer/runtime';
import { initErrorTracking } from '@renamer/telemetry';
import type { FastifyInstance } from 'fastify';

export interface ServiceDeps<E> {
  env: E;
  logger: Logger;
  platform: Platform;
}

/** The whole life of an HTTP service: parse env, connect, build, listen, and close on SIGTERM/SIGINT. */
export async function runHttpService<E extends PlatformEnv>(options: {
  name: string;
  loadEnv: () => E;
  port: (env: E) => number;
  build: (deps: ServiceDeps<E>) => Promise<FastifyInstance>;
}): Promise<void> {
  try {
    const env = options.loadEnv();
    const logger = createLogger(options.name, env.LOG_LEVEL, env.NODE_ENV, logShippingFromEnv(env));
    await initErrorTracking({ dsn: env.SENTRY_DSN, service: options.name, environment: env.NODE_ENV });
    const platform = createPlatform(env, { logger });
    await platform.initStore().catch((err) => logger.warn({ err }, 'storage not reachable yet'));
    const app = await options.build({ env, logger, platform });
    await app.listen({ port: options.port(env), host: env.HOST });
    closeOnSignals(logger, [() => app.close(), () => platform.close()]);
  } catch (error) {
    exitOnBootFailure(options.name, error);
  }
}
