import { AnalyticsQuery, AnalyticsResponse } from '@renamer/contracts';
import type { AnalyticsRepository } from '@renamer/db';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export interface AnalyticsRoutesOptions {
  analytics: AnalyticsRepository;
}

/** The service's activity over a range, aggregated by the database (four statements' worth of work). */
export async function analyticsRoutes(app: FastifyInstance, { analytics }: AnalyticsRoutesOptions) {
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
    async (request) => {
      const range = request.query;
      const [summary, activity, revenue] = await Promise.all([
        analytics.summary(range),
        analytics.dailyActivity(range),
        analytics.dailyRevenue(range),
      ]);
      return {
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        ...summary,
        daily: activity.map((day) => ({
          ...day,
          revenue: revenue
            .filter((entry) => entry.date === day.date)
            .map(({ currency, amount }) => ({ currency, amount })),
        })),
      };
    },
  );
}
