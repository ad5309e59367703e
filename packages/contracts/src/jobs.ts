import { z } from 'zod';

export const QUEUE_NAMES = ['batches', 'images', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  queue: QueueName;
  payload: P;
  /** A fixed id drops a second enqueue of the same work; BullMQ refuses `:` in custom ids. */
  jobId?: (payload: z.infer<P>) => string;
  attempts: number;
  backoffMs: number;
}

const define = <P extends z.ZodType>(definition: JobDefinition<P>) => definition;

/** Every job the system runs: its queue, payload schema and retry policy. Workers must handle each one. */
export const JOB_CATALOG = {
  /** Parent of a batch's flow: runs once every child finished (failed children do not block it). */
  'process-batch': define({
    queue: 'batches',
    payload: z.object({ batchId: z.uuid(), round: z.number().int().min(0) }),
    jobId: ({ batchId, round }) => `process-batch-${batchId}-${round}`,
    attempts: 3,
    backoffMs: 2_000,
  }),
  'analyze-image': define({
    queue: 'images',
    payload: z.object({ imageId: z.uuid(), batchId: z.uuid() }),
    jobId: ({ imageId }) => `analyze-${imageId}`,
    attempts: 3,
    backoffMs: 2_000,
  }),
  /** Re-queues images left `queued` without a job (a crash between commit and enqueue). */
  'reconcile-images': define({
    queue: 'maintenance',
    payload: z.object({ olderThanSeconds: z.number().int().min(0) }),
    attempts: 1,
    backoffMs: 2_000,
  }),
  'prune-sessions': define({
    queue: 'maintenance',
    payload: z.object({ retentionDays: z.number().int().min(1).max(365) }),
    attempts: 3,
    backoffMs: 2_000,
  }),
} as const;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_CATALOG)[N]['payload']>;
export const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];
