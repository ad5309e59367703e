import { randomUUID } from 'node:crypto';
import { AppError, type PaymentView, PLAN_QUOTAS, type Plan, type SubscriptionView } from '@renamer/contracts';
import type { Payment, PaymentRepository, Subscription, User } from '@renamer/db';
import type Stripe from 'stripe';
import type { PaidPlan } from './config';
import { type SubscriptionSyncDeps, syncSubscription } from './subscription-sync';

export interface BillingServiceDeps extends SubscriptionSyncDeps {
  stripe: Stripe;
  payments: Pick<PaymentRepository, 'listForUser'>;
  /** Where Checkout and the Customer Portal send the person back. */
  publicUrl: string;
  now?: () => Date;
}

const ENTITLED = new Set(['active', 'trialing', 'past_due']);
const hasPaidPlan = (row: Subscription | null): row is Subscription =>
  row !== null && row.plan !== 'basic' && ENTITLED.has(row.status);

const conflict = (message: string) => new AppError('conflict', message);

/** A payment as its payer sees it. */
export const toPaymentView = (payment: Payment): PaymentView => ({
  id: payment.id,
  amount: payment.amount,
  currency: payment.currency,
  status: payment.status,
  description: payment.description,
  refundedAmount: payment.refundedAmount,
  createdAt: payment.createdAt.toISOString(),
});

export function toSubscriptionView(row: Subscription | null): SubscriptionView {
  if (!row) return null;
  return {
    plan: row.plan,
    status: row.status,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/**
 * The payments endpoints' work: one Stripe customer per user, Checkout for a first subscription, the Customer
 * Portal, plan changes (an upgrade at once with proration invoiced, a downgrade at the period's end through a
 * subscription schedule), cancellation at period end and its undoing, and the history. Every create carries an
 * idempotency key; what Stripe answers about the subscription is applied at once with `syncSubscription` (the
 * webhook that follows finds it applied).
 */
export function createBillingService(deps: BillingServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const back = (outcome: string) => `${deps.publicUrl.replace(/\/+$/, '')}/?billing=${outcome}`;

  /** The user's Stripe customer, created once: concurrent first calls share one through the idempotency key. */
  async function customerOf(user: User): Promise<string> {
    if (user.stripeCustomerId) return user.stripeCustomerId;
    const customer = await deps.stripe.customers.create(
      { metadata: { userId: user.id } },
      { idempotencyKey: `customer-for-user-${user.id}` },
    );
    await deps.users.updateAccount(user.id, { stripeCustomerId: customer.id });
    return customer.id;
  }

  async function paidSubscription(user: User): Promise<{ row: Subscription; stripe: Stripe.Subscription }> {
    const row = await deps.subscriptions.findByUserId(user.id);
    if (!hasPaidPlan(row)) throw conflict('There is no paid subscription to change: choose a plan through checkout.');
    return { row, stripe: await deps.stripe.subscriptions.retrieve(row.stripeSubscriptionId) };
  }

  async function applied(user: User, subscription: Stripe.Subscription): Promise<SubscriptionView> {
    await syncSubscription(deps, subscription, { stateAt: now(), authoritative: true });
    return toSubscriptionView(await deps.subscriptions.findByUserId(user.id));
  }

  /** A pending downgrade is a schedule on the subscription: releasing it keeps the current plan. */
  async function releaseSchedule(subscription: Stripe.Subscription): Promise<void> {
    const schedule = typeof subscription.schedule === 'string' ? subscription.schedule : subscription.schedule?.id;
    if (schedule) await deps.stripe.subscriptionSchedules.release(schedule);
  }

  return {
    async checkout(user: User, plan: PaidPlan) {
      if (hasPaidPlan(await deps.subscriptions.findByUserId(user.id))) {
        throw conflict('You already have a paid plan: change it through POST /api/payments/subscription.');
      }
      const session = await deps.stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: await customerOf(user),
          client_reference_id: user.id,
          line_items: [{ price: deps.config.prices[plan], quantity: 1 }],
          success_url: back('success'),
          cancel_url: back('cancelled'),
        },
        { idempotencyKey: `checkout-${randomUUID()}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a url');
      return { url: session.url, sessionId: session.id };
    },

    async portal(user: User) {
      if (!user.stripeCustomerId) throw conflict('There is no billing account yet: subscribe through checkout first.');
      const session = await deps.stripe.billingPortal.sessions.create(
        { customer: user.stripeCustomerId, return_url: back('portal') },
        { idempotencyKey: `portal-${randomUUID()}` },
      );
      return { url: session.url };
    },

    async subscription(user: User): Promise<SubscriptionView> {
      return toSubscriptionView(await deps.subscriptions.findByUserId(user.id));
    },

    async changePlan(user: User, plan: Plan): Promise<SubscriptionView> {
      const { row, stripe: current } = await paidSubscription(user);
      if (plan === row.plan) throw conflict(`You are on the ${plan} plan already.`);
      if (plan === 'basic') {
        return applied(user, await deps.stripe.subscriptions.update(current.id, { cancel_at_period_end: true }));
      }
      const item = current.items.data[0]!;
      if (PLAN_QUOTAS[plan] > PLAN_QUOTAS[row.plan]) {
        await releaseSchedule(current);
        const upgraded = await deps.stripe.subscriptions.update(current.id, {
          items: [{ id: item.id, price: deps.config.prices[plan] }],
          proration_behavior: 'always_invoice',
          cancel_at_period_end: false,
        });
        return applied(user, upgraded);
      }
      // A downgrade waits for the period's end: a schedule's second phase, since a pending update cannot wait.
      const scheduleId =
        (typeof current.schedule === 'string' ? current.schedule : current.schedule?.id) ??
        (await deps.stripe.subscriptionSchedules.create({ from_subscription: current.id })).id;
      await deps.stripe.subscriptionSchedules.update(scheduleId, {
        end_behavior: 'release',
        phases: [
          {
            items: [{ price: item.price.id, quantity: 1 }],
            start_date: item.current_period_start,
            end_date: item.current_period_end,
          },
          { items: [{ price: deps.config.prices[plan], quantity: 1 }] },
        ],
      });
      return applied(user, await deps.stripe.subscriptions.retrieve(current.id));
    },

    async cancel(user: User): Promise<SubscriptionView> {
      const { stripe: current } = await paidSubscription(user);
      await releaseSchedule(current);
      return applied(user, await deps.stripe.subscriptions.update(current.id, { cancel_at_period_end: true }));
    },

    async reactivate(user: User): Promise<SubscriptionView> {
      const { stripe: current } = await paidSubscription(user);
      await releaseSchedule(current);
      return applied(user, await deps.stripe.subscriptions.update(current.id, { cancel_at_period_end: false }));
    },

    async history(user: User): Promise<{ items: PaymentView[] }> {
      const { items } = await deps.payments.listForUser(user.id, { limit: 100 });
      return { items: items.map(toPaymentView) };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
