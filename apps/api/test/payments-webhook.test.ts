import { randomUUID } from 'node:crypto';
import { activeSubscription } from '@renamer/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsWorld, PRICES, startPaymentsWorld } from './payments-world';
import { getJson, startApiStack } from './support';

let world: PaymentsWorld;
beforeAll(async () => {
  world = await startPaymentsWorld('payments-webhook');
}, 60_000);
afterAll(() => world?.close());

const deliver = (payload: unknown, options?: { secret?: string; timestamp?: number }) =>
  world.deliver(payload, options);

let second = 1_795_000_000;
/** A Stripe event as Stripe sends it; each new event is a second later than the one before unless told. */
function event(type: string, object: Record<string, unknown>, created = ++second) {
  return { id: `evt_${randomUUID()}`, object: 'event', type, created, api_version: '2025-10-29', data: { object } };
}

function subscription(
  customer: string,
  { price = PRICES.pro, status = 'active', cancelAtPeriodEnd = false, id = `sub_${customer}` } = {},
) {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    items: { object: 'list', data: [{ price: { id: price }, current_period_end: second + 30 * 86_400 }] },
  };
}

/** A signed-in user who went through Checkout: the session's completion links the Stripe customer. */
async function buyer() {
  const owner = await world.stack.createUser();
  const customer = `cus_${randomUUID().slice(0, 14)}`;
  const completed = await deliver(
    event('checkout.session.completed', {
      id: `cs_${randomUUID()}`,
      object: 'checkout.session',
      client_reference_id: owner.user.id,
      customer,
      subscription: `sub_${customer}`,
      mode: 'subscription',
    }),
  );
  expect(completed).toEqual({ status: 200, body: { received: true } });
  return { ...owner, customer };
}

const quotaOf = async (key: string) => (await getJson(`${world.api.url}/api/auth/quota`, key)).body!;
const recorded = (id: string) => world.stack.repositories.webhookEvents.findById(id);

describe('Stripe webhooks', () => {
  it('moves a buyer to Pro with quota 500 on checkout and the new subscription', async () => {
    const { key, customer } = await buyer();
    expect(await deliver(event('customer.subscription.created', subscription(customer)))).toMatchObject({
      status: 200,
    });
    expect(await quotaOf(key)).toMatchObject({ plan: 'pro', quota: 500 });
  });

  it('refuses a forged, stale or altered payload with 400 and records nothing', async () => {
    const { key, customer } = await buyer();
    const forged = event('customer.subscription.created', subscription(customer, { price: PRICES.max }));
    expect((await deliver(forged, { secret: 'whsec_someone_else' })).status).toBe(400);
    expect((await deliver(forged, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(400);
    const body = JSON.stringify(forged);
    const altered = await world.postSigned(body.replace(PRICES.max, PRICES.pro), world.sign(body));
    expect(altered.status).toBe(400);
    expect(altered.body).toMatchObject({ code: 'validation_failed' });
    expect(await recorded(forged.id)).toBeNull();
    expect(await quotaOf(key)).toMatchObject({ plan: 'basic', quota: 50 });
  });

  it('acts once on an event delivered twice, and on two deliveries at once', async () => {
    const { user, customer } = await buyer();
    const paid = event('invoice.paid', {
      id: `in_${randomUUID()}`,
      object: 'invoice',
      customer,
      amount_paid: 1900,
      amount_due: 1900,
      currency: 'eur',
      payment_intent: `pi_${randomUUID()}`,
      lines: { object: 'list', data: [{ description: '1 × Pro (at €19.00 / month)' }] },
    });
    const answers = await Promise.all([deliver(paid), deliver(paid)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await deliver(paid)).status).toBe(200);
    const { items } = await world.stack.repositories.payments.listForUser(user.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ amount: 1900, currency: 'eur', status: 'succeeded' });
    expect(await recorded(paid.id)).toMatchObject({ type: 'invoice.paid', processedAt: expect.any(Date) });
  });

  it('never moves a subscription backwards: an older update arriving late changes nothing', async () => {
    const { key, customer } = await buyer();
    const older = event('customer.subscription.updated', subscription(customer), ++second);
    const newer = event('customer.subscription.updated', subscription(customer, { price: PRICES.max }), ++second);
    await deliver(newer);
    await deliver(older);
    expect(await quotaOf(key)).toMatchObject({ plan: 'max', quota: 1000 });
  });

  it('reads the subscription from Stripe when two states share one second', async () => {
    const { key, customer } = await buyer();
    // What Stripe holds now: the subscription moved to Max.
    const { id } = activeSubscription(world.fakeStripe.store, customer, PRICES.max);
    const at = ++second;
    await deliver(event('customer.subscription.created', subscription(customer, { id }), at));
    const reads = world.fakeStripe.requests.length;
    await deliver(event('customer.subscription.updated', subscription(customer, { id }), at));
    expect(world.fakeStripe.requests.slice(reads).map((request) => request.path)).toEqual([`/v1/subscriptions/${id}`]);
    expect(await quotaOf(key)).toMatchObject({ plan: 'max', quota: 1000 });
  });

  it('answers 500 when acting fails, keeps nothing of it, and acts when Stripe delivers again', async () => {
    const { key, customer } = await buyer();
    const id = `sub_gone_${customer}`;
    const at = ++second;
    await deliver(event('customer.subscription.created', subscription(customer, { id }), at));
    // A same-second state needs Stripe's read, and Stripe does not know this subscription yet: the handler fails.
    const tie = event('customer.subscription.updated', subscription(customer, { id, price: PRICES.max }), at);
    expect((await deliver(tie)).status).toBe(500);
    expect(await recorded(tie.id)).toBeNull();
    expect(await quotaOf(key)).toMatchObject({ plan: 'pro', quota: 500 });
    const now = activeSubscription(world.fakeStripe.store, customer, PRICES.max);
    const retried = event('customer.subscription.updated', subscription(customer, { id: now.id }), at);
    expect((await deliver({ ...retried, id: tie.id })).status).toBe(200);
    expect(await recorded(tie.id)).toMatchObject({ processedAt: expect.any(Date) });
  });

  it('records an event about a customer no user has, changing nobody and asking Stripe nothing', async () => {
    const reads = world.fakeStripe.requests.length;
    const stranger = event('customer.subscription.created', subscription('cus_nobody_has_this'));
    expect(await deliver(stranger)).toEqual({ status: 200, body: { received: true } });
    expect(await recorded(stranger.id)).toMatchObject({ type: 'customer.subscription.created' });
    expect(world.fakeStripe.requests.length).toBe(reads);
  });

  it('takes the user back to basic when the subscription ends, and records failed payments and refunds', async () => {
    const { key, user, customer } = await buyer();
    await deliver(event('customer.subscription.created', subscription(customer)));
    await deliver(event('customer.subscription.deleted', subscription(customer, { status: 'canceled' })));
    expect(await quotaOf(key)).toMatchObject({ plan: 'basic', quota: 50 });

    const intent = `pi_${randomUUID()}`;
    const invoice = { object: 'invoice', customer, amount_due: 1900, amount_paid: 1900, currency: 'eur' };
    await deliver(event('invoice.payment_failed', { ...invoice, id: `in_${randomUUID()}`, amount_paid: 0 }));
    await deliver(event('invoice.paid', { ...invoice, id: `in_${randomUUID()}`, payment_intent: intent }));
    await deliver(
      event('charge.refunded', {
        id: `ch_${randomUUID()}`,
        object: 'charge',
        payment_intent: intent,
        amount: 1900,
        amount_refunded: 500,
      }),
    );
    const { items } = await world.stack.repositories.payments.listForUser(user.id);
    expect(items.map((payment) => [payment.status, payment.refundedAmount]).sort()).toEqual([
      ['failed', 0],
      ['partially_refunded', 500],
    ]);
  });

  it('records a dispute for operators', async () => {
    const dispute = event('charge.dispute.created', {
      id: `dp_${randomUUID()}`,
      object: 'dispute',
      charge: `ch_${randomUUID()}`,
      payment_intent: null,
      amount: 1900,
      currency: 'eur',
      reason: 'fraudulent',
    });
    await deliver(dispute);
    const { items } = await world.stack.repositories.auditLog.list({ action: 'stripe.charge.dispute.created' });
    expect(items.some((entry) => entry.details.eventId === dispute.id)).toBe(true);
  });
});

describe('without Stripe configured', () => {
  it('answers 503 payments_not_configured', async () => {
    const bare = await startApiStack('payments-webhook-off');
    try {
      const { url } = await bare.startApi();
      const response = await fetch(`${url}/api/payments/webhook`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'payments_not_configured' });
    } finally {
      await bare.close();
    }
  });
});
