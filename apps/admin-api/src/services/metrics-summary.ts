import type { ServiceMetrics } from '@renamer/contracts';
import parsePrometheusTextFormat, { type ParsedMetricFamily, type ParsedSample } from 'parse-prometheus-text-format';

const QUANTILES = { p50: 0.5, p95: 0.95, p99: 0.99 } as const;

/**
 * The q-quantile of cumulative histogram buckets, interpolated linearly inside its bucket as Prometheus'
 * histogram_quantile does; null without samples, the largest finite bound when it falls in the +Inf bucket.
 */
export function histogramQuantile(buckets: ReadonlyMap<number, number>, q: number): number | null {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Number.POSITIVE_INFINITY) ?? buckets.get(bounds.at(-1)!) ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound)!;
    if (count >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return previousBound;
      return previousBound + ((bound - previousBound) * (rank - previousCount)) / (count - previousCount || 1);
    }
    previousBound = bound;
    previousCount = count;
  }
  return previousBound;
}

const familyNamed = (families: ParsedMetricFamily[], name: string) => families.find((family) => family.name === name);
const sumOf = (samples: ParsedSample[]) => samples.reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);

/** Adds up the buckets of the samples (every label set) into one histogram. */
function mergedBuckets(samples: ParsedSample[]): Map<number, number> {
  const merged = new Map<number, number>();
  for (const sample of samples) {
    for (const [bound, count] of Object.entries(sample.buckets ?? {})) {
      const key = bound === '+Inf' ? Number.POSITIVE_INFINITY : Number(bound);
      merged.set(key, (merged.get(key) ?? 0) + Number(count));
    }
  }
  return merged;
}

const latencyOf = (samples: ParsedSample[]) => {
  const buckets = mergedBuckets(samples);
  return Object.fromEntries(
    Object.entries(QUANTILES).map(([name, q]) => [name, histogramQuantile(buckets, q)]),
  ) as Record<keyof typeof QUANTILES, number | null>;
};

function groupBy(samples: ParsedSample[], label: string): Map<string, ParsedSample[]> {
  const groups = new Map<string, ParsedSample[]>();
  for (const sample of samples) {
    const key = sample.labels?.[label] ?? 'unknown';
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  return groups;
}

/** What an operator reads first of one service's Prometheus text. */
export function summariseService(name: string, text: string, nowSeconds: number): ServiceMetrics {
  const families = parsePrometheusTextFormat(text);
  const startedAt = Number(familyNamed(families, 'process_start_time_seconds')?.metrics[0]?.value);
  const uptimeSeconds = Number.isFinite(startedAt) ? Math.max(nowSeconds - startedAt, 0) : undefined;
  const summary: ServiceMetrics = { name, up: true, ...(uptimeSeconds !== undefined ? { uptimeSeconds } : {}) };

  const requests = familyNamed(families, 'http_requests_total')?.metrics ?? [];
  if (requests.length > 0) {
    const total = sumOf(requests);
    const byStatus: Record<string, number> = {};
    for (const sample of requests) {
      const statusClass = `${(sample.labels?.status ?? '0')[0]}xx`;
      byStatus[statusClass] = (byStatus[statusClass] ?? 0) + Number(sample.value ?? 0);
    }
    summary.requests = {
      total,
      perSecond: uptimeSeconds ? total / uptimeSeconds : 0,
      byStatus,
      latency: latencyOf(familyNamed(families, 'http_request_duration_seconds')?.metrics ?? []),
    };
  }

  const finished = familyNamed(families, 'jobs_finished_total')?.metrics;
  if (finished) {
    const durations = groupBy(familyNamed(families, 'job_duration_seconds')?.metrics ?? [], 'job');
    summary.jobs = Object.fromEntries(
      [...groupBy(finished, 'job')].map(([job, samples]) => [
        job,
        {
          completed: sumOf(samples.filter((sample) => sample.labels?.outcome === 'completed')),
          failed: sumOf(samples.filter((sample) => sample.labels?.outcome === 'failed')),
          latency: latencyOf(durations.get(job) ?? []),
        },
      ]),
    );
  }

  const sockets = familyNamed(families, 'ws_connections')?.metrics;
  if (sockets) summary.websocketConnections = sumOf(sockets);
  const rejected = familyNamed(families, 'uploads_rejected_total')?.metrics;
  if (rejected) {
    summary.uploadsRejected = Object.fromEntries(
      [...groupBy(rejected, 'code')].map(([code, samples]) => [code, sumOf(samples)]),
    );
  }
  return summary;
}
