import { type RefundDeps, refundPayment, toPaymentView } from '@renamer/billing';
import { type AdminPaymentListQuery, type AdminPaymentView, AppError, type RefundBody } from '@renamer/contracts';
import type { AuditLogRepository, Database, Payment, PaymentRepository } from '@renamer/db';
import type { z } from 'zod';
import { type Actor, entryBy } from './audit';

export interface PaymentServiceDeps {
  db: Pick<Database, 'transaction'>;
  payments: Pick<PaymentRepository, 'list' | 'findById' | 'setRefundedAmount'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  /** Null when payments are not configured: refunds answer 503 `payments_not_configured`. */
  stripe: RefundDeps['stripe'] | null;
}

const toAdminPaymentView = (payment: Payment): AdminPaymentView => ({
  ...toPaymentView(payment),
  userId: payment.userId,
  stripePaymentIntentId: payment.stripePaymentIntentId,
  stripeInvoiceId: payment.stripeInvoiceId,
});

/** Everyone's payments, and refunds through Stripe. */
export function createPaymentService(deps: PaymentServiceDeps) {
  return {
    async list(query: z.output<typeof AdminPaymentListQuery>) {
      const { from, to, ...filters } = query;
      const page = await deps.payments.list({
        ...filters,
        ...(from ? { from: new Date(from) } : {}),
        ...(to ? { to: new Date(to) } : {}),
      });
      return { items: page.items.map(toAdminPaymentView), nextCursor: page.nextCursor };
    },

    /**
     * Refunds through Stripe, then records Stripe's running total on the payment and the audit entry in one
     * transaction: neither is written without the other. Stripe's refund cannot join the transaction; should the
     * recording fail, a retry with the same Idempotency-Key gets the same refund from Stripe and records both (and
     * Stripe's `charge.refunded` webhook writes the total in any case).
     */
    async refund(
      actor: Actor,
      paymentId: string,
      request: z.output<typeof RefundBody>,
      idempotencyKey: string | undefined,
    ): Promise<AdminPaymentView> {
      const { stripe } = deps;
      if (!stripe) throw new AppError('payments_not_configured', 'Stripe is not configured on this service.');
      const before = await deps.payments.findById(paymentId);
      if (!before) throw new AppError('not_found', 'No such payment.');
      const recordRefunded = (id: string, refundedAmount: number) =>
        deps.db.transaction(async (tx) => {
          const after = await deps.payments.setRefundedAmount(id, refundedAmount, tx);
          if (!after) return null;
          await deps.auditLog.append(
            entryBy(actor, {
              action: 'payment.refund',
              targetType: 'payment',
              targetId: before.id,
              before: { status: before.status, refundedAmount: before.refundedAmount },
              after: { status: after.status, refundedAmount: after.refundedAmount },
              details: {
                amount: request?.amount ?? before.amount - before.refundedAmount,
                reason: request?.reason,
              },
            }),
            tx,
          );
          return after;
        });
      const after = await refundPayment(
        { stripe, payments: { findById: (id) => deps.payments.findById(id), setRefundedAmount: recordRefunded } },
        before.id,
        { ...request, ...(idempotencyKey ? { idempotencyKey: `admin-refund-${idempotencyKey}` } : {}) },
      );
      return toAdminPaymentView(after);
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
