import type { PaymentStatus } from '@renamer/contracts';
import { type AnyColumn, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { keysetPage, type Page, type PageParams } from '../pagination';
import { payments } from '../schema';

export type Payment = typeof payments.$inferSelect;

export interface NewPayment {
  userId: string | null;
  amount: number;
  /** ISO 4217, lowercase (Stripe's form). */
  currency: string;
  status?: PaymentStatus;
  description?: string | null;
  stripeCustomerId?: string | null;
  stripePaymentIntentId?: string | null;
  stripeInvoiceId?: string | null;
  stripeCheckoutSessionId?: string | null;
}

export type PaymentUpdate = Partial<
  Pick<Payment, 'status' | 'amount' | 'description' | 'stripePaymentIntentId' | 'stripeInvoiceId'>
>;

export interface PaymentListParams extends PageParams {
  userId?: string;
  status?: PaymentStatus;
  /** ISO 4217, lowercase. */
  currency?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export function createPaymentRepository(db: Database) {
  async function findOneWhere(column: AnyColumn, value: string, tx?: Executor): Promise<Payment | null> {
    const [row] = await (tx ?? db).select().from(payments).where(eq(column, value));
    return row ?? null;
  }

  /** Everyone's payments (admin), newest first, optionally filtered. */
  async function list(params: PaymentListParams = {}, tx?: Executor): Promise<Page<Payment>> {
    return keysetPage(
      (tx ?? db).select().from(payments).$dynamic(),
      payments,
      params,
      'desc',
      params.userId ? eq(payments.userId, params.userId) : undefined,
      params.status ? eq(payments.status, params.status) : undefined,
      params.currency ? eq(payments.currency, params.currency) : undefined,
      params.from ? gte(payments.createdAt, params.from) : undefined,
      params.to ? lt(payments.createdAt, params.to) : undefined,
    );
  }

  return {
    async create(input: NewPayment, tx?: Executor): Promise<Payment> {
      const [row] = await (tx ?? db).insert(payments).values(input).returning();
      return row!;
    },

    async findById(id: string, tx?: Executor): Promise<Payment | null> {
      return findOneWhere(payments.id, id, tx);
    },

    async findByStripePaymentIntentId(paymentIntentId: string, tx?: Executor): Promise<Payment | null> {
      return findOneWhere(payments.stripePaymentIntentId, paymentIntentId, tx);
    },

    async findByStripeInvoiceId(invoiceId: string, tx?: Executor): Promise<Payment | null> {
      return findOneWhere(payments.stripeInvoiceId, invoiceId, tx);
    },

    async findByStripeCheckoutSessionId(checkoutSessionId: string, tx?: Executor): Promise<Payment | null> {
      return findOneWhere(payments.stripeCheckoutSessionId, checkoutSessionId, tx);
    },

    async update(id: string, update: PaymentUpdate, tx?: Executor): Promise<Payment | null> {
      const [row] = await (tx ?? db).update(payments).set(update).where(eq(payments.id, id)).returning();
      return row ?? null;
    },

    /**
     * Sets the total refunded so far (Stripe reports the running total) and derives the status from it:
     * refunded when it covers the amount, partially_refunded when it is less, unchanged at zero. A total above the amount is
     * refused by a check constraint.
     */
    async setRefundedAmount(id: string, refundedAmount: number, tx?: Executor): Promise<Payment | null> {
      const [row] = await (tx ?? db)
        .update(payments)
        .set({
          refundedAmount,
          status: sql`(case
            when ${refundedAmount}::integer = 0 then ${payments.status}
            when ${refundedAmount}::integer >= ${payments.amount} then 'refunded'
            else 'partially_refunded'
          end)::payment_status`,
        })
        .where(eq(payments.id, id))
        .returning();
      return row ?? null;
    },

    /** The user's payment history, newest first. */
    async listForUser(userId: string, params: PageParams = {}, tx?: Executor): Promise<Page<Payment>> {
      return list({ ...params, userId }, tx);
    },

    list,
  };
}

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;
