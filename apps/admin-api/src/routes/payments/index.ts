import {
  AdminPaymentList,
  AdminPaymentListQuery,
  AdminPaymentView,
  IdParams,
  RefundBody,
  RefundHeaders,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PaymentService } from '../../services/payments';
import { actorOf } from '../actor';

/** Everyone's payments, and refunds through Stripe. */
export async function paymentRoutes(app: FastifyInstance, { payments }: { payments: PaymentService }) {
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
    async (request) => payments.list(request.query),
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
        response: { 200: AdminPaymentView },
        errors: ['conflict', 'payments_not_configured'],
      },
    },
    async (request) =>
      payments.refund(actorOf(request), request.params.id, request.body, request.headers['idempotency-key']),
  );
}
