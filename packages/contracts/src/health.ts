import { z } from 'zod';

export const HEALTH_CHECKS = ['db', 'redis', 'storage'] as const;
export type HealthCheckName = (typeof HEALTH_CHECKS)[number];

export const LiveResponse = z.object({ status: z.literal('ok') });
export const ReadyResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() })),
  failed: z.array(z.string()),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;
