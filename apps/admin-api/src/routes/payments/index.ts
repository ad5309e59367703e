import { type RefundDeps, refundPayment, toPaymentView } from '@renamer/billing';
import {
  AdminPaymentList,
  AdminPaymentListQuery,
  type AdminPaymentView,
  AdminPaymentView as AdminPaymentViewSchema,
  AppError,
  IdParams,
  RefundBody,
  RefundHeaders,
} from '@renamer/contracts';
import type { AuditLogRepository, Payment, PaymentRepository } from '@renamer/db';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAdminAction } from '../../audit';

export interface PaymentRoutesOptions {
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
export async function paymentRoutes(app: FastifyInstance, { payments, auditLog, stripe }: PaymentRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];

  typed.get(
    '/api/admin/payments',
    {
      schema: {
        tags,
        operationId: 'listPayments',
        summary: 'Payments, newest first, by user, status, currency and time',
        querystring: AdminPaymentListQuery,
        response: { 200: AdminPaymentList },
        errors: ['invalid_cursor'],
      },
    },
    async (request) => {
      const { from, to, ...filters } = request.query;
      const page = await payments.list({
        ...filters,
        ...(from ? { from: new Date(from) } : {}),
        ...(to ? { to: new Date(to) } : {}),
      });
      return { items: page.items.map(toAdminPaymentView), nextCursor: page.nextCursor };
    },
  );

  typed.post(
    '/api/admin/payments/:id/refund',
    {
      schema: {
        tags,
        operationId: 'refundPayment',
        summary: 'Refund all or part of a payment through Stripe; a retried request refunds once',
        params: IdParams,
        headers: RefundHeaders,
        body: RefundBody,
        response: { 200: AdminPaymentViewSchema },
        errors: ['conflict', 'payments_not_configured'],
      },
    },
    async (request) => {
      if (!stripe) throw new AppError('payments_not_configured', 'Stripe is not configured on this service.');
      const before = await payments.findById(request.params.id);
      if (!before) throw new AppError('not_found', 'No such payment.');
      const idempotencyKey = request.headers['idempotency-key'];
      const after = await refundPayment({ stripe, payments }, before.id, {
        ...request.body,
        ...(idempotencyKey ? { idempotencyKey: `admin-refund-${idempotencyKey}` } : {}),
      });
      await recordAdminAction(auditLog, request, {
        action: 'payment.refund',
        targetType: 'payment',
        targetId: before.id,
        before: { status: before.status, refundedAmount: before.refundedAmount },
        after: { status: after.status, refundedAmount: after.refundedAmount },
        details: {
          amount: request.body?.amount ?? before.amount - before.refundedAmount,
          reason: request.body?.reason,
        },
      });
      return toAdminPaymentView(after);
    },
  );
}
