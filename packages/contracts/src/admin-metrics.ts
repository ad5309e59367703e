import { z } from 'zod';
import { QueueJobCounts } from './admin';

const Latency = z
  .object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() })
  .describe('Seconds, from the histogram’s buckets (as Prometheus’ histogram_quantile); null without samples.');

export const ServiceMetrics = z.object({
  name: z.string(),
  up: z.boolean(),
  error: z.string().optional().describe('Why its /metrics could not be read.'),
  uptimeSeconds: z.number().optional(),
  requests: z
    .object({
      total: z.number(),
      perSecond: z.number().describe('Averaged over the process’s life.'),
      byStatus: z.record(z.string(), z.number()).describe('By status class: 2xx, 3xx, 4xx, 5xx.'),
      latency: Latency,
    })
    .optional(),
  jobs: z
    .record(z.string(), z.object({ completed: z.number(), failed: z.number(), latency: Latency }))
    .optional()
    .describe('By job name: attempts finished and the duration of successful ones.'),
  websocketConnections: z.number().optional(),
  uploadsRejected: z.record(z.string(), z.number()).optional().describe('Files refused at upload, by problem code.'),
});
export type ServiceMetrics = z.infer<typeof ServiceMetrics>;

export const MetricsSummary = z.object({
  services: z.array(ServiceMetrics),
  queues: z.record(z.string(), QueueJobCounts.nullable()).describe('Jobs by state, read from the queues themselves.'),
  totals: z.object({
    requests: z.number(),
    serverErrors: z.number(),
    websocketConnections: z.number(),
    jobsFailed: z.number(),
    uploadsRejected: z.record(z.string(), z.number()),
  }),
});
export type MetricsSummary = z.infer<typeof MetricsSummary>;
