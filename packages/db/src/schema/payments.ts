import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { paymentStatusEnum } from './enums';
import { users } from './users';

export const payments = pgTable(
  'payments',
  {
    id: id(),
    // Set null, not cascade: the payment record outlives the account (accounting, refunds, disputes).
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    stripeCustomerId: text('stripe_customer_id'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    stripeInvoiceId: text('stripe_invoice_id'),
    stripeCheckoutSessionId: text('stripe_checkout_session_id'),
    /** In the currency's minor unit (cents). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: paymentStatusEnum('status').notNull().default('pending'),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('payments_user_id_created_at_id_idx').on(table.userId, table.createdAt, table.id),
    index('payments_created_at_id_idx').on(table.createdAt, table.id),
    uniqueIndex('payments_stripe_payment_intent_id_key').on(table.stripePaymentIntentId),
    uniqueIndex('payments_stripe_invoice_id_key').on(table.stripeInvoiceId),
    uniqueIndex('payments_stripe_checkout_session_id_key').on(table.stripeCheckoutSessionId),
    check('payments_amount_non_negative', sql`${table.amount} >= 0`),
    check(
      'payments_refunded_amount_range',
      sql`${table.refundedAmount} >= 0 and ${table.refundedAmount} <= ${table.amount}`,
    ),
    check('payments_currency_format', sql`${table.currency} ~ '^[a-z]{3}$'`),
  ],
);
