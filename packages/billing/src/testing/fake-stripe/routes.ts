import type { FakeStripeRoute, FakeStripeStore, StripeObject } from './server';
import { StripeApiError } from './server';

const flag = (value: unknown) => value === 'true' || value === true;
type Params = Record<string, unknown>;

/** Subscription items as the API nests them: the price as an object, the period on the item. */
function withPrice(subscription: StripeObject, price: string): void {
  const items = subscription.items as { data: Params[] };
  items.data[0] = { ...items.data[0], price: { id: price, object: 'price' } };
}

/**
 * The endpoints the billing service calls, answering as Stripe's API reference describes, kept to the fields the
 * service reads: customers, Checkout Sessions, Customer Portal sessions, subscriptions (retrieve, update) and
 * subscription schedules (create from a subscription, update its phases, release).
 */
export const STRIPE_ROUTES: readonly FakeStripeRoute[] = [
  {
    method: 'POST',
    pattern: '/v1/customers',
    handle: ({ body }, store) => ({ body: store.create('customer', 'cus', { metadata: body.metadata ?? {} }) }),
  },
  {
    method: 'POST',
    pattern: '/v1/checkout/sessions',
    handle: ({ body }, store) => {
      if (body.mode !== 'subscription')
        throw new StripeApiError(400, 'invalid_request_error', 'mode', undefined, 'mode');
      const session = store.create('checkout.session', 'cs_test', {
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        line_items: body.line_items,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: 'open',
      });
      session.url = `https://checkout.stripe.test/c/pay/${session.id}`;
      return { body: session };
    },
  },
  {
    method: 'POST',
    pattern: '/v1/billing_portal/sessions',
    handle: ({ body }, store) => {
      store.get('customer', String(body.customer));
      const session = store.create('billing_portal.session', 'bps', {
        customer: body.customer,
        return_url: body.return_url,
      });
      session.url = `https://billing.stripe.test/p/session/${session.id}`;
      return { body: session };
    },
  },
  {
    method: 'GET',
    pattern: '/v1/subscriptions/:id',
    handle: ({ params }, store) => ({ body: store.get('subscription', params.id!) }),
  },
  {
    method: 'POST',
    pattern: '/v1/subscriptions/:id',
    handle: ({ params, body }, store) => {
      const subscription = store.get('subscription', params.id!);
      if (subscription.schedule && body.cancel_at_period_end !== undefined) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'The subscription is managed by a subscription schedule.',
        );
      }
      if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = flag(body.cancel_at_period_end);
      const items = body.items as Params[] | undefined;
      if (items?.[0]?.price) withPrice(subscription, String(items[0].price));
      if (body.proration_behavior) subscription.last_proration_behavior = body.proration_behavior;
      return { body: subscription };
    },
  },
  {
    method: 'POST',
    pattern: '/v1/subscription_schedules',
    handle: ({ body }, store) => {
      const subscription = store.get('subscription', String(body.from_subscription));
      const schedule = store.create('subscription_schedule', 'sub_sched', {
        subscription: subscription.id,
        status: 'active',
        phases: [],
        end_behavior: 'release',
      });
      subscription.schedule = schedule.id;
      return { body: schedule };
    },
  },
  {
    method: 'POST',
    pattern: '/v1/subscription_schedules/:id',
    handle: ({ params, body }, store) => ({
      body: store.update('subscription_schedule', params.id!, { phases: body.phases, end_behavior: body.end_behavior }),
    }),
  },
  {
    method: 'POST',
    pattern: '/v1/subscription_schedules/:id/release',
    handle: ({ params }, store) => {
      const schedule = store.update('subscription_schedule', params.id!, { status: 'released' });
      store.update('subscription', String(schedule.subscription), { schedule: null });
      return { body: schedule };
    },
  },
  {
    method: 'POST',
    pattern: '/v1/refunds',
    handle: ({ body }, store) => {
      const charge = store.list('charge', (candidate) => candidate.payment_intent === body.payment_intent)[0];
      if (!charge) throw new StripeApiError(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing');
      const amount = Number(body.amount ?? Number(charge.amount) - Number(charge.amount_refunded));
      if (Number(charge.amount_refunded) + amount > Number(charge.amount)) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          'Refund amount is greater than unrefunded amount.',
          'amount_too_large',
        );
      }
      charge.amount_refunded = Number(charge.amount_refunded) + amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      return {
        body: store.create('refund', 're', {
          amount,
          charge: charge.id,
          payment_intent: body.payment_intent,
          status: 'succeeded',
          reason: body.reason ?? null,
        }),
      };
    },
  },
  {
    method: 'GET',
    pattern: '/v1/charges/:id',
    handle: ({ params }, store) => ({ body: store.get('charge', params.id!) }),
  },
];

/** A charge Stripe collected for a payment intent, for refund tests to start from. */
export function collectedCharge(
  store: FakeStripeStore,
  paymentIntent: string,
  amount: number,
  currency = 'eur',
): StripeObject {
  return store.create('charge', 'ch', {
    payment_intent: paymentIntent,
    amount,
    amount_refunded: 0,
    currency,
    refunded: false,
  });
}

/**
 * A subscription as Checkout leaves it (active, one item, a month's period), for a test to start from, as Stripe
 * would have made it for `customer`.
 */
export function activeSubscription(store: FakeStripeStore, customer: string, price: string): StripeObject {
  const start = store.now();
  return store.create('subscription', 'sub', {
    customer,
    status: 'active',
    cancel_at_period_end: false,
    schedule: null,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${customer}`,
          object: 'subscription_item',
          price: { id: price, object: 'price' },
          current_period_start: start,
          current_period_end: start + 30 * 86_400,
        },
      ],
    },
  });
}
