import {
  AppError,
  CleanQueueBody,
  CleanQueueResponse,
  FailedJobList,
  FailedJobsQuery,
  JobParams,
  QUEUE_NAMES,
  QueueList,
  type QueueName,
  QueueNameParams,
  QueueView,
} from '@renamer/contracts';
import type { AuditLogRepository } from '@renamer/db';
import type { Queues } from '@renamer/jobs';
import type { Job, Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAdminAction } from '../../audit';
import { queueState } from './queue-state';

export interface QueueRoutesOptions {
  queues: Queues;
  auditLog: Pick<AuditLogRepository, 'append'>;
}

const RetriedJob = z.object({ id: z.string(), name: z.string(), state: z.string() });

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

/** BullMQ's own operations on the service's queues; each change is written to the audit log once done. */
export async function queueRoutes(app: FastifyInstance, { queues, auditLog }: QueueRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queues'];
  const queueNamed = (name: string): Queue & { name: QueueName } => {
    if (!isQueueName(name))
      throw new AppError('not_found', `There is no queue ${name}; the queues are ${QUEUE_NAMES.join(', ')}.`);
    return queues[name] as Queue & { name: QueueName };
  };
  const view = async (queue: Queue & { name: QueueName }) => ({ name: queue.name, ...(await queueState(queue)) });

  typed.get(
    '/api/admin/queues',
    {
      schema: {
        tags,
        operationId: 'listQueues',
        summary: 'Every queue with its jobs by state, live workers and whether it is paused',
        response: { 200: QueueList },
      },
    },
    async () => ({ items: await Promise.all(QUEUE_NAMES.map((name) => view(queueNamed(name)))) }),
  );

  for (const operation of ['pause', 'resume'] as const) {
    typed.post(
      `/api/admin/queues/:name/${operation}`,
      {
        schema: {
          tags,
          operationId: `${operation}Queue`,
          summary:
            operation === 'pause'
              ? 'Stop every worker taking new jobs from the queue (running jobs finish)'
              : 'Let the workers take jobs from the queue again',
          params: QueueNameParams,
          response: { 200: QueueView },
        },
      },
      async (request) => {
        const queue = queueNamed(request.params.name);
        const wasPaused = await queue.isPaused();
        await queue[operation]();
        const after = await view(queue);
        await recordAdminAction(auditLog, request, {
          action: `queue.${operation}`,
          targetType: 'queue',
          targetId: queue.name,
          before: { paused: wasPaused },
          after: { paused: after.paused },
        });
        return after;
      },
    );
  }

  typed.post(
    '/api/admin/queues/:name/clean',
    {
      schema: {
        tags,
        operationId: 'cleanQueue',
        summary: 'Remove the queue’s jobs in one state (BullMQ’s clean)',
        params: QueueNameParams,
        body: CleanQueueBody,
        response: { 200: CleanQueueResponse },
      },
    },
    async (request) => {
      const queue = queueNamed(request.params.name);
      const { state, graceMs, limit } = request.body;
      const removed = (await queue.clean(graceMs, limit, state)).length;
      await recordAdminAction(auditLog, request, {
        action: 'queue.clean',
        targetType: 'queue',
        targetId: queue.name,
        details: { state, graceMs, limit, removed },
      });
      return { name: queue.name, state, removed };
    },
  );

  typed.get(
    '/api/admin/queues/:name/failed',
    {
      schema: {
        tags,
        operationId: 'listFailedJobs',
        summary: 'The queue’s failed jobs with their reasons, newest first',
        params: QueueNameParams,
        querystring: FailedJobsQuery,
        response: { 200: FailedJobList },
      },
    },
    async (request) => {
      const queue = queueNamed(request.params.name);
      const { start, limit } = request.query;
      const [jobs, total] = await Promise.all([queue.getFailed(start, start + limit - 1), queue.getFailedCount()]);
      return { items: jobs.filter(Boolean).map(failedJobView), total };
    },
  );

  typed.post(
    '/api/admin/queues/:name/jobs/:jobId/retry',
    {
      schema: {
        tags,
        operationId: 'retryJob',
        summary: 'Run one failed job again',
        params: JobParams,
        response: { 200: RetriedJob },
        errors: ['conflict'],
      },
    },
    async (request) => {
      const queue = queueNamed(request.params.name);
      const job = await queue.getJob(request.params.jobId);
      if (!job) throw new AppError('not_found', 'There is no such job in this queue.');
      const state = await job.getState();
      if (state !== 'failed') throw new AppError('conflict', `Only a failed job can be retried; this one is ${state}.`);
      await job.retry('failed');
      await recordAdminAction(auditLog, request, {
        action: 'queue.retry_job',
        targetType: 'job',
        targetId: `${queue.name}:${job.id}`,
        before: { state },
        after: { state: 'waiting' },
        details: { name: job.name, failedReason: job.failedReason },
      });
      return { id: job.id ?? request.params.jobId, name: job.name, state: await job.getState() };
    },
  );
}
