import {
  AdminHealthResponse,
  CLEANABLE_JOB_STATES,
  CleanQueueResponse,
  FailedJobList,
  MetricsSummary,
  QueueList,
  QueueView,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { z } from 'zod';
import { api } from '../api/client';
import { formatTime } from '../ui/format';
import { ProblemLine } from '../ui/problem';

const REFRESH_MS = 5_000;
const Retried = z.unknown();

/** The dependencies' health, each service's metrics, and the job queues with their controls and failed jobs. */
export function HealthAndQueuesSection() {
  const id = useId();
  const health = useQuery({
    queryKey: ['admin', 'health'],
    queryFn: () => api('/api/admin/health', AdminHealthResponse),
    refetchInterval: REFRESH_MS,
  });
  const metrics = useQuery({
    queryKey: ['admin', 'metrics'],
    queryFn: () => api('/api/admin/metrics', MetricsSummary),
    refetchInterval: REFRESH_MS,
  });
  const queues = useQuery({
    queryKey: ['admin', 'queues'],
    queryFn: () => api('/api/admin/queues', QueueList),
    refetchInterval: REFRESH_MS,
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Health and queues</h2>
      <ProblemLine error={health.error ?? metrics.error ?? queues.error} />
      {health.data && (
        <ul aria-label="Dependencies">
          {Object.entries(health.data.checks).map(([name, check]) => (
            <li key={name}>
              <span>{name}</span>
              <span>{check.ok ? `up, ${check.latencyMs} ms` : `down: ${check.error ?? 'no answer'}`}</span>
            </li>
          ))}
        </ul>
      )}
      {metrics.data && (
        <ul aria-label="Services">
          {metrics.data.services.map((service) => (
            <li key={service.name}>
              <span>{service.name}</span>
              <span>
                {service.up
                  ? `up · ${service.requests?.total ?? 0} requests, p95 ${service.requests?.latency.p95 ?? '—'} s · ${service.websocketConnections ?? 0} sockets`
                  : `down: ${service.error ?? 'no answer'}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {queues.data?.items.length === 0 && <p className="empty">No queue.</p>}
      {queues.data?.items.map((queue) => (
        <QueuePanel key={queue.name} queue={queue} />
      ))}
    </section>
  );
}

function QueuePanel({ queue }: { queue: z.infer<typeof QueueView> }) {
  const id = useId();
  const queries = useQueryClient();
  const [state, setState] = useState<(typeof CLEANABLE_JOB_STATES)[number]>('completed');
  const [showFailed, setShowFailed] = useState(false);
  const refresh = () => queries.invalidateQueries({ queryKey: ['admin'] });
  const control = useMutation({
    mutationFn: (action: 'pause' | 'resume') =>
      api(`/api/admin/queues/${queue.name}/${action}`, QueueView, { method: 'POST' }),
    onSuccess: refresh,
  });
  const clean = useMutation({
    mutationFn: () =>
      api(`/api/admin/queues/${queue.name}/clean`, CleanQueueResponse, { method: 'POST', json: { state } }),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        Queue {queue.name} {queue.paused && '(paused)'}
      </h3>
      <p>
        {queue.waiting} waiting, {queue.active} active, {queue.delayed} delayed, {queue.failed} failed,{' '}
        {queue.completed} completed · {queue.workers} workers
      </p>
      <p className="actions">
        {queue.paused ? (
          <button type="button" onClick={() => control.mutate('resume')}>
            Resume {queue.name}
          </button>
        ) : (
          <button type="button" onClick={() => control.mutate('pause')}>
            Pause {queue.name}
          </button>
        )}
        <label>
          Jobs
          <select value={state} onChange={(event) => setState(event.target.value as typeof state)}>
            {CLEANABLE_JOB_STATES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="danger" onClick={() => clean.mutate()}>
          Clean {queue.name}
        </button>
        <button type="button" onClick={() => setShowFailed(!showFailed)} aria-expanded={showFailed}>
          Failed jobs of {queue.name}
        </button>
      </p>
      {clean.data && (
        <p role="status">
          {clean.data.removed} {clean.data.state} jobs removed.
        </p>
      )}
      <ProblemLine error={control.error ?? clean.error} />
      {showFailed && <FailedJobs queue={queue.name} />}
    </section>
  );
}

function FailedJobs({ queue }: { queue: string }) {
  const queries = useQueryClient();
  const failed = useQuery({
    queryKey: ['admin', 'failed', queue],
    queryFn: () => api(`/api/admin/queues/${queue}/failed?limit=50`, FailedJobList),
  });
  const retry = useMutation({
    mutationFn: (jobId: string) =>
      api(`/api/admin/queues/${queue}/jobs/${encodeURIComponent(jobId)}/retry`, Retried, { method: 'POST' }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['admin'] }),
  });
  return (
    <>
      <ProblemLine error={failed.error ?? retry.error} />
      {failed.data?.total === 0 && <p className="empty">No failed job.</p>}
      <ul aria-label={`Failed jobs of ${queue}`}>
        {failed.data?.items.map((job) => (
          <li key={job.id}>
            <span>
              {job.name} #{job.id} · {job.attemptsMade} attempts · {job.failedAt ? formatTime(job.failedAt) : ''}
              <span className="meta"> {job.failedReason}</span>
            </span>
            <button type="button" onClick={() => retry.mutate(job.id)}>
              Retry job {job.id}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
