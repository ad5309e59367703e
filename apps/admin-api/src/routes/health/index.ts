import { AdminHealthResponse } from '@renamer/contracts';
import type { Queues } from '@renamer/jobs';
import { type HealthChecks, runHealthChecks } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { queueState } from '../queues/queue-state';

export interface HealthRoutesOptions {
  healthChecks: HealthChecks;
  queues: Queues;
}

/** Dependencies (with their errors: only admins see this), queue depths and live workers per queue. */
export async function healthRoutes(app: FastifyInstance, { healthChecks, queues }: HealthRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getAdminHealth',
        summary: 'Dependencies with their errors, queue depths and live workers',
        response: { 200: AdminHealthResponse },
      },
    },
    async () => {
      const [dependencies, queueStates] = await Promise.all([
        runHealthChecks(healthChecks),
        Promise.all(
          Object.entries(queues).map(
            async ([name, queue]) => [name, await queueState(queue).catch(() => null)] as const,
          ),
        ),
      ]);
      return { ...dependencies, queues: Object.fromEntries(queueStates) as AdminHealthResponse['queues'] };
    },
  );
}
