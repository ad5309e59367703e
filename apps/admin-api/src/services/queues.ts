import { AppError, type CleanQueueBody, type FailedJobsQuery, QUEUE_NAMES, type QueueName } from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import type { Queues } from '@renamer/jobs';
import type { Job, Queue } from 'bullmq';
import type { z } from 'zod';
import { type Actor, entryBy } from './audit';
import { queueState } from './queue-state';

export interface QueueServiceDeps {
  queues: Queues;
  auditLog: Pick<AuditLogRepository, 'append'>;
}

type NamedQueue = Queue & { name: QueueName };

const isQueueName = (name: string): name is QueueName => (QUEUE_NAMES as readonly string[]).includes(name);

const failedJobView = (job: Job) => ({
  id: job.id ?? '',
  name: job.name,
  data: (job.data ?? {}) as Record<string, unknown>,
  failedReason: job.failedReason || null,
  attemptsMade: job.attemptsMade,
  createdAt: new Date(job.timestamp).toISOString(),
  failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
});

/**
 * BullMQ's own operations on the service's queues. A change lives in Redis, so no transaction can hold it with
 * its audit entry: each operation writes the entry itself, once BullMQ has done the change.
 */
export function createQueueService({ queues, auditLog }: QueueServiceDeps) {
  const queueNamed = (name: string): NamedQueue => {
    if (!isQueueName(name))
      throw new AppError('not_found', `There is no queue ${name}; the queues are ${QUEUE_NAMES.join(', ')}.`);
    return queues[name] as NamedQueue;
  };
  const view = async (queue: NamedQueue) => ({ name: queue.name, ...(await queueState(queue)) });

  /** Stops (`pause`) or restarts (`resume`) every worker taking jobs from the queue; running jobs finish. */
  async function setPaused(actor: Actor, name: string, operation: 'pause' | 'resume') {
    const queue = queueNamed(name);
    const wasPaused = await queue.isPaused();
    await queue[operation]();
    const after = await view(queue);
    await auditLog.append(
      entryBy(actor, {
        action: `queue.${operation}`,
        targetType: 'queue',
        targetId: queue.name,
        before: { paused: wasPaused },
        after: { paused: after.paused },
      }),
    );
    return after;
  }

  return {
    /** Every queue with its jobs by state, live workers and whether it is paused. */
    list: async () => ({ items: await Promise.all(QUEUE_NAMES.map((name) => view(queueNamed(name)))) }),

    pause: (actor: Actor, name: string) => setPaused(actor, name, 'pause'),
    resume: (actor: Actor, name: string) => setPaused(actor, name, 'resume'),

    /** Removes the queue's jobs in one state (BullMQ's clean). */
    async clean(actor: Actor, name: string, { state, graceMs, limit }: z.output<typeof CleanQueueBody>) {
      const queue = queueNamed(name);
      const removed = (await queue.clean(graceMs, limit, state)).length;
      await auditLog.append(
        entryBy(actor, {
          action: 'queue.clean',
          targetType: 'queue',
          targetId: queue.name,
          details: { state, graceMs, limit, removed },
        }),
      );
      return { name: queue.name, state, removed };
    },

    /** The queue's failed jobs with their reasons, newest first. */
    async failed(name: string, { start, limit }: z.output<typeof FailedJobsQuery>) {
      const queue = queueNamed(name);
      const [jobs, total] = await Promise.all([queue.getFailed(start, start + limit - 1), queue.getFailedCount()]);
      return { items: jobs.filter(Boolean).map(failedJobView), total };
    },

    /** Runs one failed job again. */
    async retry(actor: Actor, name: string, jobId: string) {
      const queue = queueNamed(name);
      const job = await queue.getJob(jobId);
      if (!job) throw new AppError('not_found', 'There is no such job in this queue.');
      const state = await job.getState();
      if (state !== 'failed') throw new AppError('conflict', `Only a failed job can be retried; this one is ${state}.`);
      await job.retry('failed');
      await auditLog.append(
        entryBy(actor, {
          action: 'queue.retry_job',
          targetType: 'job',
          targetId: `${queue.name}:${job.id}`,
          before: { state },
          after: { state: 'waiting' },
          details: { name: job.name, failedReason: job.failedReason },
        }),
      );
      return { id: job.id ?? jobId, name: job.name, state: await job.getState() };
    },
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
