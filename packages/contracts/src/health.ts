import { z } from 'zod';

/** `/health/ready`: 200 when every check passes, 503 naming the failed ones (`db`, `redis`, `storage`). */
export const ReadyResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() })),
  failed: z.array(z.string()),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;
