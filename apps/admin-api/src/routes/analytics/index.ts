import { AnalyticsQuery, AnalyticsResponse } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AnalyticsService } from '../../services/analytics';

/** The service's activity over a range. */
export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/analytics',
    {
      schema: {
        tags: ['analytics'],
        operationId: 'getAnalytics',
        summary: 'Users, batches, images, the vision model, revenue, upload rejections and a daily series over a range',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsResponse },
      },
    },
    async (request) => analytics.report(request.query),
  );
}
