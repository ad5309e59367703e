import { AdminHealthResponse } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HealthService } from '../../services/health';

/** Dependencies (with their errors: only admins see this), queue depths and live workers per queue. */
export async function healthRoutes(app: FastifyInstance, { health }: { health: HealthService }) {
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
    async () => health.report(),
  );
}
