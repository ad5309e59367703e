import {
  type AdminUser,
  AdminUserDetail,
  AdminUserList,
  AdminUser as AdminUserSchema,
  PLAN_NAMES,
  PLANS,
  type Plan,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../api/client';
import { formatMoney, formatTime } from '../ui/format';
import { ProblemLine } from '../ui/problem';

/** Find users (id, email or part of a name), then inspect one: usage, plan and quota, ban and unban. */
export function UsersSection() {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | undefined>();
  const users = useQuery({
    queryKey: ['admin', 'users', query],
    queryFn: () => api(`/api/admin/users?limit=50${query ? `&q=${encodeURIComponent(query)}` : ''}`, AdminUserList),
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Users</h2>
      <search>
        <form onSubmit={search}>
          <label htmlFor={`${id}-q`}>Find a user (id, email or name)</label>
          <input id={`${id}-q`} value={typed} onChange={(event) => setTyped(event.target.value)} />
          <button type="submit">Search</button>
        </form>
      </search>
      <ProblemLine error={users.error} />
      <ul aria-label="Users found">
        {users.data?.items.map((user) => (
          <li key={user.id}>
            <span>
              <strong>{user.displayName}</strong> · {PLAN_NAMES[user.plan]} · {user.role}
              {user.bannedAt && ' · banned'}
            </span>
            <button type="button" onClick={() => setSelected(user.id)} aria-label={`Open ${user.displayName}`}>
              Open
            </button>
          </li>
        ))}
      </ul>
      {users.data?.items.length === 0 && <p className="empty">Nobody matches.</p>}
      {selected && <UserDetail userId={selected} />}
    </section>
  );
}

function UserDetail({ userId }: { userId: string }) {
  const id = useId();
  const queries = useQueryClient();
  const detail = useQuery({
    queryKey: ['admin', 'user', userId],
    queryFn: () => api(`/api/admin/users/${userId}`, AdminUserDetail),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin'] });
  const update = useMutation({
    mutationFn: (change: { path: string; method: string; json?: unknown }) =>
      api(`/api/admin/users/${userId}${change.path}`, AdminUserSchema, { method: change.method, json: change.json }),
    onSuccess: refresh,
  });
  const user = detail.data;
  if (!user) return <ProblemLine error={detail.error} />;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{user.displayName}</h3>
      <p className="meta">
        {user.id} · joined {formatTime(user.createdAt)} · {user.batches} batches · {user.activeSessions} sessions ·{' '}
        {user.activeApiKeys} API keys
      </p>
      <p>
        {user.usage.used} of {user.usage.quota} images used this month.
      </p>
      <PlanForm user={user} onSave={(json) => update.mutate({ path: '', method: 'PATCH', json })} />
      <BanForm
        user={user}
        onBan={(reason) => update.mutate({ path: '/ban', method: 'POST', json: { reason } })}
        onUnban={() => update.mutate({ path: '/unban', method: 'POST' })}
      />
      <ProblemLine error={update.error} />
      {user.payments.length > 0 && (
        <ul aria-label="Latest payments">
          {user.payments.map((payment) => (
            <li key={payment.id}>
              <span>{formatTime(payment.createdAt)}</span>
              <span>
                {formatMoney(payment.amount, payment.currency)} · {payment.status}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h4 id={`${id}-credits`}>Quota given back</h4>
      {user.quotaCredits.length > 0 ? (
        <ul aria-labelledby={`${id}-credits`}>
          {user.quotaCredits.map((credit, index) => (
            <li key={credit.imageId ?? `deleted-${index}`}>
              <span>{formatTime(credit.createdAt)}</span>
              <span>
                {credit.imageId ? `image ${credit.imageId}` : 'a deleted image'} · {credit.reason}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">No image failed through the service's fault.</p>
      )}
    </section>
  );
}

function PlanForm({ user, onSave }: { user: AdminUser; onSave: (change: { plan: Plan; quota?: number }) => void }) {
  const id = useId();
  const [plan, setPlan] = useState<Plan>(user.plan);
  const [quota, setQuota] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ plan, ...(quota ? { quota: Number(quota) } : {}) });
  };
  return (
    <form onSubmit={submit} className="actions">
      <label htmlFor={`${id}-plan`}>Plan</label>
      <select id={`${id}-plan`} value={plan} onChange={(event) => setPlan(event.target.value as Plan)}>
        {PLANS.map((name) => (
          <option key={name} value={name}>
            {PLAN_NAMES[name]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-quota`}>Monthly quota (empty: the plan's)</label>
      <input
        id={`${id}-quota`}
        type="number"
        min={0}
        value={quota}
        placeholder={String(user.quota)}
        onChange={(event) => setQuota(event.target.value)}
      />
      <button type="submit">Save plan and quota</button>
    </form>
  );
}

function BanForm({ user, onBan, onUnban }: { user: AdminUser; onBan: (reason: string) => void; onUnban: () => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  if (user.bannedAt) {
    return (
      <p>
        Banned {formatTime(user.bannedAt)}: {user.banReason}{' '}
        <button type="button" className="secondary" onClick={onUnban}>
          Unban
        </button>
      </p>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (reason.trim()) onBan(reason.trim());
      }}
    >
      <label htmlFor={`${id}-reason`}>Reason for a ban</label>
      <input id={`${id}-reason`} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <button type="submit" className="danger" disabled={!reason.trim()}>
        Ban
      </button>
    </form>
  );
}
