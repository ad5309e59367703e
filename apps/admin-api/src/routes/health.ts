import type { Queues } from '@renamer/queue';
import { CHECK_TIMEOUT_MS, type HealthChecks, runHealthChecks, withTimeout } from '@renamer/service-kit';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

export interface AdminHealthOptions {
  healthChecks: HealthChecks;
  queues: Queues;
}

/** Dependencies (with their errors: only admins see this), queue depths and live workers per queue. */
export async function adminHealthRoutes(app: FastifyInstance, { healthChecks, queues }: AdminHealthOptions) {
  app.get('/api/admin/health', async () => {
    const [dependencies, queueStates] = await Promise.all([
      runHealthChecks(healthChecks),
      Promise.all(
        Object.entries(queues).map(async ([name, queue]) => [name, await queueState(queue).catch(() => null)] as const),
      ),
    ]);
    return { ...dependencies, queues: Object.fromEntries(queueStates) };
  });
}

async function queueState(queue: Queue) {
  const [counts, workers, paused] = await withTimeout(
    Promise.all([
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'),
      queue.getWorkersCount(),
      queue.isPaused(),
    ]),
    CHECK_TIMEOUT_MS,
    `queue ${queue.name}`,
  );
  return { ...counts, workers, paused };
}
