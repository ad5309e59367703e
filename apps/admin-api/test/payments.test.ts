import { randomUUID } from 'node:crypto';
import { collectedCharge, type FakeStripe, STRIPE_ROUTES, startFakeStripe } from '@renamer/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminStack, signedIn, startAdminStack } from './support/admin-stack';

const ADMIN_EMAIL = 'payments-ops@renamer.test';
const SECRET_KEY = 'sk_test_admin_payments';
let stack: AdminStack;
let fakeStripe: FakeStripe;

beforeAll(async () => {
  fakeStripe = await startFakeStripe(STRIPE_ROUTES, SECRET_KEY);
  stack = await startAdminStack({
    name: 'admin-payments',
    adminEmails: ADMIN_EMAIL,
    env: {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: 'whsec_admin_payments',
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_MAX: 'price_max',
      STRIPE_API_BASE: fakeStripe.url,
    },
  });
});
afterAll(async () => {
  await stack?.close();
  await fakeStripe?.close();
});

/** A payer's collected €19.00 (Stripe's charge included), and a failed one. */
async function payments() {
  const payer = await signedIn(stack);
  const paymentIntent = `pi_${randomUUID()}`;
  const charge = collectedCharge(fakeStripe.store, paymentIntent, 1900);
  const collected = await stack.repositories.payments.create({
    userId: payer.id,
    amount: 1900,
    currency: 'eur',
    status: 'succeeded',
    stripePaymentIntentId: paymentIntent,
  });
  const failed = await stack.repositories.payments.create({
    userId: payer.id,
    amount: 4900,
    currency: 'usd',
    status: 'failed',
  });
  return { payer, charge, collected, failed };
}

const refundsOf = (charge: string) => fakeStripe.store.list('refund', (refund) => refund.charge === charge);

describe('payments', () => {
  it('lists payments by user, status and currency, newest first', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const { payer, collected, failed } = await payments();
    const ids = async (query: string) =>
      (
        (await (await admin.admin.fetch(`/api/admin/payments?${query}`)).json()) as { items: { id: string }[] }
      ).items.map((item) => item.id);

    expect(await ids(`userId=${payer.id}`)).toEqual([failed.id, collected.id]);
    expect(await ids(`userId=${payer.id}&status=succeeded`)).toEqual([collected.id]);
    expect(await ids(`userId=${payer.id}&currency=USD`)).toEqual([failed.id]);
    expect(await ids(`userId=${payer.id}&to=2000-01-01`)).toEqual([]);
  });

  it('refunds part then the rest through Stripe, once per Idempotency-Key, audited with before and after', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const { charge, collected } = await payments();
    const refund = async (json: unknown, key?: string) =>
      admin.admin.fetch(`/api/admin/payments/${collected.id}/refund`, {
        method: 'POST',
        json,
        csrf: await admin.api.csrfToken(),
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });

    const key = randomUUID();
    const first = await refund({ amount: 500, reason: 'requested_by_customer' }, key);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ id: collected.id, status: 'partially_refunded', refundedAmount: 500 });
    // The admin's browser sends the same request again: Stripe refunds once.
    expect(await (await refund({ amount: 500, reason: 'requested_by_customer' }, key)).json()).toMatchObject({
      refundedAmount: 500,
    });
    expect(refundsOf(charge.id)).toHaveLength(1);

    expect(await (await refund({})).json()).toMatchObject({ status: 'refunded', refundedAmount: 1900 });
    const again = await refund({});
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'conflict' });

    const audit = await admin.admin.fetch(`/api/admin/audit-log?targetId=${collected.id}&action=payment.refund`);
    const { items } = (await audit.json()) as { items: unknown[] };
    expect(items[0]).toMatchObject({
      actorId: admin.id,
      targetType: 'payment',
      before: { status: 'partially_refunded', refundedAmount: 500 },
      after: { status: 'refunded', refundedAmount: 1900 },
    });
    expect(items.at(-1)).toMatchObject({ before: { refundedAmount: 0 }, after: { refundedAmount: 500 } });
  });

  it('refuses to refund what Stripe never collected, or more than is left, and a payment that does not exist', async () => {
    const admin = await signedIn(stack, ADMIN_EMAIL);
    const { collected, failed } = await payments();
    const refund = async (id: string, json: unknown) =>
      admin.admin.fetch(`/api/admin/payments/${id}/refund`, {
        method: 'POST',
        json,
        csrf: await admin.api.csrfToken(),
      });

    expect((await refund(failed.id, {})).status).toBe(409);
    const tooMuch = await refund(collected.id, { amount: 5000 });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ code: 'validation_failed' });
    expect((await refund(randomUUID(), {})).status).toBe(404);
    expect(await stack.repositories.payments.findById(collected.id)).toMatchObject({ refundedAmount: 0 });
  });
});
