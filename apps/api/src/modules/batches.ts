import { createBatchScheduler, createBatchTracker, createProgressPublisher } from '@renamer/pipeline';
import { closeQueues, createFlowProducer, createQueues } from '@renamer/queue';
import { withTimeout } from '@renamer/service-kit';
import type { FastifyInstance } from 'fastify';
import { batchRoutes } from '../routes/batches';
import { type BatchService, createBatchService } from '../services/batches/batch-service';
import { createUploadService } from '../services/batches/upload-service';
import type { ModuleDeps } from './types';

const CLOSE_TIMEOUT_MS = 2_000;

/** Uploads and the batch endpoints, with the job flows and progress events behind them. */
export async function registerBatchModule(
  app: FastifyInstance,
  { env, logger, platform, repositories }: ModuleDeps,
): Promise<BatchService> {
  const queues = createQueues(platform.redis, env.REDIS_PREFIX);
  const flows = createFlowProducer(platform.redis, env.REDIS_PREFIX);
  // Bounded: BullMQ waits for Redis without end, and the shared connection is closed with the platform.
  app.addHook('onClose', () =>
    withTimeout(Promise.all([flows.close(), closeQueues(queues)]), CLOSE_TIMEOUT_MS, 'closing queues').catch((err) =>
      logger.warn({ err }, 'queues not closed cleanly'),
    ),
  );
  const publish = createProgressPublisher(platform.redis, env.REDIS_PREFIX);
  const tracker = createBatchTracker({
    batches: repositories.batches,
    images: repositories.images,
    publish,
    onPublishError: (err) => logger.warn({ err }, 'progress event not published'),
  });
  const scheduler = createBatchScheduler({ flows, queues });
  const batches = createBatchService({
    batches: repositories.batches,
    images: repositories.images,
    tracker,
    scheduler,
    publish,
    store: platform.store,
    logger,
  });
  const limits = {
    maxFileBytes: env.UPLOAD_MAX_FILE_BYTES,
    maxFiles: env.UPLOAD_MAX_FILES,
    maxPixels: env.UPLOAD_MAX_PIXELS,
    tmpDir: env.UPLOAD_TMP_DIR,
  };
  const uploads = createUploadService({
    db: platform.db.db,
    users: repositories.users,
    batches: repositories.batches,
    images: repositories.images,
    store: platform.store,
    scheduler,
    limits,
    logger,
  });
  await app.register(batchRoutes, { batches, uploads, limits });
  return batches;
}
