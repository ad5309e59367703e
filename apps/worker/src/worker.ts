import { type JobHandler, startWorkers } from '@renamer/queue';
import type { Logger, Metrics } from '@renamer/service-kit';
import type { Redis } from 'ioredis';
import { createJobMetrics } from './job-metrics';

export interface RunWorkersOptions {
  handlers: readonly JobHandler[];
  redis: Redis;
  redisPrefix: string;
  concurrency: number;
  logger: Logger;
  metrics: Metrics;
}

/** Starts one BullMQ worker per queue; refuses (throws) when the handlers do not cover the job catalog. */
export function runWorkers({ handlers, redis, redisPrefix, concurrency, logger, metrics }: RunWorkersOptions) {
  const jobMetrics = createJobMetrics(metrics);
  const workers = startWorkers(handlers, {
    connection: redis,
    redisPrefix,
    concurrency,
    onCompleted: (job, durationMs) => {
      jobMetrics.onCompleted(job, durationMs);
      logger.info({ jobId: job.id, job: job.name, durationMs }, 'job completed');
    },
    onFailed: (job, error) => {
      jobMetrics.onFailed(job, error);
      const final = job ? job.attemptsMade >= (job.opts.attempts ?? 1) : true;
      logger[final ? 'error' : 'warn']({ jobId: job?.id, job: job?.name, err: error, final }, 'job failed');
    },
  });
  for (const worker of workers) worker.on('error', (err) => logger.error({ err, queue: worker.name }, 'worker error'));
  /** Lets running jobs finish; BullMQ hands unfinished ones to another worker after the stalled check. */
  return { workers, close: () => Promise.all(workers.map((worker) => worker.close())) };
}
