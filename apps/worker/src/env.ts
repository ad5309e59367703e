import { availableParallelism, tmpdir } from 'node:os';
import { QUEUE_CATALOG } from '@renamer/contracts';
import { cleanupEnv } from '@renamer/jobs';
import { llmEnv } from '@renamer/llm';
import { parseEnv, portVariable, serviceEnvSchema } from '@renamer/runtime';
import { DEFAULT_RETRY_BASE_MS } from '@renamer/webhooks';
import { z } from 'zod';
import { OPTIONAL_STEPS } from './analysis/optional-steps';

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).default(fallback);

export const workerEnvSchema = serviceEnvSchema({
  WORKER_PORT: portVariable(3003),
  /** Analyses one worker process runs at once; the other queues keep the catalog's concurrency. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(QUEUE_CATALOG.images.concurrency),
  HEIC_DECODE_THREADS: z.coerce.number().int().min(1).default(availableParallelism()),
  WORKER_LOCK_MS: milliseconds(30_000),
  WORKER_STALLED_CHECK_MS: milliseconds(30_000),
  RECONCILE_EVERY_MS: milliseconds(60_000),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).default(60),
  SESSION_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  WORK_DIR: z.string().min(1).default(tmpdir()),
  /** The optional analysis steps to run, comma-separated; the file header is always read. */
  ANALYSIS_STEPS: z
    .string()
    .default(OPTIONAL_STEPS.join(','))
    .transform((value) =>
      value
        .split(',')
        .map((step) => step.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(OPTIONAL_STEPS)))
    .transform((steps) => new Set(steps)),
  /** The summed probability of the unsafe classes above which an image is judged unsafe. */
  SAFETY_THRESHOLD: z.coerce.number().min(0).max(1).default(0.7),
  /** The first wait before a failed webhook delivery is tried again; each next wait doubles (up to 2 h, for 24 h). */
  WEBHOOKS_RETRY_BASE_MS: milliseconds(DEFAULT_RETRY_BASE_MS),
  ...llmEnv,
  ...cleanupEnv,
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;

export const loadWorkerEnv = (source: NodeJS.ProcessEnv = process.env): WorkerEnv => parseEnv(workerEnvSchema, source);
