import { QUEUE_NAMES, QueueJobCounts } from '@renamer/contracts';
import type { Metrics } from '@renamer/http';
import type { Queues } from '@renamer/jobs';
import { Gauge } from 'prom-client';

const STATES = QueueJobCounts.keyof().options;

/** Every queue's jobs by state, read from Redis when Prometheus scrapes (the alert on a growing backlog reads it). */
export function registerQueueMetrics(metrics: Metrics, queues: Queues): void {
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each queue, by state.',
    labelNames: ['queue', 'state'] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const name of QUEUE_NAMES) {
        const counts = await queues[name].getJobCounts(...STATES).catch(() => null);
        if (!counts) continue;
        for (const state of STATES) this.set({ queue: name, state }, counts[state] ?? 0);
      }
    },
  });
}
