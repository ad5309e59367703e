import type { Metrics } from '@renamer/http';
import type { WorkerEvents } from '@renamer/jobs';
import { Counter, Histogram } from 'prom-client';

/** Job throughput, failures and durations, on the worker's own Prometheus registry. */
export function createJobMetrics(metrics: Metrics): Required<WorkerEvents> {
  const registers = [metrics.registry];
  const finished = new Counter({
    name: 'jobs_finished_total',
    help: 'Job attempts finished, by job name and outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'job_duration_seconds',
    help: 'Duration of successful jobs, by job name.',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  return {
    onCompleted: (job, durationMs) => {
      finished.inc({ job: job.name, outcome: 'completed' });
      durations.observe({ job: job.name }, durationMs / 1000);
    },
    onFailed: (job) => finished.inc({ job: job?.name ?? 'unknown', outcome: 'failed' }),
  };
}
