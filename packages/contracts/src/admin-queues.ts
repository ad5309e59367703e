import { z } from 'zod';
import { QueueState } from './admin';
import { CLEANUP_TASKS, QUEUE_NAMES } from './jobs';

export const QueueNameParams = z.object({ name: z.string().max(100) });

export const QueueView = QueueState.extend({ name: z.enum(QUEUE_NAMES) });
export const QueueList = z.object({ items: z.array(QueueView) });

export const CLEANABLE_JOB_STATES = ['completed', 'failed', 'delayed', 'wait'] as const;

export const CleanQueueBody = z.object({
  state: z.enum(CLEANABLE_JOB_STATES),
  graceMs: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Only jobs older than this (BullMQ’s grace); 0 takes every job in the state.'),
  limit: z.number().int().min(1).max(100_000).default(10_000).describe('At most this many jobs per call.'),
});

export const CleanQueueResponse = z.object({
  name: z.enum(QUEUE_NAMES),
  state: z.enum(CLEANABLE_JOB_STATES),
  removed: z.number().int(),
});

export const FailedJobsQuery = z.object({
  start: z.coerce.number().int().min(0).default(0).describe('Offset among the failed jobs, newest first.'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const FailedJob = z.object({
  id: z.string(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()).describe('The job’s payload (ids only: no personal data travels in jobs).'),
  failedReason: z.string().nullable(),
  attemptsMade: z.number().int(),
  createdAt: z.iso.datetime(),
  failedAt: z.iso.datetime().nullable(),
});

export const FailedJobList = z.object({ items: z.array(FailedJob), total: z.number().int() });

export const JobParams = z.object({ name: z.string().max(100), jobId: z.string().max(200) });

export const CleanupParams = z.object({ task: z.string().max(100) });
export const CleanupQuery = z.object({
  dryRun: z.stringbool().default(false).describe('Only count (and sample) what would be removed.'),
});

export const CleanupResult = z.object({
  task: z.enum(CLEANUP_TASKS),
  removed: z.number().int().min(0).describe('What was removed, or with a dry run what would be.'),
  dryRun: z.boolean(),
  sample: z.array(z.string()).optional().describe('A few of them (ids or object keys).'),
});
export type CleanupResult = z.infer<typeof CleanupResult>;
