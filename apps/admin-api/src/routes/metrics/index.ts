import { MetricsSummary } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { MetricsService } from '../../services/metrics';

/** A JSON digest of every service's Prometheus metrics, and the queues' depths read from the queues. */
export async function metricsRoutes(app: FastifyInstance, { metrics }: { metrics: MetricsService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/metrics',
    {
      schema: {
        tags: ['observability'],
        operationId: 'getMetricsSummary',
        summary: 'Request rates and latencies, jobs, queue depths, WebSockets and rejected uploads of every service',
        response: { 200: MetricsSummary },
      },
    },
    async () => metrics.summary(),
  );
}
