import { boolean, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from './columns';
import { planEnum } from './enums';
import { users } from './users';

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeSubscriptionId: text('stripe_subscription_id').notNull(),
    plan: planEnum('plan').notNull(),
    /** Stripe's subscription status (active, trialing, past_due, canceled, …), kept verbatim. */
    status: text('status').notNull(),
    currentPeriodEnd: timestamptz('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * The `created` time of the newest Stripe event (or read) applied to this row: an older event arriving late
     * never moves the subscription backwards.
     */
    stripeStateAt: timestamptz('stripe_state_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_id_key').on(table.userId),
    uniqueIndex('subscriptions_stripe_subscription_id_key').on(table.stripeSubscriptionId),
  ],
);
