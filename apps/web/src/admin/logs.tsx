import { LogList, SHIPPED_LOG_LEVELS } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';

const SERVICES = ['api', 'worker', 'admin-api'];

/** Recent warnings and errors of every service, newest first, by level, service and request. */
export function LogsSection() {
  const id = useId();
  const [filter, setFilter] = useState({ level: 'warn', service: '', requestId: '' });
  const logs = useQuery({
    queryKey: ['admin', 'logs', filter],
    queryFn: () => {
      const query = new URLSearchParams({ limit: '200', level: filter.level });
      if (filter.service) query.set('service', filter.service);
      if (filter.requestId) query.set('requestId', filter.requestId);
      return api(`/api/admin/logs?${query}`, LogList);
    },
    refetchInterval: 10_000,
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Logs</h2>
      <p className="actions">
        <label>
          Level and worse
          <select value={filter.level} onChange={(event) => setFilter({ ...filter, level: event.target.value })}>
            {SHIPPED_LOG_LEVELS.map((level) => (
              <option key={level}>{level}</option>
            ))}
          </select>
        </label>
        <label>
          Service
          <select value={filter.service} onChange={(event) => setFilter({ ...filter, service: event.target.value })}>
            <option value="">every service</option>
            {SERVICES.map((service) => (
              <option key={service}>{service}</option>
            ))}
          </select>
        </label>
        <label>
          Request id
          <input
            value={filter.requestId}
            onChange={(event) => setFilter({ ...filter, requestId: event.target.value.trim() })}
          />
        </label>
      </p>
      <ProblemLine error={logs.error} />
      {logs.data?.items.length === 0 && <p className="empty">Nothing logged at this level.</p>}
      <ul aria-label="Log lines" className="logs">
        {logs.data?.items.map((entry) => (
          <li key={entry.id}>
            <span>
              <strong>{entry.level}</strong> {entry.service}: {entry.msg}
              {entry.err && (
                <span className="meta">
                  {' '}
                  {entry.err.type}: {entry.err.message}
                </span>
              )}
            </span>
            <span className="meta">
              {entry.time} {entry.requestId && `· ${entry.requestId}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
