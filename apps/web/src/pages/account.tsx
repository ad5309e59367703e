import {
  ApiKeyList,
  CreatedApiKey,
  DisplayName,
  PLAN_NAMES,
  type Profile,
  Profile as ProfileSchema,
  QuotaResponse,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { z } from 'zod';
import { api } from '../api/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { InstructionsField, TemplateField, TemplateHelp } from '../ui/naming';
import { ProblemLine } from '../ui/problem';
import { DownloadsSection } from './downloads-section';
import { WebhooksSection } from './webhooks-section';

const Nothing = z.null();

/** The signed-in person's account: profile, plan and this month's quota, API keys, and deleting it all. */
export function AccountPage({ profile }: { profile: Profile }) {
  const queries = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => api('/api/auth/logout', Nothing, { method: 'POST' }),
    onSuccess: () => window.location.assign('/'),
  });
  return (
    <>
      <ProfileSection profile={profile} onSaved={() => queries.invalidateQueries({ queryKey: ['me'] })} />
      <NamingDefaultsSection profile={profile} onSaved={(saved) => queries.setQueryData(['me'], saved)} />
      <QuotaSection retainOriginalsDays={profile.retainOriginalsDays ?? null} />
      <ApiKeysSection />
      <DownloadsSection />
      <WebhooksSection />
      <DeleteAccountSection />
      <button type="button" className="secondary" onClick={() => signOut.mutate()}>
        Sign out
      </button>
    </>
  );
}

function ProfileSection({ profile, onSaved }: { profile: Profile; onSaved: () => void }) {
  const inputId = useId();
  const [name, setName] = useState(profile.displayName);
  const save = useMutation({
    mutationFn: (displayName: string) => api('/api/auth/me', ProfileSchema, { method: 'PATCH', json: { displayName } }),
    onSuccess: onSaved,
  });
  const valid = DisplayName.safeParse(name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid.success) save.mutate(valid.data);
  };
  return (
    <section aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Profile</h2>
      <form onSubmit={submit}>
        <label htmlFor={inputId}>Display name</label>
        <input id={inputId} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={!valid.success || save.isPending}>
          Save
        </button>
        {!valid.success && <p role="alert">{valid.error.issues[0]?.message}</p>}
        {save.isSuccess && <p role="status">Saved.</p>}
      </form>
    </section>
  );
}

/** The template and instructions new batches take when their upload names none (PATCH /api/auth/me). */
function NamingDefaultsSection({ profile, onSaved }: { profile: Profile; onSaved: (saved: Profile) => void }) {
  const id = useId();
  const [template, setTemplate] = useState(profile.template ?? '');
  const [instructions, setInstructions] = useState(profile.instructions ?? '');
  const save = useMutation({
    mutationFn: () =>
      api('/api/auth/me', ProfileSchema, {
        method: 'PATCH',
        json: { template: template.trim() || null, instructions: instructions.trim() || null },
      }),
    onSuccess: (saved) => {
      setTemplate(saved.template ?? '');
      setInstructions(saved.instructions ?? '');
      onSaved(saved);
    },
  });
  // What the server holds: the answer to the last save, else the profile the page was given.
  const held = save.data ?? profile;
  const dirty = template.trim() !== (held.template ?? '') || instructions.trim() !== (held.instructions ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Naming defaults</h2>
      <p className="meta">New batches use these when their upload names no template or instructions of its own.</p>
      <form onSubmit={submit}>
        <TemplateField id={`${id}-template`} label="Default naming template" value={template} onChange={setTemplate} />
        <TemplateHelp />
        <InstructionsField
          id={`${id}-instructions`}
          label="Default instructions for the vision model"
          value={instructions}
          onChange={setInstructions}
        />
        <button type="submit" disabled={!dirty || save.isPending}>
          Save defaults
        </button>
        {save.isSuccess && !dirty && <p role="status">Saved: new batches use them.</p>}
        <ProblemLine error={save.error} />
      </form>
    </section>
  );
}

function QuotaSection({ retainOriginalsDays }: { retainOriginalsDays: number | null }) {
  const quota = useQuery({ queryKey: ['quota'], queryFn: () => api('/api/auth/quota', QuotaResponse) });
  if (!quota.data) return null;
  const { plan, used, quota: total, remaining, periodEnd } = quota.data;
  return (
    <section aria-labelledby="quota-title">
      <h2 id="quota-title">Plan</h2>
      <p>
        {PLAN_NAMES[plan]}: {used} of {total} images used this month, {remaining} left until{' '}
        {new Date(periodEnd).toLocaleDateString()}.
      </p>
      <progress max={total} value={used} aria-label="Images used this month" />
      {retainOriginalsDays && (
        <p data-testid="retention-policy">
          Originals are kept {retainOriginalsDays} days; each batch shows its date on the Batches page, at least 7 days
          ahead.
        </p>
      )}
    </section>
  );
}

function ApiKeysSection() {
  const queries = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState('');
  // The key whose revocation is being asked about, if any.
  const [asking, setAsking] = useState<{ id: string; name: string } | undefined>();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => api('/api/auth/api-keys', ApiKeyList) });
  const refresh = () => queries.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: () => api('/api/auth/api-keys', CreatedApiKey, { method: 'POST', json: { name } }),
    onSuccess: () => {
      setName('');
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/api/auth/api-keys/${id}`, Nothing, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      // A revoked key's secret is of no use to anyone: it is shown no longer.
      if (create.data?.id === id) create.reset();
      void refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p>For scripts and the command-line client: `Authorization: Bearer &lt;key&gt;`.</p>
      <form onSubmit={submit}>
        <label htmlFor={nameId}>Name of a new key</label>
        <input id={nameId} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} />
        <button type="submit" disabled={!name.trim() || create.isPending}>
          Create key
        </button>
      </form>
      {create.data && <NewKey secret={create.data.key} />}
      <ProblemLine error={revoke.error} />
      {keys.data?.items.length === 0 && <p className="empty">No API key yet: name one above to make it.</p>}
      <ul aria-label="Your API keys">
        {keys.data?.items.map((key) => (
          <li key={key.id}>
            <span>
              {key.name} <code>{key.prefix}…</code>, created {new Date(key.createdAt).toLocaleDateString()}
              {key.lastUsedAt ? `, last used ${new Date(key.lastUsedAt).toLocaleDateString()}` : ', never used'}
            </span>
            <button type="button" className="danger" onClick={() => setAsking(key)} aria-label={`Revoke ${key.name}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {asking && (
        <ConfirmDialog
          open
          title={`Revoke “${asking.name}”?`}
          confirm="Revoke"
          cancel="Keep it"
          danger
          onConfirm={() => {
            revoke.mutate(asking.id);
            setAsking(undefined);
          }}
          onCancel={() => setAsking(undefined)}
        >
          <p>Scripts using it stop working at once.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A new key's secret, shown this once (only its hash is stored), with a copy button. */
function NewKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="new-key">
      <p>Copy this key now: it is shown only once.</p>
      <code data-testid="new-api-key">{secret}</code>
      <button
        type="button"
        className="secondary"
        onClick={() =>
          navigator.clipboard.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

function DeleteAccountSection() {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api('/api/auth/me', Nothing, { method: 'DELETE' }),
    onSuccess: () => window.location.assign('/'),
  });
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the account</h2>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Delete the account…
      </button>
      <ConfirmDialog
        open={confirming}
        title="Delete your account?"
        confirm="Delete everything"
        cancel="Keep my account"
        danger
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate()}
        onCancel={() => {
          remove.reset();
          setConfirming(false);
        }}
      >
        <p>
          This deletes every batch and image you uploaded, their names and history, your API keys, webhooks and
          sessions, at once and for good. Payments already made stay on record.
        </p>
      </ConfirmDialog>
    </section>
  );
}
