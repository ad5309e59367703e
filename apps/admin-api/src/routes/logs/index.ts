import { LogList, LogQuery } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { LogService } from '../../services/logs';

/** Recent warnings and errors of every service, newest first. */
export async function logRoutes(app: FastifyInstance, { logs }: { logs: LogService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/logs',
    {
      schema: {
        tags: ['observability'],
        operationId: 'listLogs',
        summary: 'Recent warnings and errors of every service, by level, service, request and time',
        querystring: LogQuery,
        response: { 200: LogList },
      },
    },
    async (request) => logs.recent(request.query),
  );
}
