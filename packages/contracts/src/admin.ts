import { z } from 'zod';
import { Profile } from './auth';
import { ListQuery } from './batches';
import { ReadyResponse } from './health';
import { QUEUE_NAMES, type QueueName } from './jobs';
import { FreeText } from './text';

const count = z.number().int().min(0);

/** A queue's jobs by state, as BullMQ counts them. */
export const QueueJobCounts = z.object({
  waiting: count,
  active: count,
  delayed: count,
  failed: count,
  completed: count,
  prioritized: count,
  'waiting-children': count,
});

export const QueueState = QueueJobCounts.extend({ workers: count, paused: z.boolean() });

/**
 * `GET /api/admin/health`: readiness with each failed check's error (only admins see it), and every queue's
 * state (null when it could not be read).
 */
export const AdminHealthResponse = ReadyResponse.extend({
  queues: z.object(
    Object.fromEntries(QUEUE_NAMES.map((name) => [name, QueueState.nullable()])) as Record<
      QueueName,
      z.ZodNullable<typeof QueueState>
    >,
  ),
});
export type AdminHealthResponse = z.infer<typeof AdminHealthResponse>;

/** A user as operators see them. */
export const AdminUser = Profile.extend({
  bannedAt: z.iso.datetime().nullable(),
  banReason: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const BanUserBody = z.object({
  reason: FreeText.trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'),
});

export const AuditLogQuery = ListQuery.extend({
  actorId: z.uuid().optional(),
  action: z.string().max(100).optional().describe('e.g. `user.ban`, `feature_flag.update`, `payment.refund`.'),
  targetType: z.string().max(100).optional(),
  targetId: z.string().max(200).optional(),
  since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Inclusive.'),
  until: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Exclusive.'),
});

const JsonObject = z.record(z.string(), z.unknown());

export const AuditEntry = z.object({
  id: z.uuid(),
  actorId: z.uuid().nullable().describe('The admin; null once their account is deleted.'),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  before: JsonObject.nullable(),
  after: JsonObject.nullable(),
  details: JsonObject,
  requestId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const AuditLogList = z.object({ items: z.array(AuditEntry), nextCursor: z.string().nullable() });
