import { type MetricsSummary, QUEUE_NAMES, type ServiceMetrics } from '@renamer/contracts';
import type { Metrics } from '@renamer/http';
import type { Queues } from '@renamer/jobs';
import { summariseService } from './metrics-summary';
import { queueState } from './queue-state';

export interface MetricsServiceDeps {
  /** The other services' `/metrics`, by name (METRICS_TARGETS). */
  targets: ReadonlyMap<string, string>;
  /** The admin API's own registry, read without a request. */
  own: Pick<Metrics, 'registry'>;
  queues: Queues;
}

const SCRAPE_TIMEOUT_MS = 2_000;

async function scrape(name: string, url: string): Promise<ServiceMetrics> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) });
    if (!response.ok) return { name, up: false, error: `${url} answered ${response.status}` };
    return summariseService(name, await response.text(), Date.now() / 1000);
  } catch (error) {
    return { name, up: false, error: `${url}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A JSON digest of every service's Prometheus metrics, and the queues' depths read from the queues. */
export function createMetricsService({ targets, own, queues }: MetricsServiceDeps) {
  return {
    async summary(): Promise<MetricsSummary> {
      const [services, depths] = await Promise.all([
        Promise.all([
          ...[...targets].map(([name, url]) => scrape(name, url)),
          own.registry.metrics().then((text) => summariseService('admin-api', text, Date.now() / 1000)),
        ]),
        Promise.all(QUEUE_NAMES.map(async (name) => [name, await queueState(queues[name]).catch(() => null)] as const)),
      ]);
      const uploadsRejected: Record<string, number> = {};
      for (const service of services) {
        for (const [code, count] of Object.entries(service.uploadsRejected ?? {})) {
          uploadsRejected[code] = (uploadsRejected[code] ?? 0) + count;
        }
      }
      const sum = (value: (service: ServiceMetrics) => number | undefined) =>
        services.reduce((total, service) => total + (value(service) ?? 0), 0);
      return {
        services,
        queues: Object.fromEntries(
          depths.map(([name, state]) => {
            if (!state) return [name, null];
            const { workers: _workers, paused: _paused, ...counts } = state;
            return [name, counts];
          }),
        ),
        totals: {
          requests: sum((service) => service.requests?.total),
          serverErrors: sum((service) => service.requests?.byStatus['5xx']),
          websocketConnections: sum((service) => service.websocketConnections),
          jobsFailed: sum((service) => Object.values(service.jobs ?? {}).reduce((total, job) => total + job.failed, 0)),
          uploadsRejected,
        },
      };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
