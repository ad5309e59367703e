import { tmpdir } from 'node:os';
import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/service-kit';
import { z } from 'zod';

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).default(fallback);

export const workerEnvSchema = serviceEnvSchema({
  WORKER_PORT: portVariable(3003),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WORKER_LOCK_MS: milliseconds(30_000),
  WORKER_STALLED_CHECK_MS: milliseconds(30_000),
  RECONCILE_EVERY_MS: milliseconds(60_000),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).default(60),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  WORK_DIR: z.string().min(1).default(tmpdir()),
  /** Test hook only (ignored unless NODE_ENV=test): holds each analysis, so a test can kill a worker mid-job. */
  ANALYZE_TEST_DELAY_MS: z.coerce.number().int().min(0).default(0),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export const loadWorkerEnv = (source: NodeJS.ProcessEnv = process.env): WorkerEnv => parseEnv(workerEnvSchema, source);
