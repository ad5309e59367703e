import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/service-kit';
import { z } from 'zod';

export const workerEnvSchema = serviceEnvSchema({
  WORKER_PORT: portVariable(3003),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export const loadWorkerEnv = (source: NodeJS.ProcessEnv = process.env): WorkerEnv => parseEnv(workerEnvSchema, source);
