import { randomUUID } from 'node:crypto';
import { AppError } from '@renamer/contracts';
import { createDb, createPaymentRepository, createUserRepository, type DbClient } from '@renamer/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient, type RefundDeps, refundPayment } from '../src';
import { collectedCharge, type FakeStripe, STRIPE_ROUTES, startFakeStripe } from '../src/testing';

const SECRET_KEY = 'sk_test_refunds';
let client: DbClient;
let fakeStripe: FakeStripe;
let deps: RefundDeps;

beforeAll(async () => {
  client = createDb(process.env.DATABASE_URL!, { max: 4 });
  fakeStripe = await startFakeStripe(STRIPE_ROUTES, SECRET_KEY);
  const stripe = createStripeClient({
    secretKey: SECRET_KEY,
    webhookSecret: 'whsec_unused',
    prices: { pro: 'price_pro', max: 'price_max' },
    apiBase: new URL(fakeStripe.url),
  });
  deps = { stripe, payments: createPaymentRepository(client.db) };
});
afterAll(async () => {
  await client.close();
  await fakeStripe.close();
});

/** A succeeded payment of €19.00 and the charge Stripe collected for it. */
async function collected() {
  const user = await createUserRepository(client.db).create({
    provider: 'https://idp.test',
    providerSubject: randomUUID(),
    displayName: 'Buyer',
    emailHash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
  });
  const paymentIntent = `pi_${randomUUID()}`;
  const charge = collectedCharge(fakeStripe.store, paymentIntent, 1900);
  const payment = await createPaymentRepository(client.db).create({
    userId: user.id,
    amount: 1900,
    currency: 'eur',
    status: 'succeeded',
    stripePaymentIntentId: paymentIntent,
  });
  return { payment, charge };
}

const refundsOf = (charge: string) => fakeStripe.store.list('refund', (refund) => refund.charge === charge);

describe('refundPayment', () => {
  it('refunds part, then the rest, and the payment follows Stripe’s running total', async () => {
    const { payment, charge } = await collected();
    expect(await refundPayment(deps, payment.id, { amount: 500, reason: 'requested_by_customer' })).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 500,
    });
    expect(await refundPayment(deps, payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 1900 });
    expect(
      refundsOf(charge.id)
        .map((refund) => refund.amount)
        .sort(),
    ).toEqual([1400, 500]);
  });

  it('refunds once when the same request is repeated with its key', async () => {
    const { payment, charge } = await collected();
    const request = { amount: 700, idempotencyKey: `admin-request-${randomUUID()}` };
    await refundPayment(deps, payment.id, request);
    const again = await refundPayment(deps, payment.id, { ...request });
    expect(again).toMatchObject({ refundedAmount: 700, status: 'partially_refunded' });
    expect(refundsOf(charge.id)).toHaveLength(1);
  });

  it('refuses amounts that are not whole minor units within what is left, and a payment refunded in full', async () => {
    const { payment } = await collected();
    for (const amount of [0, -5, 19.5, 1901]) {
      await expect(refundPayment(deps, payment.id, { amount })).rejects.toMatchObject({ code: 'validation_failed' });
    }
    await refundPayment(deps, payment.id);
    await expect(refundPayment(deps, payment.id)).rejects.toMatchObject({ code: 'conflict' });
    await expect(refundPayment(deps, randomUUID())).rejects.toBeInstanceOf(AppError);
  });
});
