import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSubscriptionRepository } from '../src';
import { connectTestDb, createTestUser } from './support/database';
import { activeSubscription } from './support/fixtures';

const client = connectTestDb();
const subscriptions = createSubscriptionRepository(client.db);

afterAll(() => client.close());

describe('subscription repository', () => {
  it('creates the user’s subscription, then replaces its state', async () => {
    const user = await createTestUser(client);
    const stripeSubscriptionId = `sub_${randomUUID()}`;
    const currentPeriodEnd = new Date('2031-02-01T00:00:00.000Z');
    const created = await subscriptions.upsertForUser({
      userId: user.id,
      stripeSubscriptionId,
      plan: 'pro',
      status: 'active',
      currentPeriodEnd,
      cancelAtPeriodEnd: false,
      stripeStateAt: new Date('2026-11-01T10:00:00Z'),
    });
    expect(created).toMatchObject({ userId: user.id, plan: 'pro', status: 'active', currentPeriodEnd });

    const updated = await subscriptions.upsertForUser({
      userId: user.id,
      stripeSubscriptionId,
      plan: 'max',
      status: 'active',
      currentPeriodEnd,
      cancelAtPeriodEnd: true,
      stripeStateAt: new Date('2026-11-02T10:00:00Z'),
    });
    expect(updated).toMatchObject({ id: created.id, plan: 'max', cancelAtPeriodEnd: true });
    expect(await subscriptions.findByUserId(user.id)).toEqual(updated);
    expect(await subscriptions.findByStripeSubscriptionId(stripeSubscriptionId)).toEqual(updated);
  });

  it('deletes the user’s subscription', async () => {
    const user = await createTestUser(client);
    await subscriptions.upsertForUser(activeSubscription(user.id));
    expect(await subscriptions.deleteForUser(user.id)).toBe(true);
    expect(await subscriptions.deleteForUser(user.id)).toBe(false);
    expect(await subscriptions.findByUserId(user.id)).toBeNull();
  });
});
