import type { Plan } from '@renamer/contracts';
import { z } from 'zod';

/** `STRIPE_SECRET_KEY=` (an empty value, as `.env` templates write it) means unset. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** Variables of the billing service; payments are off unless the first four are all set. */
export const billingEnv = {
  STRIPE_SECRET_KEY: optional(z.string().min(1)),
  STRIPE_WEBHOOK_SECRET: optional(z.string().min(1)),
  /** The Stripe price ids of the paid plans (`price_…`), created as docs/billing.md says. */
  STRIPE_PRICE_PRO: optional(z.string().min(1)),
  STRIPE_PRICE_MAX: optional(z.string().min(1)),
  /** Another Stripe-shaped server, e.g. `http://127.0.0.1:12111` (stripe-mock, tests); unset means Stripe itself. */
  STRIPE_API_BASE: optional(z.url({ protocol: /^https?$/ })),
};

const billingEnvSchema = z.object(billingEnv);
export type BillingEnv = z.infer<typeof billingEnvSchema>;

/** The paid plans, which Stripe sells; `basic` is what a user has without a subscription. */
export type PaidPlan = Exclude<Plan, 'basic'>;

export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** The Stripe price of each paid plan. */
  prices: Readonly<Record<PaidPlan, string>>;
  apiBase: URL | undefined;
}

/** The billing configuration, or null when payments are not configured (every payments route answers 503). */
export function billingConfigFromEnv(env: BillingEnv): BillingConfig | null {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PRO, STRIPE_PRICE_MAX, STRIPE_API_BASE } = env;
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET || !STRIPE_PRICE_PRO || !STRIPE_PRICE_MAX) return null;
  return {
    secretKey: STRIPE_SECRET_KEY,
    webhookSecret: STRIPE_WEBHOOK_SECRET,
    prices: { pro: STRIPE_PRICE_PRO, max: STRIPE_PRICE_MAX },
    apiBase: STRIPE_API_BASE ? new URL(STRIPE_API_BASE) : undefined,
  };
}

/** The plan a Stripe price sells, or undefined for a price that is not one of ours. */
export function planOfPrice(config: BillingConfig, priceId: string): PaidPlan | undefined {
  return (Object.keys(config.prices) as PaidPlan[]).find((plan) => config.prices[plan] === priceId);
}
