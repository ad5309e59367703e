import type { ReadyResponse } from '@renamer/contracts';
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
