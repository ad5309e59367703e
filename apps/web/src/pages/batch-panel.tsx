import { ApproveBatchResponse, BatchStatusResponse, ImageList } from '@renamer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../api/client';
import { connectionNotice, isFinished, useLiveBatches } from '../api/live-batches';
import { ProblemLine } from '../ui/problem';
import { ArchivePanel } from './archive-panel';

/** Images listed here; a bigger batch (one made through the API) is reviewed in full on its review page. */
const SHOWN = 100;

/**
 * While a batch runs, its status and images are read again this often as well: the socket's events make the page
 * live, and this puts right whatever an event lost on the way (a socket reconnecting, a message dropped) would leave.
 */
const CATCH_UP_MS = 5_000;

/**
 * A batch just uploaded, followed live: its progress, each image with its thumbnail and its proposed name as soon
 * as it has one, "Approve all", and the ZIP with its options.
 */
export function BatchPanels({ batchIds, onReview }: { batchIds: string[]; onReview: (batchId: string) => void }) {
  const connection = useLiveBatches(batchIds);
  const notice = connectionNotice(connection);
  return (
    <>
      {notice && <p role="status">{notice}</p>}
      {batchIds.map((batchId) => (
        <BatchPanel key={batchId} batchId={batchId} onReview={() => onReview(batchId)} />
      ))}
    </>
  );
}

function BatchPanel({ batchId, onReview }: { batchId: string; onReview: () => void }) {
  const id = useId();
  const queries = useQueryClient();
  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api(`/api/batch/${batchId}/status`, BatchStatusResponse),
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : CATCH_UP_MS),
  });
  const running = !batch.data || !isFinished(batch.data.status);
  const images = useQuery({
    queryKey: ['batch-images', batchId, 'list'],
    queryFn: () => api(`/api/image/batch/${batchId}?limit=${SHOWN}`, ImageList),
    refetchInterval: running ? CATCH_UP_MS : false,
  });
  const approveAll = useMutation({
    mutationFn: () => api(`/api/image/batch/${batchId}/approve`, ApproveBatchResponse, { method: 'POST' }),
    onSuccess: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: ['batch-images', batchId] }),
        queries.invalidateQueries({ queryKey: ['batch', batchId] }),
      ]),
  });
  const status = batch.data;
  if (!status) return <ProblemLine error={batch.error} />;
  const label = status.name ?? 'Your upload';
  const ready = status.counts.ready;

  return (
    <section aria-labelledby={`${id}-title`} data-batch-id={batchId}>
      <h3 id={`${id}-title`}>{label}</h3>
      <p aria-live="polite">
        <span data-testid="batch-status">{status.status}</span>: {status.processed} of {status.total} done
        {status.counts.failed > 0 && `, ${status.counts.failed} failed`}
      </p>
      <progress max={status.total} value={status.processed} aria-label={`Progress of ${label}`} />
      <p className="batch-actions">
        <button type="button" disabled={ready === 0 || approveAll.isPending} onClick={() => approveAll.mutate()}>
          Approve all
        </button>
        <button
          type="button"
          className="secondary"
          onClick={onReview}
          disabled={status.counts.ready + status.counts.approved === 0}
        >
          Review
        </button>
      </p>
      <ProblemLine error={approveAll.error ?? images.error} />
      <ul aria-label={`Images of ${label}`} className="batch-images">
        {images.data?.items.map((image) => (
          <li key={image.id}>
            {image.filename ? (
              <img
                className="thumb"
                src={`/api/image/${image.id}/preview`}
                alt=""
                width={48}
                height={48}
                loading="lazy"
              />
            ) : (
              <span className="thumb placeholder" aria-hidden="true" />
            )}
            <span className="meta original">{image.originalFilename}</span>
            <strong data-testid="proposed-name">
              {image.filename ?? (isFinished(image.status) ? '—' : 'naming…')}
            </strong>
            <span className="meta state">
              {image.status}
              {image.seo ? ` · score ${image.seo.score}` : ''}
              {image.error ? ` · ${image.error}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {status.total > SHOWN && (
        <p>
          The first {SHOWN} of {status.total} are shown: review them all on the review page.
        </p>
      )}
      <ArchivePanel batchId={batchId} />
    </section>
  );
}
