import { AuditLogList } from '@renamer/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { formatTime } from '../ui/format';
import { ProblemLine } from '../ui/problem';

const changes = (before: Record<string, unknown> | null, after: Record<string, unknown> | null) =>
  Object.keys({ ...before, ...after })
    .map((field) => `${field}: ${JSON.stringify(before?.[field] ?? null)} → ${JSON.stringify(after?.[field] ?? null)}`)
    .join('; ');

/** What admins changed, newest first, with the fields before and after; filtered by action or target. */
export function AuditLogSection() {
  const id = useId();
  const [filter, setFilter] = useState({ action: '', targetId: '' });
  const entries = useInfiniteQuery({
    queryKey: ['admin', 'audit', filter],
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (filter.action) query.set('action', filter.action);
      if (filter.targetId) query.set('targetId', filter.targetId);
      if (pageParam) query.set('cursor', pageParam);
      return api(`/api/admin/audit-log?${query}`, AuditLogList);
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Audit log</h2>
      <p className="actions">
        <label>
          Action
          <input
            placeholder="user.ban"
            value={filter.action}
            onChange={(event) => setFilter({ ...filter, action: event.target.value.trim() })}
          />
        </label>
        <label>
          Target id
          <input
            value={filter.targetId}
            onChange={(event) => setFilter({ ...filter, targetId: event.target.value.trim() })}
          />
        </label>
      </p>
      <ProblemLine error={entries.error} />
      {entries.data?.pages[0]?.items.length === 0 && (
        <p className="empty">
          {filter.action || filter.targetId
            ? 'No audit entry matches these filters.'
            : 'The audit log is empty: no admin has changed anything yet.'}
        </p>
      )}
      <ul aria-label="Audit entries">
        {entries.data?.pages
          .flatMap((page) => page.items)
          .map((entry) => (
            <li key={entry.id}>
              <span>
                <strong>{entry.action}</strong> {entry.targetType} {entry.targetId}
                <span className="meta"> {changes(entry.before, entry.after)}</span>
              </span>
              <span className="meta">
                {formatTime(entry.createdAt)} by {entry.actorId ?? 'a deleted admin'}
              </span>
            </li>
          ))}
      </ul>
      {entries.hasNextPage && (
        <button type="button" className="secondary" onClick={() => entries.fetchNextPage()}>
          Older entries
        </button>
      )}
    </section>
  );
}
