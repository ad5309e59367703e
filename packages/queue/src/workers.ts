import { JOB_CATALOG, JOB_NAMES, type JobName, type JobPayload, type QueueName } from '@renamer/contracts';
import { type ConnectionOptions, type Job, Worker } from 'bullmq';
import { bullPrefix } from './queues';

export interface JobHandler<N extends JobName = JobName> {
  name: N;
  handle: (payload: JobPayload<N>, job: Job) => Promise<unknown>;
}

export const defineHandler = <N extends JobName>(handler: JobHandler<N>) => handler as unknown as JobHandler;

/** A worker that cannot run every job in the catalog must not start: an unhandled job would wait forever. */
export function assertHandlersCover(handlers: readonly JobHandler[], catalog: readonly string[] = JOB_NAMES): void {
  const counts = new Map<string, number>();
  for (const { name } of handlers) counts.set(name, (counts.get(name) ?? 0) + 1);
  const missing = catalog.filter((name) => !counts.has(name));
  const doubled = [...counts].filter(([, n]) => n > 1).map(([name]) => name);
  const unknown = [...counts.keys()].filter((name) => !catalog.includes(name));
  const problems = [
    missing.length ? `no handler for ${missing.join(', ')}` : '',
    doubled.length ? `more than one handler for ${doubled.join(', ')}` : '',
    unknown.length ? `handlers for jobs not in the catalog: ${unknown.join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length) throw new Error(`Job handlers do not match the catalog: ${problems.join('; ')}`);
}

export interface WorkerEvents {
  onCompleted?: (job: Job, durationMs: number) => void;
  onFailed?: (job: Job | undefined, error: Error) => void;
}

/** One BullMQ worker per queue that has handlers; each job's payload is validated against the catalog. */
export function startWorkers(
  handlers: readonly JobHandler[],
  options: {
    connection: ConnectionOptions;
    redisPrefix: string;
    concurrency?: number;
    /** How long a job's lock lasts, and how often stalled jobs (their worker died) are looked for. */
    lockDurationMs?: number;
    stalledIntervalMs?: number;
  } & WorkerEvents,
): Worker[] {
  assertHandlersCover(handlers);
  const byQueue = new Map<QueueName, Map<string, JobHandler>>();
  for (const handler of handlers) {
    const queue = JOB_CATALOG[handler.name].queue;
    byQueue.set(queue, (byQueue.get(queue) ?? new Map()).set(handler.name, handler));
  }
  return [...byQueue].map(([queue, queueHandlers]) => {
    const worker = new Worker(
      queue,
      async (job) => {
        const handler = queueHandlers.get(job.name);
        if (!handler) throw new Error(`No handler for job ${job.name} on queue ${queue}`);
        const payload = JOB_CATALOG[handler.name].payload.parse(job.data);
        return handler.handle(payload as never, job);
      },
      {
        connection: options.connection,
        prefix: bullPrefix(options.redisPrefix),
        concurrency: options.concurrency ?? 4,
        ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
        ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
        // A job whose worker died runs again (up to twice) instead of failing at the first stall.
        maxStalledCount: 2,
      },
    );
    worker.on('completed', (job) =>
      options.onCompleted?.(job, (job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())),
    );
    worker.on('failed', (job, error) => options.onFailed?.(job, error));
    return worker;
  });
}
