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

/**
 * What Stripe answers our calls (a 404, a 400 included) is this service's failure, not its caller's: such an error
 * goes out as a 500 (Stripe then retries a webhook), never with Stripe's status or message.
 */
export function asOwnFailure(error: unknown): unknown {
  return error instanceof Stripe.errors.StripeError
    ? new Error(`Stripe answered ${error.statusCode ?? 'nothing'}: ${error.message}`, { cause: error })
    : error;
}
