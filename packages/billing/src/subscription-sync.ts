import type { Plan } from '@renamer/contracts';
import { PLAN_QUOTAS } from '@renamer/contracts';
import type { Database, Executor, SubscriptionRepository, UserRepository } from '@renamer/db';
import type Stripe from 'stripe';
import { type BillingConfig, planOfPrice } from './config';

export interface SubscriptionSyncDeps {
  db: Database;
  config: BillingConfig;
  users: Pick<UserRepository, 'lockByStripeCustomerId' | 'updateAccount'>;
  subscriptions: Pick<SubscriptionRepository, 'findByUserId' | 'upsertForUser'>;
}

/**
 * `applied`; `stale` (an older state than the one the row holds: nothing changed); `same_instant` (a state of the
 * very second the row's is from: Stripe's `created` has one-second resolution, so which is newer is unknown and
 * the caller reads the subscription from Stripe and applies that with `authoritative`); `unknown_customer` (no
 * user has this Stripe customer: nothing changed).
 */
export type SyncOutcome = 'applied' | 'stale' | 'same_instant' | 'unknown_customer';

export interface SyncOptions {
  /** When Stripe's state was this: the event's `created`, or the time of a read. */
  stateAt: Date;
  /**
   * A state read from Stripe just now: applied whatever the time of the row's state (our clock and Stripe's
   * `created` times need not agree), keeping the newer of the two times.
   */
  authoritative?: boolean;
}

/** Statuses in which the subscription's plan is the user's: paid, on trial, or in the retry window of a payment. */
const ENTITLED_STATUSES = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);

const customerIdOf = (subscription: Stripe.Subscription) =>
  typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;

/** The plan the subscription gives now: its price's plan while entitled, else basic. */
export function planOfSubscription(config: BillingConfig, subscription: Stripe.Subscription): Plan {
  if (!ENTITLED_STATUSES.has(subscription.status)) return 'basic';
  const price = subscription.items.data[0]?.price.id;
  return (price && planOfPrice(config, price)) || 'basic';
}

/** The end of the period being paid: on the item (current API versions), or on the subscription (older ones). */
function currentPeriodEnd(subscription: Stripe.Subscription): Date | null {
  const legacy = (subscription as { current_period_end?: number }).current_period_end;
  const seconds = subscription.items.data[0]?.current_period_end ?? legacy;
  return seconds ? new Date(seconds * 1000) : null;
}

/**
 * Makes the user's subscription row, plan and quota follow Stripe's state of the subscription, in one transaction
 * with the customer's user row locked (two deliveries about one customer apply one after the other). A state older
 * than the row's is ignored; a change of plan sets the plan's quota (an upgrade's extra images are usable at once),
 * the same plan keeps a quota an admin set.
 */
export async function syncSubscription(
  deps: SubscriptionSyncDeps,
  subscription: Stripe.Subscription,
  { stateAt, authoritative = false }: SyncOptions,
  tx?: Executor,
): Promise<SyncOutcome> {
  const apply = async (inner: Executor): Promise<SyncOutcome> => {
    const user = await deps.users.lockByStripeCustomerId(customerIdOf(subscription), inner);
    if (!user) return 'unknown_customer';
    const held = await deps.subscriptions.findByUserId(user.id, inner);
    const heldAt = held?.stripeStateAt?.getTime();
    if (!authoritative && heldAt !== undefined && stateAt.getTime() < heldAt) return 'stale';
    if (!authoritative && heldAt === stateAt.getTime()) return 'same_instant';
    // A read is Stripe's latest state whatever our clock says; it keeps the newest time seen, so that an event
    // older than what was applied is still ignored.
    const appliedAt = heldAt !== undefined && heldAt > stateAt.getTime() ? new Date(heldAt) : stateAt;
    const plan = planOfSubscription(deps.config, subscription);
    await deps.subscriptions.upsertForUser(
      {
        userId: user.id,
        stripeSubscriptionId: subscription.id,
        plan,
        status: subscription.status,
        currentPeriodEnd: currentPeriodEnd(subscription),
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        stripeStateAt: appliedAt,
      },
      inner,
    );
    if (plan !== user.plan) await deps.users.updateAccount(user.id, { plan, quota: PLAN_QUOTAS[plan] }, inner);
    return 'applied';
  };
  return tx ? apply(tx) : deps.db.transaction(apply);
}
