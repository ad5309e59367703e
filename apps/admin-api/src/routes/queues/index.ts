import {
  CleanQueueBody,
  CleanQueueResponse,
  FailedJobList,
  FailedJobsQuery,
  JobParams,
  QueueList,
  QueueNameParams,
  QueueView,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { QueueService } from '../../services/queues';
import { actorOf } from '../actor';

const RetriedJob = z.object({ id: z.string(), name: z.string(), state: z.string() });

/** BullMQ's own operations on the service's queues; each change is written to the audit log once done. */
export async function queueRoutes(app: FastifyInstance, { queues }: { queues: QueueService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queues'];

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
    async () => queues.list(),
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
      async (request) => queues[operation](actorOf(request), request.params.name),
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
    async (request) => queues.clean(actorOf(request), request.params.name, request.body),
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
    async (request) => queues.failed(request.params.name, request.query),
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
    async (request) => queues.retry(actorOf(request), request.params.name, request.params.jobId),
  );
}
