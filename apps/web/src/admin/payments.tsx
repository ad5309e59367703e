import { AdminPaymentList, type AdminPaymentView, PaymentView, REFUND_REASONS } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { formatMoney, formatTime } from '../ui/format';
import { ProblemLine } from '../ui/problem';

const REFUNDABLE = new Set(['succeeded', 'partially_refunded']);

/** Every payment, newest first, by status; a refund (whole or part) through Stripe. */
export function PaymentsSection() {
  const id = useId();
  const [status, setStatus] = useState('');
  const payments = useQuery({
    queryKey: ['admin', 'payments', status],
    queryFn: () => api(`/api/admin/payments?limit=50${status ? `&status=${status}` : ''}`, AdminPaymentList),
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Payments</h2>
      <label htmlFor={`${id}-status`}>Status</label>
      <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value)}>
        <option value="">all</option>
        {['succeeded', 'pending', 'failed', 'partially_refunded', 'refunded'].map((name) => (
          <option key={name} value={name}>
            {name.replace('_', ' ')}
          </option>
        ))}
      </select>
      <ProblemLine error={payments.error} />
      {payments.data?.items.length === 0 && <p className="empty">No payment.</p>}
      <ul aria-label="Payments">
        {payments.data?.items.map((payment) => (
          <PaymentRow key={payment.id} payment={payment} />
        ))}
      </ul>
    </section>
  );
}

function PaymentRow({ payment }: { payment: AdminPaymentView }) {
  const queries = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<(typeof REFUND_REASONS)[number]>('requested_by_customer');
  // One key per refund the admin means: a double click or a retried request refunds once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const refund = useMutation({
    mutationFn: () =>
      api(`/api/admin/payments/${payment.id}/refund`, PaymentView, {
        method: 'POST',
        json: { reason, ...(amount ? { amount: Math.round(Number(amount) * 100) } : {}) },
        headers: { 'idempotency-key': idempotencyKey },
      }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['admin', 'payments'] }),
  });
  const left = payment.amount - payment.refundedAmount;
  return (
    <li>
      <span>
        {formatTime(payment.createdAt)} · {formatMoney(payment.amount, payment.currency)} · {payment.status}
        {payment.refundedAmount > 0 && ` · ${formatMoney(payment.refundedAmount, payment.currency)} refunded`}
        <span className="meta"> · user {payment.userId}</span>
      </span>
      {REFUNDABLE.has(payment.status) && left > 0 && (
        <span className="actions">
          <label>
            Amount (empty: all {formatMoney(left, payment.currency)})
            <input
              type="number"
              min={0}
              step="0.01"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
            />
          </label>
          <label>
            Reason
            <select value={reason} onChange={(event) => setReason(event.target.value as typeof reason)}>
              {REFUND_REASONS.map((name) => (
                <option key={name} value={name}>
                  {name.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="danger" disabled={refund.isPending} onClick={() => refund.mutate()}>
            Refund
          </button>
        </span>
      )}
      <ProblemLine error={refund.error} />
    </li>
  );
}
