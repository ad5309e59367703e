import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { batchStatusEnum } from './enums';
import { users } from './users';

export const batches = pgTable(
  'batches',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name'),
    status: batchStatusEnum('status').notNull().default('queued'),
    locale: text('locale').notNull().default('en'),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    /** What the person said about the whole batch ("handmade ceramic mugs for a coffee shop"). */
    context: text('context'),
    /** The naming template in force for the batch (`acme-{subject}-{seq:3}`); null means `{subject}`. */
    template: text('template'),
    /** What the person asks of the vision model ("mention the product colour"). */
    instructions: text('instructions'),
    total: integer('total').notNull().default(0),
    completedAt: timestamptz('completed_at'),
    /**
     * When the batch list or the account page first showed the date `RETAIN_ORIGINALS_DAYS` removes the batch: the
     * removal waits at least 7 days after it.
     */
    retentionNoticeAt: timestamptz('retention_notice_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('batches_user_id_created_at_id_idx').on(table.userId, table.createdAt, table.id),
    index('batches_status_updated_at_idx').on(table.status, table.updatedAt),
    index('batches_created_at_idx').on(table.createdAt),
    check('batches_total_non_negative', sql`${table.total} >= 0`),
    check('batches_context_length', sql`char_length(${table.context}) <= 500`),
    check('batches_template_length', sql`char_length(${table.template}) <= 200`),
    check('batches_instructions_length', sql`char_length(${table.instructions}) <= 500`),
  ],
);
