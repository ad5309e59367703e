import { CLEANUP_TASKS, CleanupParams, CleanupQuery, CleanupResult } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CleanupService } from '../../services/cleanup';
import { actorOf } from '../actor';

/** The maintenance tasks, on demand; the worker runs the same on its schedule. */
export async function cleanupRoutes(app: FastifyInstance, { cleanup }: { cleanup: CleanupService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/cleanup/:task',
    {
      schema: {
        tags: ['cleanup'],
        operationId: 'runCleanup',
        summary: `Run a cleanup task (${CLEANUP_TASKS.join(', ')}); with dryRun=true only count`,
        params: CleanupParams,
        querystring: CleanupQuery,
        response: { 200: CleanupResult },
      },
    },
    async (request) => cleanup.run(actorOf(request), request.params.task, { dryRun: request.query.dryRun }),
  );
}
