import { z } from 'zod';
import { ListQuery } from './batches';
import { PaymentStatus } from './enums';
import { PaymentView } from './payments';

export const AdminPaymentView = PaymentView.extend({
  userId: z.uuid().nullable().describe('Null once the account is deleted (payments are kept).'),
  stripePaymentIntentId: z.string().nullable(),
  stripeInvoiceId: z.string().nullable(),
});
export type AdminPaymentView = z.infer<typeof AdminPaymentView>;

export const AdminPaymentListQuery = ListQuery.extend({
  userId: z.uuid().optional(),
  status: PaymentStatus.optional(),
  currency: z
    .string()
    .regex(/^[a-zA-Z]{3}$/, 'must be an ISO 4217 code')
    .transform((code) => code.toLowerCase())
    .optional(),
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Inclusive.'),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional().describe('Exclusive.'),
});

export const AdminPaymentList = z.object({ items: z.array(AdminPaymentView), nextCursor: z.string().nullable() });

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

export const RefundBody = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('In the payment’s minor unit; the whole amount left when absent.'),
    reason: z.enum(REFUND_REASONS).optional().describe('Stripe’s refund reasons.'),
  })
  .nullish();

export const RefundHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('The same key for a retried request refunds once; without it the key is derived from the payment.'),
});
