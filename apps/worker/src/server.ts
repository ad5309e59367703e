import { createRepositories } from '@renamer/db';
import { IMAGE_EVENTS } from '@renamer/domain';
import { createBatchScheduler, createBatchTracker, createProgressPublisher } from '@renamer/pipeline';
import { closeQueues, createFlowProducer, createQueues, scheduleEvery } from '@renamer/queue';
import {
  closeOnSignals,
  createHttpService,
  createLogger,
  createMetrics,
  createPlatform,
  createRedis,
  exitOnBootFailure,
} from '@renamer/service-kit';
import { createMetadataAnalyzer } from './analysis/metadata-analyzer';
import { loadWorkerEnv } from './env';
import { ANALYSIS_FAILED, analyzeImageHandler } from './handlers/analyze-image';
import { processBatchHandler } from './handlers/process-batch';
import { pruneSessionsHandler } from './handlers/prune-sessions';
import { reconcileImagesHandler } from './handlers/reconcile-images';
import { runWorkers } from './worker';

const DAY_MS = 24 * 60 * 60 * 1000;

try {
  const env = loadWorkerEnv();
  const logger = createLogger('worker', env.LOG_LEVEL, env.NODE_ENV);
  const platform = createPlatform(env, { logger });
  const metrics = createMetrics('worker');
  // Health and metrics answer first, so an operator sees why the worker is not ready.
  const http = createHttpService({ service: 'worker', logger, metrics, healthChecks: platform.healthChecks });
  await http.listen({ port: env.WORKER_PORT, host: env.HOST });
  await platform.initStore().catch((err) => logger.warn({ err }, 'storage not reachable yet'));

  const bullConnection = createRedis(env.REDIS_URL, { lazyConnect: false }, logger);
  const repositories = createRepositories(platform.db.db);
  const queues = createQueues(bullConnection, env.REDIS_PREFIX);
  const flows = createFlowProducer(bullConnection, env.REDIS_PREFIX);
  const tracker = createBatchTracker({
    batches: repositories.batches,
    images: repositories.images,
    publish: createProgressPublisher(platform.redis, env.REDIS_PREFIX),
    onPublishError: (err) => logger.warn({ err }, 'progress event not published'),
  });
  const scheduler = createBatchScheduler({ flows, queues });

  const handlers = [
    analyzeImageHandler({
      images: repositories.images,
      batches: repositories.batches,
      store: platform.store,
      tracker,
      analyzer: createMetadataAnalyzer(),
      tempDir: env.WORK_DIR,
      delayMs: env.NODE_ENV === 'test' ? env.ANALYZE_TEST_DELAY_MS : 0,
    }),
    processBatchHandler({ tracker }),
    reconcileImagesHandler({ images: repositories.images, scheduler }),
    pruneSessionsHandler({ deleteSessionsEndedBefore: (cutoff) => repositories.sessions.deleteEndedBefore(cutoff) }),
  ];
  const fleet = runWorkers({
    handlers,
    redis: bullConnection,
    redisPrefix: env.REDIS_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    lockDurationMs: env.WORKER_LOCK_MS,
    stalledIntervalMs: env.WORKER_STALLED_CHECK_MS,
    logger,
    metrics,
    // A job that stalled too often never reached the handler's own failure path: settle its image here.
    onFailedForGood: async (job) => {
      if (job.name !== 'analyze-image') return;
      const { imageId, batchId } = job.data as { imageId: string; batchId: string };
      const failed = await repositories.images.update(
        imageId,
        { status: IMAGE_EVENTS.failedForGood.to, error: ANALYSIS_FAILED },
        { expectStatus: IMAGE_EVENTS.failedForGood.from },
      );
      if (failed) await tracker.imagesChanged(batchId, [failed]);
    },
  });
  await scheduleEvery(queues, 'prune-sessions', { retentionDays: env.SESSION_RETENTION_DAYS }, DAY_MS);
  await scheduleEvery(
    queues,
    'reconcile-images',
    { olderThanSeconds: env.RECONCILE_AFTER_SECONDS },
    env.RECONCILE_EVERY_MS,
  );

  closeOnSignals(logger, [
    () => http.close(),
    () => fleet.close(),
    () => flows.close(),
    () => closeQueues(queues),
    async () => bullConnection.disconnect(),
    () => platform.close(),
  ]);
} catch (error) {
  exitOnBootFailure('worker', error);
}
