import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from './columns';
import { users } from './users';

/** Where a person's events are sent: an https URL, the events it takes, and the secret deliveries are signed with. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description'),
    /** `whsec_…`, shown once when the endpoint is made. */
    secret: text('secret').notNull(),
    /** Deliveries that failed for good in a row; reset by a success. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    disabledAt: timestamptz('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_endpoints_user_id_idx').on(table.userId),
    check('webhook_endpoints_url_length', sql`char_length(${table.url}) <= 2048`),
  ],
);

/**
 * One attempt to deliver one message: the message id (`webhook-id`) is the same on every attempt of it, and each
 * attempt is a row of its own, the log the person reads.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    attempt: integer('attempt').notNull(),
    /** `pending` (being sent), `delivered`, `failed` (tried again later unless it was the last). */
    status: text('status').notNull(),
    responseStatus: integer('response_status'),
    error: text('error'),
    nextAttemptAt: timestamptz('next_attempt_at'),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_endpoint_id_created_at_idx').on(table.endpointId, table.createdAt),
    index('webhook_deliveries_message_id_idx').on(table.messageId),
    // The reconciler's window: attempts not delivered, by when their next step was due.
    index('webhook_deliveries_unsettled_idx')
      .on(sql`coalesce(${table.nextAttemptAt}, ${table.createdAt})`)
      .where(sql`${table.status} <> 'delivered'`),
    check('webhook_deliveries_status', sql`${table.status} in ('pending', 'delivered', 'failed')`),
  ],
);
