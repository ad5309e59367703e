import Stripe from 'stripe';
import type { BillingConfig } from './config';

/**
 * The official SDK, pointed at `STRIPE_API_BASE` when set (a local Stripe-shaped server) and at Stripe otherwise.
 * The SDK retries network errors and 409/429/5xx answers itself, reusing each request's idempotency key.
 */
export function createStripeClient(config: BillingConfig): Stripe {
  const base = config.apiBase;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}
