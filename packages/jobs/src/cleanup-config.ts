import { z } from 'zod';

/** Variables of the cleanup tasks, read by the worker (which runs them on a schedule) and the admin API. */
export const cleanupEnv = {
  /** A batch queued or processing with no image changed for this long is stuck: its images fail, to be retried. */
  STALE_BATCH_AFTER_MINUTES: z.coerce.number().int().min(5).default(120),
  /** Failed jobs are kept this long for operators to read, then removed. */
  FAILED_JOB_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
  /** The record of a download (GET /api/downloads, the admin analytics) is kept this long after its link expired. */
  DOWNLOAD_HISTORY_DAYS: z.coerce.number().int().min(0).default(90),
};

const cleanupEnvSchema = z.object(cleanupEnv);
export type CleanupEnv = z.infer<typeof cleanupEnvSchema>;
