import { randomUUID } from 'node:crypto';
import { createDb, createSubscriptionRepository, createUserRepository, type DbClient } from '@renamer/db';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingConfig, type SubscriptionSyncDeps, syncSubscription } from '../src';

const config: BillingConfig = {
  secretKey: 'sk_test_sync',
  webhookSecret: 'whsec_sync',
  prices: { pro: 'price_pro', max: 'price_max' },
  apiBase: undefined,
};

let client: DbClient;
let deps: SubscriptionSyncDeps;

beforeAll(() => {
  client = createDb(process.env.DATABASE_URL!, { max: 4 });
  deps = {
    db: client.db,
    config,
    users: createUserRepository(client.db),
    subscriptions: createSubscriptionRepository(client.db),
  };
});
afterAll(() => client.close());

/** A user who has been through checkout: linked to a Stripe customer. */
async function customer() {
  const stripeCustomerId = `cus_${randomUUID().slice(0, 12)}`;
  const users = createUserRepository(client.db);
  const user = await users.create({
    provider: 'https://idp.test',
    providerSubject: randomUUID(),
    displayName: 'Buyer',
    emailHash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
  });
  await users.updateAccount(user.id, { stripeCustomerId });
  return { user, stripeCustomerId };
}

/** A subscription as Stripe's API returns it, with only the fields the sync reads. */
function subscription(
  customerId: string,
  { price = 'price_pro', status = 'active', cancelAtPeriodEnd = false } = {},
): Stripe.Subscription {
  return {
    id: `sub_of_${customerId}`,
    object: 'subscription',
    customer: customerId,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    items: { object: 'list', data: [{ price: { id: price }, current_period_end: 1_800_000_000 }] },
  } as unknown as Stripe.Subscription;
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, second));
const userOf = (id: string) => createUserRepository(client.db).findById(id);

describe('syncSubscription', () => {
  it('gives the user the plan and quota of an active subscription, and stores its state', async () => {
    const { user, stripeCustomerId } = await customer();
    expect(await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(1) })).toBe('applied');
    expect(await userOf(user.id)).toMatchObject({ plan: 'pro', quota: 500 });
    expect(await deps.subscriptions.findByUserId(user.id)).toMatchObject({
      plan: 'pro',
      status: 'active',
      currentPeriodEnd: new Date(1_800_000_000_000),
      stripeStateAt: at(1),
    });
  });

  it('changes nothing for a customer no user has', async () => {
    expect(await syncSubscription(deps, subscription('cus_nobody'), { stateAt: at(1) })).toBe('unknown_customer');
  });

  it('never moves backwards: an older state arriving late is ignored', async () => {
    const { user, stripeCustomerId } = await customer();
    await syncSubscription(deps, subscription(stripeCustomerId, { price: 'price_max' }), { stateAt: at(5) });
    expect(await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(4) })).toBe('stale');
    expect(await userOf(user.id)).toMatchObject({ plan: 'max', quota: 1000 });
  });

  it('reports a state of the same second, and applies it when read from Stripe', async () => {
    const { user, stripeCustomerId } = await customer();
    await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(7) });
    const upgraded = subscription(stripeCustomerId, { price: 'price_max' });
    expect(await syncSubscription(deps, upgraded, { stateAt: at(7) })).toBe('same_instant');
    expect(await userOf(user.id)).toMatchObject({ plan: 'pro' });
    expect(await syncSubscription(deps, upgraded, { stateAt: at(7), authoritative: true })).toBe('applied');
    expect(await userOf(user.id)).toMatchObject({ plan: 'max', quota: 1000 });
  });

  it('applies a state read from Stripe even when our clock is behind the last event’s time, and keeps that time', async () => {
    const { user, stripeCustomerId } = await customer();
    await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(40) });
    const read = subscription(stripeCustomerId, { price: 'price_max' });
    expect(await syncSubscription(deps, read, { stateAt: at(35), authoritative: true })).toBe('applied');
    expect(await userOf(user.id)).toMatchObject({ plan: 'max' });
    expect((await deps.subscriptions.findByUserId(user.id))?.stripeStateAt).toEqual(at(40));
    expect(await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(39) })).toBe('stale');
  });

  it('takes the user back to basic when the subscription ends, and keeps a quota an admin set on the same plan', async () => {
    const { user, stripeCustomerId } = await customer();
    await syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(1) });
    await deps.users.updateAccount(user.id, { quota: 650 });
    await syncSubscription(deps, subscription(stripeCustomerId, { cancelAtPeriodEnd: true }), { stateAt: at(2) });
    expect(await userOf(user.id)).toMatchObject({ plan: 'pro', quota: 650 });
    await syncSubscription(deps, subscription(stripeCustomerId, { status: 'canceled' }), { stateAt: at(3) });
    expect(await userOf(user.id)).toMatchObject({ plan: 'basic', quota: 50 });
    expect(await deps.subscriptions.findByUserId(user.id)).toMatchObject({ status: 'canceled', plan: 'basic' });
  });

  it('ends on the newest state when deliveries about one customer race, whatever their order', async () => {
    for (let round = 0; round < 5; round++) {
      const { user, stripeCustomerId } = await customer();
      const states = [
        syncSubscription(deps, subscription(stripeCustomerId, { price: 'price_max' }), { stateAt: at(20) }),
        syncSubscription(deps, subscription(stripeCustomerId, { status: 'canceled' }), { stateAt: at(30) }),
        syncSubscription(deps, subscription(stripeCustomerId), { stateAt: at(10) }),
      ];
      await Promise.all(round % 2 ? states : states.reverse());
      expect(await userOf(user.id)).toMatchObject({ plan: 'basic', quota: 50 });
      expect((await deps.subscriptions.findByUserId(user.id))?.stripeStateAt).toEqual(at(30));
    }
  });
});
