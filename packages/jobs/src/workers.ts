import {
  isJobName,
  JOB_CATALOG,
  type JobName,
  type JobPayload,
  QUEUE_CATALOG,
  QUEUE_NAMES,
  type QueueName,
  type QueueSettings,
} from '@renamer/contracts';
import { bullmqTelemetry, reportError } from '@renamer/telemetry';
import { type ConnectionOptions, type Job, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { bullPrefix } from './queues';

export interface JobContext {
  /** Carries `jobId` and the job's name, and `batchId` and `imageId` when the payload has them. */
  logger: Logger;
  /** Whether a failure now fails the job for good (no attempt is left). */
  finalAttempt: boolean;
}

export interface Handler<N extends JobName> {
  /** Runs one attempt; a throw fails it, and the catalog's retry policy decides what follows. */
  handle(payload: JobPayload<N>, context: JobContext): Promise<unknown>;
  /**
   * Runs once the job has failed for good, whether its last attempt threw or its workers died too often
   * (the job stalled past the limit and never reached `handle`'s own failure path).
   */
  onFailedForGood?(payload: JobPayload<N>, context: JobContext, error: Error): Promise<void>;
}

/** One handler per catalog job: a missing or extra one is a compile error, not a start-up check. */
export type JobHandlers = { readonly [N in JobName]: Handler<N> };

export interface WorkerEvents {
  onCompleted?: (job: Job, durationMs: number) => void;
  onFailed?: (job: Job | undefined, error: Error) => void;
}

export interface WorkerPoolOptions extends WorkerEvents {
  connection: ConnectionOptions;
  redisPrefix: string;
  logger: Logger;
  /** This deployment's departures from the catalog's queue settings (e.g. analysis concurrency). */
  queues?: { readonly [Q in QueueName]?: Partial<QueueSettings> };
  /** How long a job's lock lasts, and how often stalled jobs (their worker died) are looked for. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface WorkerPool {
  /** Starts taking jobs from every queue. */
  run(): void;
  /** Lets running jobs finish; BullMQ hands any left unfinished to another worker after the stalled check. */
  close(): Promise<void>;
}

/** A job may stall (its worker died) this often and run again before it fails for good. */
const MAX_STALLED_COUNT = 2;
const CORRELATION_KEYS = ['batchId', 'imageId'] as const;

function jobLogger(logger: Logger, job: Job): Logger {
  const bindings: Record<string, unknown> = { jobId: job.id, job: job.name };
  for (const key of CORRELATION_KEYS) {
    if (typeof job.data?.[key] === 'string') bindings[key] = job.data[key];
  }
  return logger.child(bindings);
}

const isFinalAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/** The catalog knows every name the compiler does; one arriving from Redis may be anything. */
function catalogJobOn(queue: QueueName, name: string): JobName {
  if (!isJobName(name) || JOB_CATALOG[name].queue !== queue) {
    throw new Error(`job ${name} is not in the catalog of queue ${queue}`);
  }
  return name;
}

function handlerWithPayload<N extends JobName>(handlers: JobHandlers, name: N, data: unknown) {
  const handler: Handler<N> = handlers[name];
  return { handler, payload: JOB_CATALOG[name].payload.parse(data) };
}

/**
 * A job taken from `queue`, checked against that queue's catalog: its handler, and its payload parsed by the
 * catalog's schema. Throws for a name the queue's catalog does not know, or a payload that does not match.
 */
const catalogJob = (handlers: JobHandlers, queue: QueueName, job: Job) =>
  handlerWithPayload(handlers, catalogJobOn(queue, job.name), job.data);

/**
 * One BullMQ worker per queue, each with its queue's concurrency and rate limit; every payload is
 * validated against the catalog before its handler sees it. Workers start on `run()`.
 */
export function createWorkerPool(handlers: JobHandlers, options: WorkerPoolOptions): WorkerPool {
  const { logger } = options;

  async function onFailed(queue: QueueName, job: Job | undefined, error: Error) {
    options.onFailed?.(job, error);
    if (!job) return logger.error({ err: error }, 'job failed');
    const log = jobLogger(logger, job);
    // A retried job is back in `delayed`; one that failed for good (last attempt, or stalled too often) stays failed.
    const final = (await job.getState().catch(() => 'failed')) === 'failed';
    log[final ? 'error' : 'warn']({ err: error, final }, 'job failed');
    if (final) reportError(error, { job: job.name, ...(job.id ? { jobId: job.id } : {}) });
    // Only a handler that settles a final failure needs the job again (its failure is logged above).
    if (!final || !isJobName(job.name) || !handlers[job.name].onFailedForGood) return;
    try {
      const { handler, payload } = catalogJob(handlers, queue, job);
      await handler.onFailedForGood?.(payload, { logger: log, finalAttempt: true }, error);
    } catch (err) {
      log.error({ err }, 'settling a job that failed for good failed');
    }
  }

  const telemetry = bullmqTelemetry();
  const workers = QUEUE_NAMES.map((queue) => {
    const settings = { ...QUEUE_CATALOG[queue], ...options.queues?.[queue] };
    const worker = new Worker(
      queue,
      (job) => {
        const { handler, payload } = catalogJob(handlers, queue, job);
        return handler.handle(payload, { logger: jobLogger(logger, job), finalAttempt: isFinalAttempt(job) });
      },
      {
        connection: options.connection,
        prefix: bullPrefix(options.redisPrefix),
        autorun: false,
        concurrency: settings.concurrency,
        ...(settings.rateLimit && {
          limiter: { max: settings.rateLimit.max, duration: settings.rateLimit.durationMs },
        }),
        ...(options.lockDurationMs && { lockDuration: options.lockDurationMs }),
        ...(options.stalledIntervalMs && { stalledInterval: options.stalledIntervalMs }),
        // A job whose worker died runs again (up to twice) instead of failing at the first stall.
        maxStalledCount: MAX_STALLED_COUNT,
        ...(telemetry && { telemetry }),
      },
    );
    worker.on('completed', (job) => {
      const durationMs = (job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now());
      options.onCompleted?.(job, durationMs);
      jobLogger(logger, job).info({ durationMs }, 'job completed');
    });
    worker.on('failed', (job, error) => void onFailed(queue, job, error));
    worker.on('error', (err) => logger.error({ err, queue }, 'worker error'));
    return worker;
  });

  return {
    run() {
      for (const worker of workers) {
        worker.run().catch((err) => logger.error({ err, queue: worker.name }, 'worker stopped'));
      }
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
    },
  };
}
