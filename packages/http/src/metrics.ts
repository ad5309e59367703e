import { type HealthChecks, runHealthChecks } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

/** One registry per service, so two services in one process (tests) never share counters. */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, requests, durations };
}

/** Counts and times every request by its route pattern (never the raw URL, which would explode cardinality). */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}

/** Whether each dependency answers, checked when Prometheus scrapes: what the readiness alert reads. */
export function registerReadinessMetric(metrics: Metrics, checks: HealthChecks): void {
  new Gauge({
    name: 'health_check_up',
    help: 'Whether the dependency answered its readiness check (1) or not (0), by check.',
    labelNames: ['check'] as const,
    registers: [metrics.registry],
    async collect() {
      const { checks: results } = await runHealthChecks(checks);
      for (const [check, { ok }] of Object.entries(results)) this.set({ check }, ok ? 1 : 0);
    },
  });
}
