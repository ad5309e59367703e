import { z } from 'zod';
import { PaymentStatus, Plan } from './enums';

/** The plans Stripe sells; `basic` is what a user has without a subscription. */
export const PaidPlan = z.enum(['pro', 'max']);

export const CheckoutBody = z.object({ plan: PaidPlan });
export const CheckoutResponse = z.object({ url: z.url(), sessionId: z.string() });
export const PortalResponse = z.object({ url: z.url() });

export const ChangePlanBody = z.object({ plan: Plan });

export const SubscriptionView = z
  .object({
    plan: Plan,
    /** Stripe's status, verbatim: active, trialing, past_due, canceled, … */
    status: z.string(),
    currentPeriodEnd: z.iso.datetime().nullable(),
    cancelAtPeriodEnd: z.boolean(),
  })
  .nullable();
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** Money in the currency's minor unit (cents), with its ISO 4217 code in lower case, as Stripe gives them. */
export const PaymentView = z.object({
  id: z.uuid(),
  amount: z.number().int(),
  currency: z.string(),
  status: PaymentStatus,
  description: z.string().nullable(),
  refundedAmount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type PaymentView = z.infer<typeof PaymentView>;
export const PaymentHistory = z.object({ items: z.array(PaymentView) });
