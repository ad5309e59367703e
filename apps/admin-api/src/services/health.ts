import type { AdminHealthResponse } from '@renamer/contracts';
import type { Queues } from '@renamer/jobs';
import { type HealthChecks, runHealthChecks } from '@renamer/runtime';
import { queueState } from './queue-state';

/** Dependencies (with their errors: only admins see this), queue depths and live workers per queue. */
export function createHealthService(deps: { healthChecks: HealthChecks; queues: Queues }) {
  return {
    async report(): Promise<AdminHealthResponse> {
      const [dependencies, queueStates] = await Promise.all([
        runHealthChecks(deps.healthChecks),
        Promise.all(
          Object.entries(deps.queues).map(
            async ([name, queue]) => [name, await queueState(queue).catch(() => null)] as const,
          ),
        ),
      ]);
      return { ...dependencies, queues: Object.fromEntries(queueStates) as AdminHealthResponse['queues'] };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
