import {
  BatchList,
  type BatchListItem,
  type BatchStatusResponse,
  BatchStatusResponse as BatchStatusSchema,
} from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';
import { api } from '../api/client';
import { connectionNotice, isFinished, useLiveBatches } from '../api/live-batches';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ProblemLine } from '../ui/problem';
import { downloadArchive } from './archive-panel';
import './upload.css';

/**
 * The person's batches, newest first, those still at work followed live, each with what can be done to it: renamed
 * in place, or deleted after a confirmation that names what goes.
 */
export function BatchesPage({ onReview }: { onReview: (batchId: string) => void }) {
  const batches = useQuery({ queryKey: ['batches'], queryFn: () => api('/api/batch?limit=50', BatchList) });
  const items = batches.data?.items ?? [];
  const connection = useLiveBatches(items.filter((batch) => !isFinished(batch.status)).map((batch) => batch.batchId));
  const notice = connectionNotice(connection);
  return (
    <section aria-labelledby="batches-title">
      <h2 id="batches-title">Batches</h2>
      {notice && <p role="status">{notice}</p>}
      <ProblemLine error={batches.error} />
      {batches.isSuccess && items.length === 0 ? (
        <p className="empty">No batch yet: upload some photos.</p>
      ) : (
        <ul aria-label="Your batches">
          {items.map((batch) => (
            <BatchRow key={batch.batchId} batch={batch} onReview={() => onReview(batch.batchId)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function BatchRow({ batch, onReview }: { batch: BatchListItem; onReview: () => void }) {
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: ['batches'] });
  const change = useMutation({
    mutationFn: (action: 'cancel' | 'retry') =>
      api(`/api/batch/${batch.batchId}/${action}`, BatchStatusSchema, { method: 'POST' }),
    onSuccess: refresh,
  });
  // With the defaults; the review page has the options.
  const download = useMutation({ mutationFn: () => downloadArchive(batch.batchId) });
  const named = batch.counts.ready + batch.counts.approved;
  const label = batch.name ?? new Date(batch.createdAt).toLocaleString();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => api(`/api/batch/${batch.batchId}`, z.null(), { method: 'DELETE' }),
    onSuccess: async () => {
      setConfirming(false);
      queries.removeQueries({ queryKey: ['batch', batch.batchId] });
      queries.removeQueries({ queryKey: ['batch-images', batch.batchId] });
      await refresh();
    },
  });
  return (
    <li data-batch-id={batch.batchId} className="batch-row">
      <BatchName batch={batch} label={label} />
      <span>
        {batch.total} {batch.total === 1 ? 'image' : 'images'}
        {/* The retention policy's date (RETAIN_ORIGINALS_DAYS): shown at least 7 days before it comes. */}
        {batch.removesAt && (
          <span className="meta" data-testid="batch-removes-at">
            {' '}
            · Removed on {new Date(batch.removesAt).toLocaleDateString()}
          </span>
        )}
      </span>
      <span aria-live="polite">
        <span data-testid="batch-status">{batch.status}</span>, {batch.processed} of {batch.total} done
        <progress max={batch.total} value={batch.processed} aria-label={`Progress of ${label}`} />
      </span>
      <span>
        {!isFinished(batch.status) && (
          <button type="button" onClick={() => change.mutate('cancel')}>
            Cancel
          </button>
        )}
        {(batch.counts.failed > 0 || batch.counts.cancelled > 0) && isFinished(batch.status) && (
          <button type="button" onClick={() => change.mutate('retry')}>
            Retry
          </button>
        )}
        {named > 0 && (
          <button type="button" onClick={onReview}>
            Review
          </button>
        )}
        {named > 0 && (
          <button type="button" className="secondary" onClick={() => download.mutate()}>
            Download ZIP
          </button>
        )}
        <button type="button" className="danger" aria-label={`Delete ${label}`} onClick={() => setConfirming(true)}>
          Delete
        </button>
      </span>
      <ProblemLine error={change.error ?? download.error} />
      {confirming && (
        // Asks before the batch is deleted, naming what goes; "Keep it" (or Esc) keeps it.
        <ConfirmDialog
          open
          title={`Delete “${label}”?`}
          confirm="Delete"
          cancel="Keep it"
          danger
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onCancel={() => {
            setConfirming(false);
            remove.reset();
          }}
        >
          <p>
            {batch.total === 1
              ? 'Its image, its name and its preview are'
              : `Its ${batch.total} images, their names and their previews are`}{' '}
            removed for good.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/** The batch's name, and "Rename batch" to change it in place (`PATCH /api/batch/:id { name }`). */
function BatchName({ batch, label }: { batch: BatchStatusResponse; label: string }) {
  const queries = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState<string>();
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const editing = draft !== undefined;
  const rename = useMutation({
    mutationFn: (name: string) =>
      api(`/api/batch/${batch.batchId}`, BatchStatusSchema, { method: 'PATCH', json: { name: name || null } }),
    onSuccess: async (status) => {
      queries.setQueryData(['batch', batch.batchId], status);
      await queries.invalidateQueries({ queryKey: ['batches'] });
      setDraft(undefined);
    },
  });
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing) field.current?.focus();
    else if (wasEditing.current) opener.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const cancel = () => {
    setDraft(undefined);
    rename.reset();
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate((draft ?? '').trim());
  };
  if (!editing)
    return (
      <span>
        <span className="batch-name">{label}</span>
        <button
          ref={opener}
          type="button"
          className="secondary"
          aria-label={`Rename batch ${label}`}
          onClick={() => setDraft(batch.name ?? '')}
        >
          Rename batch
        </button>
      </span>
    );
  return (
    <form className="rename-batch" onSubmit={save}>
      <label htmlFor={id}>Batch name</label>
      <input
        id={id}
        ref={field}
        maxLength={200}
        value={draft}
        placeholder="empty: the date of the upload"
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            cancel();
          }
        }}
      />
      <button type="submit" disabled={rename.isPending}>
        Save
      </button>
      <button type="button" className="secondary" onClick={cancel}>
        Cancel
      </button>
      <ProblemLine error={rename.error} />
    </form>
  );
}
