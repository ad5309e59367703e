import { BatchList, type BatchStatusResponse, BatchStatusResponse as BatchStatusSchema } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { connectionNotice, isFinished, useLiveBatches } from '../api/live-batches';
import { ProblemLine } from '../ui/problem';
import { downloadArchive } from './archive-panel';

/** The person's batches, newest first, those still at work followed live, each with what can be done to it. */
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
      {items.length === 0 && <p>No batch yet: upload some photos.</p>}
      <ul aria-label="Your batches">
        {items.map((batch) => (
          <BatchRow key={batch.batchId} batch={batch} onReview={() => onReview(batch.batchId)} />
        ))}
      </ul>
    </section>
  );
}

function BatchRow({ batch, onReview }: { batch: BatchStatusResponse; onReview: () => void }) {
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
  return (
    <li data-batch-id={batch.batchId}>
      <span>
        {label}: {batch.total} {batch.total === 1 ? 'image' : 'images'}
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
          <button type="button" onClick={() => download.mutate()}>
            Download ZIP
          </button>
        )}
      </span>
      <ProblemLine error={change.error ?? download.error} />
    </li>
  );
}
