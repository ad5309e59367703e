import {
  CreatedWebhook,
  WEBHOOK_EVENTS,
  WebhookDeliveryList,
  type WebhookEvent,
  WebhookList,
  WebhookTestAccepted,
  type WebhookView,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { z } from 'zod';
import { api } from '../api/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { formatTime } from '../ui/format';
import { explain, ProblemLine } from '../ui/problem';

const Nothing = z.null();

const EVENT_WORDS: Record<WebhookEvent, string> = {
  'batch.completed': 'a batch is named',
  'batch.failed': 'a batch failed',
  'batch.cancelled': 'a batch is cancelled',
  'image.failed': 'an image could not be named',
};

/**
 * The account's webhook endpoints: add one (its signing secret shown once), see each one's state (disabled with
 * the reason after repeated failure), send a test event, read its attempt log, delete it.
 */
export function WebhooksSection() {
  const queries = useQueryClient();
  const id = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['batch.completed', 'batch.failed']);
  const [asking, setAsking] = useState<WebhookView | undefined>();
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => api('/api/webhooks', WebhookList) });
  const refresh = () => queries.invalidateQueries({ queryKey: ['webhooks'] });
  const create = useMutation({
    mutationFn: () => api('/api/webhooks', CreatedWebhook, { method: 'POST', json: { url: url.trim(), events } }),
    onSuccess: () => {
      setUrl('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (hookId: string) => api(`/api/webhooks/${hookId}`, Nothing, { method: 'DELETE' }),
    onSuccess: (_, hookId) => {
      if (create.data?.id === hookId) create.reset();
      setAsking(undefined);
      void refresh();
    },
  });
  const toggle = (event: WebhookEvent) =>
    setEvents((chosen) =>
      chosen.includes(event)
        ? chosen.filter((e) => e !== event)
        : WEBHOOK_EVENTS.filter((e) => e === event || chosen.includes(e)),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() && events.length > 0) create.mutate();
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Webhooks</h2>
      <p>
        Your server is told when a batch finishes or an image fails: a signed <code>POST</code> (Standard Webhooks),
        tried again for 24 hours until it answers 2xx.
      </p>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-url`}>Endpoint URL (https)</label>
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          placeholder="https://example.com/renamer-hooks"
          onChange={(event) => setUrl(event.target.value)}
          maxLength={2048}
        />
        <fieldset>
          <legend>Tell it when</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event}>
              <input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} />{' '}
              {EVENT_WORDS[event]} <code>{event}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!url.trim() || events.length === 0 || create.isPending}>
          Add webhook
        </button>
      </form>
      <ProblemLine error={create.error} />
      {create.data && (
        <div role="status" className="new-key">
          <p>Copy this signing secret now: it is shown only once.</p>
          <code data-testid="new-webhook-secret">{create.data.secret}</code>
        </div>
      )}
      {hooks.error && <p className="meta">The webhooks could not be listed: {explain(hooks.error)}</p>}
      {hooks.data?.items.length === 0 && <p className="empty">No webhook yet.</p>}
      <ul aria-label="Your webhooks">
        {hooks.data?.items.map((hook) => (
          <WebhookItem key={hook.id} hook={hook} onDelete={() => setAsking(hook)} />
        ))}
      </ul>
      {asking && (
        <ConfirmDialog
          open
          title="Delete this webhook?"
          confirm="Delete webhook"
          danger
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(asking.id)}
          onCancel={() => {
            setAsking(undefined);
            remove.reset();
          }}
        >
          <p>Nothing more is sent to {asking.url}, and its delivery log goes with it.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function WebhookItem({ hook, onDelete }: { hook: WebhookView; onDelete: () => void }) {
  const queries = useQueryClient();
  const [showLog, setShowLog] = useState(false);
  const ping = useMutation({
    mutationFn: () => api(`/api/webhooks/${hook.id}/test`, WebhookTestAccepted, { method: 'POST' }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['webhook-deliveries', hook.id] }),
  });
  return (
    <li>
      <span>
        <code>{hook.url}</code>: {hook.events.join(', ')}
        {hook.disabledAt
          ? `. Disabled ${formatTime(hook.disabledAt)}: ${hook.disabledReason ?? 'repeated failures'}`
          : ''}
      </span>
      <button type="button" className="secondary" onClick={() => ping.mutate()} disabled={ping.isPending}>
        Send test
      </button>
      <button type="button" className="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
        {showLog ? 'Hide deliveries' : 'Deliveries'}
      </button>
      <button type="button" className="danger" onClick={onDelete} aria-label={`Delete webhook ${hook.url}`}>
        Delete
      </button>
      {ping.isSuccess && <p role="status">Test event queued.</p>}
      <ProblemLine error={ping.error} />
      {showLog && <DeliveryLog hookId={hook.id} />}
    </li>
  );
}

function DeliveryLog({ hookId }: { hookId: string }) {
  const log = useQuery({
    queryKey: ['webhook-deliveries', hookId],
    queryFn: () => api(`/api/webhooks/${hookId}/deliveries?limit=20`, WebhookDeliveryList),
  });
  if (log.error) return <ProblemLine error={log.error} />;
  if (!log.data) return null;
  if (log.data.items.length === 0) return <p className="empty">Nothing sent yet.</p>;
  return (
    <ol aria-label="Delivery attempts">
      {log.data.items.map((attempt) => (
        <li key={attempt.id}>
          {formatTime(attempt.createdAt)} {attempt.event}, attempt {attempt.attempt}: {attempt.status}
          {attempt.responseStatus !== null ? ` (${attempt.responseStatus})` : ''}
          {attempt.error ? `, ${attempt.error}` : ''}
          {attempt.nextAttemptAt ? `; next try ${formatTime(attempt.nextAttemptAt)}` : ''}
        </li>
      ))}
    </ol>
  );
}
