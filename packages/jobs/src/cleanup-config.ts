import { z } from 'zod';

/**
 * Unset (the default): originals are kept until the person deletes them. A number of days: the `retention` task
 * removes batches older than that, never sooner than 7 days after the batch list first showed the date. The API
 * reads it too (the dates it shows).
 */
export const retentionEnv = {
  RETAIN_ORIGINALS_DAYS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(1).optional(),
  ),
};

/** Variables of the cleanup tasks, read by the worker (which runs them on a schedule) and the admin API. */
export const cleanupEnv = {
  /** A batch queued or processing with no image changed for this long is stuck: its images fail, to be retried. */
  STALE_BATCH_AFTER_MINUTES: z.coerce.number().int().min(5).default(120),
  /** Failed jobs are kept this long for operators to read, then removed. */
  FAILED_JOB_RETENTION_DAYS: z.coerce.number().int().min(1).default(7),
  /** The record of a download (GET /api/downloads, the admin analytics) is kept this long after its link expired. */
  DOWNLOAD_HISTORY_DAYS: z.coerce.number().int().min(0).default(90),
  ...retentionEnv,
};

const cleanupEnvSchema = z.object(cleanupEnv);
export type CleanupEnv = z.infer<typeof cleanupEnvSchema>;
