import { AppError } from '@renamer/contracts';
import type { Payment, PaymentRepository } from '@renamer/db';
import type Stripe from 'stripe';

export interface RefundDeps {
  stripe: { refunds: Pick<Stripe['refunds'], 'create'>; charges: Pick<Stripe['charges'], 'retrieve'> };
  payments: Pick<PaymentRepository, 'findById' | 'setRefundedAmount'>;
}

export interface RefundRequest {
  /** In the payment's minor unit; the whole amount left when absent. */
  amount?: number;
  reason?: Stripe.RefundCreateParams.Reason;
  /**
   * The same key for the same intention (an admin's retried request): Stripe then refunds once and answers the
   * first refund again. Absent, it is derived from the payment, what it had refunded, and the amount.
   */
  idempotencyKey?: string;
}

/**
 * Refunds all or part of a payment through Stripe and records Stripe's running total on the payment (its status
 * becomes `refunded` or `partially_refunded`; `charge.refunded` later writes the same total). Amounts are integers
 * in minor units, at most what is left.
 */
export async function refundPayment(
  deps: RefundDeps,
  paymentId: string,
  request: RefundRequest = {},
): Promise<Payment> {
  const payment = await deps.payments.findById(paymentId);
  if (!payment) throw new AppError('not_found', 'No such payment.');
  if (!payment.stripePaymentIntentId || payment.status === 'pending' || payment.status === 'failed') {
    throw new AppError('conflict', 'Only a payment Stripe collected can be refunded.');
  }
  const left = payment.amount - payment.refundedAmount;
  if (left <= 0) throw new AppError('conflict', 'The payment is refunded in full already.');
  const amount = request.amount ?? left;
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) {
    throw new AppError('validation_failed', `The amount must be a whole number of minor units from 1 to ${left}.`);
  }
  const refund = await deps.stripe.refunds.create(
    {
      payment_intent: payment.stripePaymentIntentId,
      amount,
      ...(request.reason && { reason: request.reason }),
      metadata: { paymentId: payment.id },
    },
    { idempotencyKey: request.idempotencyKey ?? `refund-${payment.id}-${payment.refundedAmount}-${amount}` },
  );
  const chargeId = typeof refund.charge === 'string' ? refund.charge : refund.charge?.id;
  if (!chargeId) throw new Error(`Stripe's refund ${refund.id} names no charge`);
  const charge = await deps.stripe.charges.retrieve(chargeId);
  return (await deps.payments.setRefundedAmount(payment.id, charge.amount_refunded))!;
}
