import { type JobHandler, startWorkers } from '@renamer/queue';
import type { Logger, Metrics } from '@renamer/service-kit';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createJobMetrics } from './job-metrics';

export interface RunWorkersOptions {
  handlers: readonly JobHandler[];
  redis: Redis;
  redisPrefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  logger: Logger;
  /** Called when a job failed for good (its last attempt, or stalled too often). */
  onFailedForGood?: (job: Job, error: Error) => Promise<void>;
  metrics: Metrics;
}

/** Starts one BullMQ worker per queue; refuses (throws) when the handlers do not cover the job catalog. */
export function runWorkers(options: RunWorkersOptions) {
  const { handlers, redis, redisPrefix, concurrency, logger, metrics } = options;
  const jobMetrics = createJobMetrics(metrics);
  const workers = startWorkers(handlers, {
    connection: redis,
    redisPrefix,
    concurrency,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    onCompleted: (job, durationMs) => {
      jobMetrics.onCompleted(job, durationMs);
      logger.info({ jobId: job.id, job: job.name, durationMs }, 'job completed');
    },
    onFailed: async (job, error) => {
      jobMetrics.onFailed(job, error);
      // A retried job is back in `delayed`; one that failed for good (last attempt, or stalled too often) stays failed.
      const final = job ? (await job.getState().catch(() => 'failed')) === 'failed' : true;
      logger[final ? 'error' : 'warn']({ jobId: job?.id, job: job?.name, err: error, final }, 'job failed');
      if (final && job && options.onFailedForGood) {
        await options
          .onFailedForGood(job, error)
          .catch((err) => logger.error({ err, jobId: job.id }, 'after-failure step failed'));
      }
    },
  });
  for (const worker of workers) worker.on('error', (err) => logger.error({ err, queue: worker.name }, 'worker error'));
  /** Lets running jobs finish; BullMQ hands unfinished ones to another worker after the stalled check. */
  return { workers, close: () => Promise.all(workers.map((worker) => worker.close())) };
}
