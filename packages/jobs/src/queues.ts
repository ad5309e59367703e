import { JOB_CATALOG, type JobName, type JobPayload, QUEUE_NAMES, type QueueName } from '@renamer/contracts';
import { bullmqTelemetry } from '@renamer/telemetry';
import { type ConnectionOptions, type Job, Queue } from 'bullmq';

/** BullMQ keys live under the service's Redis prefix, so test runs and `npm start` never share queues. */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}bull`;

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: ConnectionOptions, redisPrefix: string): Queues {
  const prefix = bullPrefix(redisPrefix);
  const telemetry = bullmqTelemetry();
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => [name, new Queue(name, { connection, prefix, ...(telemetry && { telemetry }) })]),
  ) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}

export function jobOptions<N extends JobName>(name: N, payload: JobPayload<N>) {
  const definition = JOB_CATALOG[name];
  const jobId = definition.jobId?.(payload);
  return {
    attempts: definition.attempts,
    backoff: { type: 'exponential' as const, delay: definition.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
    ...(jobId ? { jobId } : {}),
  };
}

/** Queues a job by its catalog name; the payload is checked against the catalog's schema first. */
export async function enqueue<N extends JobName>(queues: Queues, name: N, payload: JobPayload<N>): Promise<Job> {
  const definition = JOB_CATALOG[name];
  const data = definition.payload.parse(payload);
  return queues[definition.queue].add(name, data, jobOptions(name, data));
}

/**
 * Makes a fixed job id free to queue again: a finished job (completed or failed) holding it is removed. False
 * while a job holding it is still waiting, delayed or running: that job will do the work.
 */
export async function freeJobId(queue: Queue, jobId: string): Promise<boolean> {
  const job = await queue.getJob(jobId);
  if (!job) return true;
  const state = await job.getState();
  if (state !== 'completed' && state !== 'failed') return false;
  await job.remove();
  return true;
}

/** Runs a catalog job every `everyMs`; upserting keeps one schedule however many workers start. */
export async function scheduleEvery<N extends JobName>(
  queues: Queues,
  name: N,
  payload: JobPayload<N>,
  everyMs: number,
): Promise<void> {
  const definition = JOB_CATALOG[name];
  const data = definition.payload.parse(payload);
  const { jobId: _fixedIdsDoNotRepeat, ...opts } = jobOptions(name, data);
  await queues[definition.queue].upsertJobScheduler(
    `${name}-every-${everyMs}`,
    { every: everyMs },
    { name, data, opts },
  );
}

/** Removes the schedule `scheduleEvery` made of `name` every `everyMs` (if there is one). */
export async function unscheduleEvery(queues: Queues, name: JobName, everyMs: number): Promise<void> {
  await queues[JOB_CATALOG[name].queue].removeJobScheduler(`${name}-every-${everyMs}`);
}
