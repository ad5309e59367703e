import type { ReadyResponse } from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import { withTimeout } from './with-timeout';

export type HealthCheck = () => Promise<unknown>;
export type HealthChecks = Record<string, HealthCheck>;

export const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck) {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    await withTimeout(check(), CHECK_TIMEOUT_MS, 'check');
    return { ok: true, latencyMs: latencyMs() };
  } catch (error) {
    return { ok: false, latencyMs: latencyMs(), error: (error as Error).message };
  }
}

export async function runHealthChecks(checks: HealthChecks): Promise<ReadyResponse> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await runCheck(check)] as const),
  );
  const failed = entries.filter(([, result]) => !result.ok).map(([name]) => name);
  return { status: failed.length ? 'unavailable' : 'ok', checks: Object.fromEntries(entries), failed };
}

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
