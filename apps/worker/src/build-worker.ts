import { join } from 'node:path';
import type { CleanupTask } from '@renamer/contracts';
import { createRepositories } from '@renamer/db';
import { createHttpService, createMetrics, type ServiceDeps } from '@renamer/http';
import { closeCameraDecoding, configureCameraDecoding } from '@renamer/imaging';
import {
  closeQueues,
  createBatchScheduler,
  createCleanupTasks,
  createFlowProducer,
  createQueues,
  createWorkerPool,
  type JobHandlers,
  queueWebhookDelivery,
  requeueWebhookDelivery,
  scheduleEvery,
  unscheduleEvery,
  webhookNotifier,
} from '@renamer/jobs';
import { createLlmProvider, llmConfigFromEnv } from '@renamer/llm';
import { createBatchTracker, createProgressPublisher } from '@renamer/progress';
import { createFeatureFlags, createRedis } from '@renamer/runtime';
import { createImageAnalyzer } from './analysis/create-image-analyzer';
import type { ImageAnalyzer } from './analysis/image-analyzer';
import { llmStepSource } from './analysis/steps/llm-step';
import { createVisionToolkit } from './analysis/vision-toolkit';
import type { WorkerEnv } from './env';
import { analyzeImageHandler } from './handlers/analyze-image';
import { cleanupHandler } from './handlers/cleanup';
import { processBatchHandler } from './handlers/process-batch';
import { proposeBatchHandler } from './handlers/propose-batch';
import { pruneSessionsHandler } from './handlers/prune-sessions';
import { reconcileImagesHandler } from './handlers/reconcile-images';
import { deliverWebhookHandler, reconcileWebhooksHandler, webhookEventHandler } from './handlers/webhooks';
import { createJobMetrics } from './job-metrics';
import { batchNamer, batchProposer } from './naming/batch-renamer';
import { registerQueueMetrics } from './queue-metrics';

export interface WorkerDeps extends ServiceDeps<WorkerEnv> {
  /** Wraps the production analyser (a test slows it down, to kill a worker mid-job). */
  wrapAnalyzer?: (analyzer: ImageAnalyzer) => ImageAnalyzer;
}

export interface WorkerService {
  /** Serves health and metrics first, so an operator sees why it is not ready; then takes jobs and keeps the schedules. */
  start(): Promise<void>;
  /** To run in order on shutdown: stop answering, let running jobs finish, then close the connections. */
  closers: (() => Promise<unknown>)[];
}

/** How often the worker runs each cleanup task; one schedule each across the fleet (BullMQ job schedulers). */
const CLEANUP_SCHEDULE: Record<CleanupTask, number> = {
  'expired-downloads': 3600 * 1000,
  'orphaned-objects': 6 * 3600 * 1000,
  'stale-batches': 10 * 60 * 1000,
  'failed-jobs': 24 * 3600 * 1000,
  // Twice a day: a schedule is named by its job and interval, so it must not share failed-jobs' day.
  retention: 12 * 3600 * 1000,
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The worker's composition root: the service graph, one handler per catalog job, the BullMQ workers. */
export function buildWorker({
  env,
  logger,
  platform,
  wrapAnalyzer = (analyzer) => analyzer,
}: WorkerDeps): WorkerService {
  const metrics = createMetrics('worker');
  configureCameraDecoding({ heicThreads: env.HEIC_DECODE_THREADS });
  const http = createHttpService({
    service: 'worker',
    logger,
    metrics,
    healthChecks: platform.healthChecks,
    checkResponses: env.NODE_ENV === 'test',
  });
  // BullMQ waits for Redis on a connection of its own; the platform's fails fast.
  const bullConnection = createRedis(env.REDIS_URL, { lazyConnect: false }, logger);
  const repositories = createRepositories(platform.db.db);
  const flags = createFeatureFlags({
    repository: repositories.featureFlags,
    redis: platform.redis,
    redisPrefix: env.REDIS_PREFIX,
    logger,
  });
  const queues = createQueues(bullConnection, env.REDIS_PREFIX);
  const flows = createFlowProducer(bullConnection, env.REDIS_PREFIX);
  const tracker = createBatchTracker({
    batches: repositories.batches,
    images: repositories.images,
    publish: createProgressPublisher(platform.redis, env.REDIS_PREFIX),
    onPublishError: (err) => logger.warn({ err }, 'progress event not published'),
    notify: webhookNotifier(queues),
  });
  const cleanupTasks = createCleanupTasks({
    downloads: repositories.downloads,
    images: repositories.images,
    batches: repositories.batches,
    tracker,
    store: platform.store,
    queues,
    config: env,
  });

  const llmConfig = llmConfigFromEnv(env);
  const toolkit = createVisionToolkit({
    ocrCachePath: join(env.WORK_DIR, 'renamer-ocr'),
    safetyThreshold: env.SAFETY_THRESHOLD,
    llm: llmConfig ? createLlmProvider(llmConfig, { logger }) : null,
  });

  const handlers: JobHandlers = {
    'process-batch': processBatchHandler({
      tracker,
      nameAsWhole: batchNamer({ images: repositories.images, batches: repositories.batches }),
    }),
    'propose-batch': proposeBatchHandler({
      batches: repositories.batches,
      images: repositories.images,
      scheduler: createBatchScheduler({ flows, queues }),
      tracker,
      proposeAgain: batchProposer({ images: repositories.images, batches: repositories.batches }),
      modelSource: async () => {
        const { llm } = toolkit;
        if (!llm || !env.ANALYSIS_STEPS.has('llm') || !(await flags.isEnabled('llm-analysis'))) return null;
        return llmStepSource(llm);
      },
    }),
    'analyze-image': analyzeImageHandler({
      images: repositories.images,
      batches: repositories.batches,
      store: platform.store,
      tracker,
      analyzer: wrapAnalyzer(
        // The provider bounds a call, retries included; waiting for one of its concurrency slots comes first.
        createImageAnalyzer(toolkit, {
          steps: env.ANALYSIS_STEPS,
          llmTimeoutMs: 2 * (llmConfig?.timeoutMs ?? 0),
          llmEnabled: () => flags.isEnabled('llm-analysis'),
        }),
      ),
      tempDir: env.WORK_DIR,
      refuseUnsafe: () => flags.isEnabled('refuse-unsafe-images'),
    }),
    'reconcile-images': reconcileImagesHandler({
      images: repositories.images,
      scheduler: createBatchScheduler({ flows, queues }),
    }),
    'reconcile-webhooks': reconcileWebhooksHandler({
      webhooks: repositories.webhooks,
      requeue: (delivery, attempt) => requeueWebhookDelivery(queues, delivery, attempt),
    }),
    'prune-sessions': pruneSessionsHandler({ sessions: repositories.sessions }),
    'webhook-event': webhookEventHandler({
      webhooks: repositories.webhooks,
      batches: repositories.batches,
      images: repositories.images,
      queueDelivery: (delivery) => queueWebhookDelivery(queues, delivery),
    }),
    'deliver-webhook': deliverWebhookHandler({
      webhooks: repositories.webhooks,
      allowInsecure: env.WEBHOOKS_ALLOW_INSECURE,
      retryBaseMs: env.WEBHOOKS_RETRY_BASE_MS,
      queueRetry: (delivery, attempt, delayMs) => queueWebhookDelivery(queues, delivery, attempt, delayMs),
    }),
    cleanup: cleanupHandler(cleanupTasks),
  };
  registerQueueMetrics(metrics, queues);
  const pool = createWorkerPool(handlers, {
    connection: bullConnection,
    redisPrefix: env.REDIS_PREFIX,
    logger,
    queues: { images: { concurrency: env.WORKER_CONCURRENCY } },
    lockDurationMs: env.WORKER_LOCK_MS,
    stalledIntervalMs: env.WORKER_STALLED_CHECK_MS,
    ...createJobMetrics(metrics),
  });

  /** The fleet's schedules, one each (upserting is idempotent): at start, and again whenever Redis comes back, since
   * a Redis that restarted without its data has lost them. */
  const keepSchedules = async () => {
    await scheduleEvery(queues, 'prune-sessions', { retentionDays: env.SESSION_RETENTION_DAYS }, DAY_MS);
    for (const [task, everyMs] of Object.entries(CLEANUP_SCHEDULE) as [CleanupTask, number][]) {
      // A task this configuration does not run (retention while RETAIN_ORIGINALS_DAYS is unset) loses its schedule.
      if (cleanupTasks.available.includes(task)) await scheduleEvery(queues, 'cleanup', { task }, everyMs);
      else await unscheduleEvery(queues, 'cleanup', everyMs);
    }
    await scheduleEvery(
      queues,
      'reconcile-images',
      { olderThanSeconds: env.RECONCILE_AFTER_SECONDS },
      env.RECONCILE_EVERY_MS,
    );
    await scheduleEvery(
      queues,
      'reconcile-webhooks',
      { olderThanSeconds: env.RECONCILE_AFTER_SECONDS },
      env.RECONCILE_EVERY_MS,
    );
  };

  let stopping = false;
  return {
    async start() {
      await http.listen({ port: env.WORKER_PORT, host: env.HOST });
      await platform.initStore().catch((err) => logger.warn({ err }, 'storage not reachable yet'));
      // A model that cannot load leaves its optional step failing (recorded on each image), not the worker down.
      await toolkit
        .warm(env.ANALYSIS_STEPS)
        .catch((err) => logger.error({ err }, 'an analysis model did not load; its step will be skipped'));
      // A SIGTERM while the models loaded has closed the connections: take no jobs.
      if (stopping) return;
      pool.run();
      await keepSchedules();
      bullConnection.on('ready', () => {
        if (!stopping) keepSchedules().catch((err) => logger.warn({ err }, 'schedules not restored yet'));
      });
    },
    closers: [
      async () => {
        stopping = true;
      },
      () => http.close(),
      () => pool.close(),
      () => toolkit.close(),
      () => flags.close(),
      () => closeCameraDecoding(),
      () => flows.close(),
      () => closeQueues(queues),
      async () => bullConnection.disconnect(),
      () => platform.close(),
    ],
  };
}
