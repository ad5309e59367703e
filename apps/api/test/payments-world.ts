import { type FakeStripe, STRIPE_ROUTES, startFakeStripe } from '@renamer/billing/testing';
import Stripe from 'stripe';
import { type ApiStack, startApiStack } from './support';

const SECRET_KEY = 'sk_test_payments';
export const WEBHOOK_SECRET = 'whsec_test_payments';
export const PRICES = { pro: 'price_pro_test', max: 'price_max_test' };

/** The API configured for Stripe, pointed at a Stripe-shaped server, and Stripe's way of delivering events. */
export async function startPaymentsWorld(name: string) {
  const fakeStripe: FakeStripe = await startFakeStripe(STRIPE_ROUTES, SECRET_KEY);
  const stack: ApiStack = await startApiStack(name, {
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: PRICES.pro,
    STRIPE_PRICE_MAX: PRICES.max,
    STRIPE_API_BASE: fakeStripe.url,
  });
  const api = await stack.startApi();
  const signer = new Stripe(SECRET_KEY);

  async function postSigned(body: string, signature: string) {
    const response = await fetch(`${api.url}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body,
    });
    return { status: response.status, body: await response.json() };
  }

  return {
    stack,
    api,
    fakeStripe,
    postSigned,
    /** Signs `body` as Stripe does (`Stripe-Signature`), with the endpoint's secret unless told. */
    sign: (body: string, { secret = WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000) } = {}) =>
      signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }),
    /** Delivers `payload` as Stripe does: raw JSON with its signature. */
    async deliver(payload: unknown, options: { secret?: string; timestamp?: number } = {}) {
      const body = JSON.stringify(payload);
      return postSigned(body, this.sign(body, options));
    },
    async close() {
      await stack.close();
      await fakeStripe.close();
    },
  };
}

export type PaymentsWorld = Awaited<ReturnType<typeof startPaymentsWorld>>;
