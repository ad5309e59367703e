import { type HealthChecks, runHealthChecks } from '@renamer/runtime';
import type { FastifyInstance } from 'fastify';

/** `/health/live` says the process runs; `/health/ready` says its dependencies answer (503 names those that don't). */
export function registerHealthRoutes(app: FastifyInstance, checks: HealthChecks): void {
  app.get('/health/live', { logLevel: 'warn' }, async () => ({ status: 'ok' as const }));
  app.get('/health/ready', { logLevel: 'warn' }, async (request, reply) => {
    const result = await runHealthChecks(checks);
    if (result.failed.length) request.log.warn({ failed: result.failed, checks: result.checks }, 'not ready');
    // Causes stay in the log: connection errors name hosts and ports.
    const checksWithoutCauses = Object.fromEntries(
      Object.entries(result.checks).map(([name, { ok, latencyMs }]) => [name, { ok, latencyMs }]),
    );
    return reply.code(result.failed.length ? 503 : 200).send({ ...result, checks: checksWithoutCauses });
  });
}
