import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { planEnum, roleEnum } from './enums';

export const users = pgTable(
  'users',
  {
    id: id(),
    provider: text('provider').notNull(),
    providerSubject: text('provider_subject').notNull(),
    displayName: text('display_name').notNull(),
    emailHash: text('email_hash').notNull(),
    /**
     * Whether the provider vouched for that email at the last sign-in: only such an account is joined by another
     * provider's identity with the same email (false for rows from before this was recorded, until their next).
     */
    emailVerified: boolean('email_verified').notNull().default(false),
    plan: planEnum('plan').notNull().default('basic'),
    quota: integer('quota').notNull().default(50),
    role: roleEnum('role').notNull().default('user'),
    bannedAt: timestamptz('banned_at'),
    banReason: text('ban_reason'),
    stripeCustomerId: text('stripe_customer_id'),
    // The quota counter: usage_count images accepted in the UTC month starting on usage_period.
    usagePeriod: date('usage_period', { mode: 'string' })
      .notNull()
      .default(sql`(date_trunc('month', now() at time zone 'UTC'))::date`),
    usageCount: integer('usage_count').notNull().default(0),
    /** The account's default naming template and model instructions, copied into each new batch. */
    template: text('template'),
    instructions: text('instructions'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_provider_subject_key').on(table.provider, table.providerSubject),
    uniqueIndex('users_stripe_customer_id_key').on(table.stripeCustomerId),
    index('users_email_hash_idx').on(table.emailHash),
    index('users_created_at_id_idx').on(table.createdAt, table.id),
    check('users_email_hash_format', sql`${table.emailHash} ~ '^[0-9a-f]{64}$'`),
    check('users_quota_non_negative', sql`${table.quota} >= 0`),
    check('users_usage_count_non_negative', sql`${table.usageCount} >= 0`),
    check('users_template_length', sql`char_length(${table.template}) <= 200`),
    check('users_instructions_length', sql`char_length(${table.instructions}) <= 500`),
  ],
);
