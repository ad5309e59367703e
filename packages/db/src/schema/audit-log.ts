import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { users } from './users';

/** Append-only: no updated_at. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    // Set null, not cascade: deleting an admin's account must not erase what that admin did.
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** The target as it was before the action, and after it; null where the action creates or reads nothing. */
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    /** The request that made the change, to find its log lines and trace. */
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('audit_log_created_at_id_idx').on(table.createdAt, table.id),
    index('audit_log_actor_id_idx').on(table.actorId),
    index('audit_log_target_idx').on(table.targetType, table.targetId),
    index('audit_log_action_idx').on(table.action),
  ],
);
