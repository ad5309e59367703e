import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns';

export const webhookEvents = pgTable(
  'webhook_events',
  {
    /** The Stripe event id: the primary key is what makes processing once-only. */
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    processedAt: timestamptz('processed_at'),
    createdAt: createdAt(),
  },
  (table) => [index('webhook_events_created_at_idx').on(table.createdAt)],
);
