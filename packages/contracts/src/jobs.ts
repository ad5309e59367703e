import { z } from 'zod';
import { WEBHOOK_EVENTS } from './webhooks';

export const QUEUE_NAMES = ['batches', 'images', 'maintenance', 'webhooks'] as const;

/** The maintenance an operator runs (`POST /api/admin/cleanup/:task`) and the worker runs on a schedule. */
export const CLEANUP_TASKS = [
  'expired-downloads',
  'orphaned-objects',
  'stale-batches',
  'failed-jobs',
  /** Only when `RETAIN_ORIGINALS_DAYS` is set. */
  'retention',
] as const;
export type CleanupTask = (typeof CLEANUP_TASKS)[number];
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface QueueSettings {
  /** Jobs of this queue one worker process runs at once. */
  concurrency: number;
  /** At most `max` jobs of this queue start per `durationMs`, across every worker (BullMQ's limiter). */
  rateLimit?: { max: number; durationMs: number };
}

/** How each queue runs: work of different shapes (CPU, a provider's rate, housekeeping) scales apart. */
export const QUEUE_CATALOG: Readonly<Record<QueueName, QueueSettings>> = {
  /** Batch coordination: a few short queries per job. */
  batches: { concurrency: 4 },
  /** Image analysis: decoding is CPU-bound, so a handful per process; `WORKER_CONCURRENCY` overrides it. */
  images: { concurrency: 4 },
  /** Scheduled upkeep (reconcile, prune): one at a time is plenty. */
  maintenance: { concurrency: 1 },
  /** Webhook deliveries: each waits on someone else's server (10 s at most), so many at once. */
  webhooks: { concurrency: 8 },
};

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: QueueName;
  payload: S;
  /** A fixed id drops a second enqueue of the same work; BullMQ refuses `:` in custom ids. */
  jobId?: (payload: z.infer<S>) => string;
  attempts: number;
  backoffMs: number;
}

const define = <S extends z.ZodType>(definition: JobDefinition<S>) => definition;

const JOBS = {
  /** Parent of a batch's flow: runs once every child finished (failed children do not block it). */
  'process-batch': define({
    queue: 'batches',
    payload: z.object({
      batchId: z.uuid(),
      round: z.number().int().min(0),
      /** A round of names proposed again for some images: only these are named as a whole afterwards. */
      imageIds: z.array(z.uuid()).max(1000).nullable().optional(),
    }),
    jobId: ({ batchId, round }) => `process-batch-${batchId}-${round}`,
    attempts: 3,
    backoffMs: 2_000,
  }),
  /** Names a finished batch's images again from their stored analysis (`POST /api/batch/:batchId/propose`). */
  'propose-batch': define({
    queue: 'batches',
    payload: z.object({
      batchId: z.uuid(),
      imageIds: z.array(z.uuid()).max(1000).nullable(),
      includeEdited: z.boolean(),
      /** One job per request: two requests never merge. */
      requestId: z.uuid(),
    }),
    jobId: ({ batchId, requestId }) => `propose-batch-${batchId}-${requestId}`,
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
  cleanup: define({
    queue: 'maintenance',
    payload: z.object({ task: z.enum(CLEANUP_TASKS) }),
    attempts: 1,
    backoffMs: 2_000,
  }),
  /**
   * Something a person's webhooks may hear about happened: the handler finds the endpoints that take it and
   * queues one `deliver-webhook` per endpoint. The same event of the same batch or image is queued once.
   */
  'webhook-event': define({
    queue: 'webhooks',
    payload: z.object({
      type: z.enum(WEBHOOK_EVENTS),
      batchId: z.uuid(),
      imageId: z.uuid().optional(),
      /** When it happened (ms): with the fixed job id, a second report of the same moment is dropped. */
      at: z.number().int().min(0),
    }),
    jobId: ({ type, batchId, imageId, at }) => `webhook-event-${type.replace('.', '-')}-${imageId ?? batchId}-${at}`,
    attempts: 3,
    backoffMs: 2_000,
  }),
  /**
   * One attempt to deliver one message to one endpoint; a failed attempt queues the next itself (delayed, the
   * back-off of `WEBHOOKS_RETRY_BASE_MS`), so BullMQ's own retries are not used.
   */
  'deliver-webhook': define({
    queue: 'webhooks',
    payload: z.object({
      endpointId: z.uuid(),
      messageId: z.string().min(1).max(64),
      attempt: z.number().int().min(1),
      /** When the first attempt was queued (ISO): retries stop 24 hours after it. */
      firstAttemptAt: z.iso.datetime({ offset: true }),
    }),
    jobId: ({ endpointId, messageId, attempt }) => `deliver-webhook-${endpointId}-${messageId}-${attempt}`,
    attempts: 1,
    backoffMs: 2_000,
  }),
  /** Queues webhook attempts that fell due and never ran (their queueing failed, or their job was lost). */
  'reconcile-webhooks': define({
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
};

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;

/**
 * Every job the system runs: its queue, payload schema and retry policy. Typed per name, so code generic
 * in the name (`JOB_CATALOG[name].payload.parse`) still gets that job's payload type.
 */
export const JOB_CATALOG: { readonly [N in JobName]: JobDefinition<z.ZodType<JobPayload<N>>> } = JOBS;
export const JOB_NAMES = Object.keys(JOB_CATALOG) as JobName[];

/** A job name read from Redis is only a string: this tells whether the catalog knows it. */
export const isJobName = (name: string): name is JobName => Object.hasOwn(JOB_CATALOG, name);
