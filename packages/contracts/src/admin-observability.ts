import { z } from 'zod';

export const SHIPPED_LOG_LEVELS = ['warn', 'error', 'fatal'] as const;

export const LogQuery = z.object({
  level: z.enum(SHIPPED_LOG_LEVELS).optional().describe('This level and worse.'),
  service: z.string().max(100).optional().describe('api, worker, admin-api.'),
  requestId: z.string().max(200).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const LogEntry = z.object({
  id: z.string().describe('The entry’s id in the stream (its time, in milliseconds, and a sequence number).'),
  time: z.string(),
  level: z.string(),
  service: z.string(),
  msg: z.string(),
  requestId: z.string().optional(),
  traceId: z.string().optional(),
  err: z.object({ type: z.string(), message: z.string() }).optional(),
});
export type LogEntry = z.infer<typeof LogEntry>;

export const LogList = z.object({ items: z.array(LogEntry) });
