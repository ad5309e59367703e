import { createSessionRepository } from '@renamer/db';
import { closeQueues, createQueues, scheduleEvery } from '@renamer/queue';
import {
  closeOnSignals,
  createHttpService,
  createLogger,
  createMetrics,
  createPlatform,
  createRedis,
  exitOnBootFailure,
} from '@renamer/service-kit';
import { loadWorkerEnv } from './env';
import { pruneSessionsHandler } from './handlers/prune-sessions';
import { runWorkers } from './worker';

const DAY_MS = 24 * 60 * 60 * 1000;

try {
  const env = loadWorkerEnv();
  const logger = createLogger('worker', env.LOG_LEVEL);
  const platform = createPlatform(env, { logger });
  const metrics = createMetrics('worker');
  // Health and metrics answer first, so an operator sees why the worker is not ready.
  const http = createHttpService({ service: 'worker', logger, metrics, healthChecks: platform.healthChecks });
  await http.listen({ port: env.WORKER_PORT, host: env.HOST });
  await platform.initStore().catch((err) => logger.warn({ err }, 'storage not reachable yet'));
  const bullConnection = createRedis(env.REDIS_URL, { lazyConnect: false }, logger);
  const sessions = createSessionRepository(platform.db.db);

  const handlers = [
    pruneSessionsHandler({ deleteSessionsEndedBefore: (cutoff) => sessions.deleteEndedBefore(cutoff) }),
  ];
  const fleet = runWorkers({
    handlers,
    redis: bullConnection,
    redisPrefix: env.REDIS_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    logger,
    metrics,
  });
  const queues = createQueues(bullConnection, env.REDIS_PREFIX);
  await scheduleEvery(queues, 'prune-sessions', { retentionDays: env.SESSION_RETENTION_DAYS }, DAY_MS);

  closeOnSignals(logger, [
    () => http.close(),
    () => fleet.close(),
    () => closeQueues(queues),
    async () => bullConnection.disconnect(),
    () => platform.close(),
  ]);
} catch (error) {
  exitOnBootFailure('worker', error);
}
