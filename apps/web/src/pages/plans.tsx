import {
  CheckoutResponse,
  PaymentHistory,
  PLAN_NAMES,
  PLAN_QUOTAS,
  PLANS,
  type Plan,
  PortalResponse,
  QuotaResponse,
  SubscriptionView,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiProblem, api } from '../api/client';
import { formatMoney } from '../ui/format';
import { ProblemLine } from '../ui/problem';

const RANK: Record<Plan, number> = { basic: 0, pro: 1, max: 2 };

/** What a change to `to` does, said before the button is pressed (docs/billing.md has the rules). */
function consequence(from: Plan, to: Plan, periodEnd: string | null): string {
  const end = periodEnd ? new Date(periodEnd).toLocaleDateString() : 'the end of the period';
  if (to === 'basic') return `Your subscription ends on ${end}; then ${PLAN_QUOTAS.basic} images a month.`;
  if (RANK[to] > RANK[from])
    return `At once: ${PLAN_QUOTAS[to]} images this month, the difference charged now for the rest of the period.`;
  return `From ${end}: ${PLAN_QUOTAS[to]} images a month; until then you keep ${PLAN_QUOTAS[from]}.`;
}

/**
 * Plans and payments: the plan and this month's quota, the three plans with what each gives (the current one
 * marked), upgrade through Stripe Checkout, plan changes with what they do to the quota, cancel and reactivate, the
 * customer portal, and the payment history. A server without Stripe says so plainly and still shows the plans,
 * without the buttons to buy them.
 */
export function PlansPage() {
  const queries = useQueryClient();
  const quota = useQuery({ queryKey: ['quota'], queryFn: () => api('/api/auth/quota', QuotaResponse) });
  const subscription = useQuery({
    queryKey: ['subscription'],
    queryFn: () => api('/api/payments/subscription', SubscriptionView),
    retry: false,
  });
  const history = useQuery({
    queryKey: ['payments'],
    queryFn: () => api('/api/payments/history', PaymentHistory),
    retry: false,
  });
  const refresh = () =>
    Promise.all(
      ['quota', 'subscription', 'payments', 'me'].map((key) => queries.invalidateQueries({ queryKey: [key] })),
    );
  const go = (response: { url: string }) => window.location.assign(response.url);
  const checkout = useMutation({
    mutationFn: (plan: Plan) => api('/api/payments/checkout', CheckoutResponse, { method: 'POST', json: { plan } }),
    onSuccess: go,
  });
  const portal = useMutation({
    mutationFn: () => api('/api/payments/portal', PortalResponse, { method: 'POST' }),
    onSuccess: go,
  });
  const change = useMutation({
    mutationFn: (action: { path: string; json?: unknown }) =>
      api(`/api/payments/subscription${action.path}`, SubscriptionView, { method: 'POST', json: action.json }),
    onSuccess: refresh,
  });

  const notConfigured =
    subscription.error instanceof ApiProblem && subscription.error.code === 'payments_not_configured';
  const current = quota.data?.plan ?? 'basic';
  const sub = subscription.data;
  const paid = sub !== null && sub !== undefined && sub.status !== 'canceled';

  return (
    <>
      <section aria-labelledby="plan-title">
        <h2 id="plan-title">Your plan</h2>
        {quota.data && (
          <p>
            {PLAN_NAMES[current]}: {quota.data.used} of {quota.data.quota} images used this month.
          </p>
        )}
        {sub && (
          <p>
            Subscription {sub.status}
            {sub.currentPeriodEnd && `, current period until ${new Date(sub.currentPeriodEnd).toLocaleDateString()}`}
            {sub.cancelAtPeriodEnd && ': it ends then.'}
          </p>
        )}
        {notConfigured && (
          <p role="status">
            Payments are not set up on this server, so plans cannot be bought here. An operator can change your plan.
          </p>
        )}
        {paid && (
          <p className="actions">
            <button type="button" className="secondary" onClick={() => portal.mutate()}>
              Manage billing
            </button>
            {sub.cancelAtPeriodEnd ? (
              <button type="button" className="secondary" onClick={() => change.mutate({ path: '/reactivate' })}>
                Keep my subscription
              </button>
            ) : (
              <button type="button" className="danger" onClick={() => change.mutate({ path: '/cancel' })}>
                Cancel at the period's end
              </button>
            )}
          </p>
        )}
        <ProblemLine error={checkout.error ?? portal.error ?? change.error} />
      </section>
      <section aria-labelledby="plans-title">
        <h2 id="plans-title">Plans</h2>
        {notConfigured && (
          <p className="meta">What each plan gives; here an operator sets yours, since payments are not set up.</p>
        )}
        <ul aria-label="Plans" className="plan-cards">
          {PLANS.map((plan) => (
            <li key={plan} aria-current={plan === quota.data?.plan ? 'true' : undefined}>
              <h3>{PLAN_NAMES[plan]}</h3>
              <p className="quota">
                <strong>{PLAN_QUOTAS[plan]}</strong> images a month
              </p>
              {!quota.data ? null : plan === current ? (
                <span className="badge">Your plan</span>
              ) : paid ? (
                <>
                  <span className="meta">{consequence(current, plan, sub.currentPeriodEnd)}</span>
                  <button type="button" onClick={() => change.mutate({ path: '', json: { plan } })}>
                    Switch to {PLAN_NAMES[plan]}
                  </button>
                </>
              ) : (
                // Checkout only once the server has said it takes payments.
                subscription.isSuccess &&
                plan !== 'basic' && (
                  <button type="button" onClick={() => checkout.mutate(plan)}>
                    Upgrade to {PLAN_NAMES[plan]}
                  </button>
                )
              )}
            </li>
          ))}
        </ul>
      </section>
      {!notConfigured && (
        <section aria-labelledby="payments-title">
          <h2 id="payments-title">Payments</h2>
          {history.data?.items.length === 0 && <p className="empty">No payment yet.</p>}
          <ul aria-label="Payment history">
            {history.data?.items.map((payment) => (
              <li key={payment.id}>
                <span>
                  {new Date(payment.createdAt).toLocaleDateString()} {payment.description ?? ''}
                </span>
                <span>
                  {formatMoney(payment.amount, payment.currency)} · {payment.status.replace('_', ' ')}
                  {payment.refundedAmount > 0 && ` (${formatMoney(payment.refundedAmount, payment.currency)} refunded)`}
                </span>
              </li>
            ))}
          </ul>
          <ProblemLine error={history.error} />
        </section>
      )}
    </>
  );
}
