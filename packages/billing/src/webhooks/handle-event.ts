import type { PaymentStatus } from '@renamer/contracts';
import type {
  AuditLogRepository,
  Executor,
  PaymentRepository,
  UserRepository,
  WebhookEventRepository,
} from '@renamer/db';
import type Stripe from 'stripe';
import { type SubscriptionSyncDeps, syncSubscription } from '../subscription-sync';

export interface WebhookDeps extends SubscriptionSyncDeps {
  /** Read only when two states of a subscription share one second. */
  stripe: { subscriptions: Pick<Stripe['subscriptions'], 'retrieve'> };
  users: SubscriptionSyncDeps['users'] & Pick<UserRepository, 'findById' | 'findByStripeCustomerId'>;
  webhookEvents: Pick<WebhookEventRepository, 'recordOnce' | 'markProcessed'>;
  payments: Pick<
    PaymentRepository,
    'create' | 'update' | 'findByStripeInvoiceId' | 'findByStripePaymentIntentId' | 'setRefundedAmount'
  >;
  auditLog: Pick<AuditLogRepository, 'append'>;
  now?: () => Date;
}

/** `acted` (or recorded, for a type nobody acts on), `duplicate` (this event id was handled before). */
export type WebhookOutcome = 'acted' | 'duplicate';

/** Every subscription event carries the whole subscription: each one makes the user follow its state. */
const SUBSCRIPTION_EVENTS = new Set<string>([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
]);

const INVOICE_STATUS: Record<string, PaymentStatus> = {
  'invoice.paid': 'succeeded',
  'invoice.payment_failed': 'failed',
  'invoice.payment_action_required': 'pending',
};

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Acts on one verified Stripe event exactly once: its id is recorded first, in the transaction of its effect,
 * so a redelivery, or a second delivery racing the first, finds it and does nothing; an effect that fails rolls
 * the record back with it, and Stripe's retry acts again. Events about a customer no user has are recorded and
 * change nothing.
 */
export async function handleStripeEvent(deps: WebhookDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  const now = deps.now ?? (() => new Date());
  return deps.db.transaction(async (tx) => {
    if (!(await deps.webhookEvents.recordOnce(event.id, event.type, tx))) return 'duplicate';
    await act(deps, event, tx);
    await deps.webhookEvents.markProcessed(event.id, now(), tx);
    return 'acted';
  });
}

async function act(deps: WebhookDeps, event: Stripe.Event, tx: Executor): Promise<void> {
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = event.data.object as Stripe.Subscription;
    const stateAt = new Date(event.created * 1000);
    if ((await syncSubscription(deps, subscription, { stateAt }, tx)) === 'same_instant') {
      const current = await deps.stripe.subscriptions.retrieve(subscription.id);
      await syncSubscription(deps, current, { stateAt, authoritative: true }, tx);
    }
    if (event.type === 'customer.subscription.trial_will_end') {
      await forOperators(deps, event, idOf(subscription.customer), tx, { subscription: subscription.id });
    }
    return;
  }
  const invoiceStatus = INVOICE_STATUS[event.type];
  if (invoiceStatus) return recordInvoice(deps, event.data.object as Stripe.Invoice, invoiceStatus, tx);
  switch (event.type) {
    case 'checkout.session.completed':
      return linkCustomer(deps, event.data.object as Stripe.Checkout.Session, tx);
    case 'charge.refunded':
      return recordRefund(deps, event.data.object as Stripe.Charge, tx);
    case 'charge.dispute.created': {
      const dispute = event.data.object as Stripe.Dispute;
      const charge = await deps.payments.findByStripePaymentIntentId(idOf(dispute.payment_intent) ?? '', tx);
      return forOperators(deps, event, null, tx, {
        charge: idOf(dispute.charge),
        paymentId: charge?.id ?? null,
        amount: dispute.amount,
        currency: dispute.currency,
        reason: dispute.reason,
      });
    }
  }
}

/** The customer Checkout created becomes the user's (`client_reference_id`), unless the user already has one. */
async function linkCustomer(deps: WebhookDeps, session: Stripe.Checkout.Session, tx: Executor): Promise<void> {
  const customer = idOf(session.customer);
  if (!session.client_reference_id || !customer) return;
  const user = await deps.users.findById(session.client_reference_id, tx);
  if (user && !user.stripeCustomerId) await deps.users.updateAccount(user.id, { stripeCustomerId: customer }, tx);
}

/** One payment row per invoice: paid, failed or waiting for the customer, as its latest event says. */
async function recordInvoice(deps: WebhookDeps, invoice: Stripe.Invoice, status: PaymentStatus, tx: Executor) {
  const customer = idOf(invoice.customer);
  const user = customer ? await deps.users.findByStripeCustomerId(customer, tx) : null;
  if (!user || !invoice.id) return;
  const amount = status === 'succeeded' ? invoice.amount_paid : invoice.amount_due;
  const paymentIntent = idOf((invoice as { payment_intent?: string | { id: string } | null }).payment_intent);
  const description = invoice.lines?.data[0]?.description ?? invoice.description ?? null;
  const existing = await deps.payments.findByStripeInvoiceId(invoice.id, tx);
  if (existing) {
    await deps.payments.update(
      existing.id,
      { status, amount, ...(paymentIntent && { stripePaymentIntentId: paymentIntent }) },
      tx,
    );
    return;
  }
  await deps.payments.create(
    {
      userId: user.id,
      amount,
      currency: invoice.currency,
      status,
      description,
      stripeCustomerId: customer,
      stripeInvoiceId: invoice.id,
      stripePaymentIntentId: paymentIntent,
    },
    tx,
  );
}

/** Stripe reports the running total refunded; the payment row takes it, and its status follows. */
async function recordRefund(deps: WebhookDeps, charge: Stripe.Charge, tx: Executor): Promise<void> {
  const paymentIntent = idOf(charge.payment_intent);
  const payment = paymentIntent ? await deps.payments.findByStripePaymentIntentId(paymentIntent, tx) : null;
  if (payment) await deps.payments.setRefundedAmount(payment.id, charge.amount_refunded, tx);
}

/** What operators must see (a dispute, a trial ending): the audit log, with the user when there is one. */
async function forOperators(
  deps: WebhookDeps,
  event: Stripe.Event,
  customer: string | null,
  tx: Executor,
  details: Record<string, unknown>,
): Promise<void> {
  const user = customer ? await deps.users.findByStripeCustomerId(customer, tx) : null;
  await deps.auditLog.append(
    {
      actorId: null,
      action: `stripe.${event.type}`,
      targetType: user ? 'user' : 'stripe_event',
      targetId: user?.id ?? event.id,
      details: { eventId: event.id, ...details },
    },
    tx,
  );
}
