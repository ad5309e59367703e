import { randomUUID } from 'node:crypto';
import { activeSubscription } from '@renamer/billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsWorld, PRICES, startPaymentsWorld } from './payments-world';
import { getJson, startApiStack } from './support';

let world: PaymentsWorld;
beforeAll(async () => {
  world = await startPaymentsWorld('payments');
}, 60_000);
afterAll(() => world?.close());

const call = (method: string, path: string, key: string, body?: unknown) =>
  getJson(`${world.api.url}${path}`, key, {
    method,
    ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

let eventSecond = Math.floor(Date.now() / 1000);
/** What Stripe sends once Checkout has made the subscription: a signed `customer.subscription.created`. */
async function deliverCreated(subscription: unknown) {
  const created = await world.deliver({
    id: `evt_${randomUUID()}`,
    object: 'event',
    type: 'customer.subscription.created',
    created: ++eventSecond,
    data: { object: subscription },
  });
  expect(created.status).toBe(200);
}

/** A user on Pro: checked out, with the subscription Stripe made. */
async function proSubscriber() {
  const owner = await world.stack.createUser();
  expect((await call('POST', '/api/payments/checkout', owner.key, { plan: 'pro' })).status).toBe(200);
  const { stripeCustomerId } = (await world.stack.repositories.users.findById(owner.user.id))!;
  const subscription = activeSubscription(world.fakeStripe.store, stripeCustomerId!, PRICES.pro);
  await deliverCreated(subscription);
  return { ...owner, subscription };
}

const quotaOf = async (key: string) => (await getJson(`${world.api.url}/api/auth/quota`, key)).body!;

describe('checkout', () => {
  it('asks for credentials before anything else', async () => {
    const response = await fetch(`${world.api.url}/api/payments/checkout`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
  });

  it('opens a subscription Checkout for the plan’s price, with one Stripe customer per user, reused', async () => {
    const { user, key } = await world.stack.createUser();
    const first = await call('POST', '/api/payments/checkout', key, { plan: 'max' });
    expect(first.status).toBe(200);
    expect(first.body!.url).toMatch(/^https:\/\//);
    const session = world.fakeStripe.store.get('checkout.session', first.body!.sessionId);
    const customer = (await world.stack.repositories.users.findById(user.id))!.stripeCustomerId;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{ price: PRICES.max, quantity: '1' }],
    });
    const again = await call('POST', '/api/payments/checkout', key, { plan: 'pro' });
    expect(world.fakeStripe.store.get('checkout.session', again.body!.sessionId).customer).toBe(customer);
    expect(
      world.fakeStripe.store.list('customer', (c) => (c.metadata as { userId?: string }).userId === user.id),
    ).toHaveLength(1);
    const creates = world.fakeStripe.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v1/checkout/sessions',
    );
    expect(creates.every((request) => request.idempotencyKey)).toBe(true);
  });

  it('creates one customer when two checkouts of a new user run at once', async () => {
    const { user, key } = await world.stack.createUser();
    const answers = await Promise.all([
      call('POST', '/api/payments/checkout', key, { plan: 'pro' }),
      call('POST', '/api/payments/checkout', key, { plan: 'pro' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(
      world.fakeStripe.store.list('customer', (c) => (c.metadata as { userId?: string }).userId === user.id),
    ).toHaveLength(1);
  });

  it('refuses a second paid subscription: plans change through the subscription', async () => {
    const { key } = await proSubscriber();
    expect(await call('POST', '/api/payments/checkout', key, { plan: 'max' })).toMatchObject({
      status: 409,
      body: { code: 'conflict' },
    });
  });
});

describe('the subscription', () => {
  it('upgrades at once with the proration invoiced, the new quota usable this month', async () => {
    const { key, subscription } = await proSubscriber();
    expect(await call('GET', '/api/payments/subscription', key)).toMatchObject({
      status: 200,
      body: { plan: 'pro', status: 'active', cancelAtPeriodEnd: false },
    });
    const upgraded = await call('POST', '/api/payments/subscription', key, { plan: 'max' });
    expect(upgraded).toMatchObject({ status: 200, body: { plan: 'max' } });
    expect(await quotaOf(key)).toMatchObject({ plan: 'max', quota: 1000 });
    expect(world.fakeStripe.store.get('subscription', subscription.id)).toMatchObject({
      last_proration_behavior: 'always_invoice',
      items: { data: [{ price: { id: PRICES.max } }] },
    });
  });

  it('downgrades at the period’s end through a schedule, and a reactivation keeps the plan', async () => {
    const { key, subscription } = await proSubscriber();
    await call('POST', '/api/payments/subscription', key, { plan: 'max' });
    const downgraded = await call('POST', '/api/payments/subscription', key, { plan: 'pro' });
    expect(downgraded).toMatchObject({ status: 200, body: { plan: 'max' } });
    expect(await quotaOf(key)).toMatchObject({ plan: 'max', quota: 1000 });
    const scheduleId = world.fakeStripe.store.get('subscription', subscription.id).schedule as string;
    const periodEnd = String(
      (subscription.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end,
    );
    expect(world.fakeStripe.store.get('subscription_schedule', scheduleId)).toMatchObject({
      end_behavior: 'release',
      phases: [{ items: [{ price: PRICES.max }], end_date: periodEnd }, { items: [{ price: PRICES.pro }] }],
    });
    expect(await call('POST', '/api/payments/subscription/reactivate', key)).toMatchObject({
      status: 200,
      body: { plan: 'max' },
    });
    expect(world.fakeStripe.store.get('subscription_schedule', scheduleId)).toMatchObject({ status: 'released' });
  });

  it('cancels at the period’s end and reactivates; a change to the same plan is a conflict', async () => {
    const { key } = await proSubscriber();
    expect(await call('POST', '/api/payments/subscription', key, { plan: 'pro' })).toMatchObject({ status: 409 });
    expect(await call('POST', '/api/payments/subscription/cancel', key)).toMatchObject({
      status: 200,
      body: { plan: 'pro', cancelAtPeriodEnd: true },
    });
    expect(await quotaOf(key)).toMatchObject({ plan: 'pro', quota: 500 });
    expect(await call('POST', '/api/payments/subscription/reactivate', key)).toMatchObject({
      status: 200,
      body: { cancelAtPeriodEnd: false },
    });
    expect(await call('POST', '/api/payments/subscription', key, { plan: 'basic' })).toMatchObject({
      status: 200,
      body: { plan: 'pro', cancelAtPeriodEnd: true },
    });
  });

  it('is null, and changes are a conflict, for a user without one', async () => {
    const { key } = await world.stack.createUser();
    expect(await call('GET', '/api/payments/subscription', key)).toMatchObject({ status: 200, body: null });
    expect(await call('POST', '/api/payments/subscription/cancel', key)).toMatchObject({ status: 409 });
    expect(await call('POST', '/api/payments/portal', key)).toMatchObject({ status: 409 });
  });
});

describe('the portal and the history', () => {
  it('opens the customer portal and lists the payments, newest first, in minor units', async () => {
    const { key, user } = await proSubscriber();
    const portal = await call('POST', '/api/payments/portal', key);
    expect(portal).toMatchObject({ status: 200, body: { url: expect.stringMatching(/^https:\/\//) } });
    await world.stack.repositories.payments.create({
      userId: user.id,
      amount: 1900,
      currency: 'eur',
      status: 'succeeded',
    });
    await world.stack.repositories.payments.create({
      userId: user.id,
      amount: 1900,
      currency: 'eur',
      status: 'failed',
    });
    const { body } = await call('GET', '/api/payments/history', key);
    expect(body!.items.map((payment: { status: string; amount: number }) => [payment.status, payment.amount])).toEqual([
      ['failed', 1900],
      ['succeeded', 1900],
    ]);
  });
});

describe('without Stripe configured', () => {
  it('answers 503 payments_not_configured after checking credentials', async () => {
    const bare = await startApiStack('payments-off');
    try {
      const { url } = await bare.startApi();
      const { key } = await bare.createUser();
      const answer = await getJson(`${url}/api/payments/subscription`, key);
      expect(answer).toMatchObject({ status: 503, body: { code: 'payments_not_configured' } });
    } finally {
      await bare.close();
    }
  });
});
