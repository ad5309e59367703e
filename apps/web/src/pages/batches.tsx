import { BatchList } from '@renamer/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { isFinished, useLiveBatches } from '../api/live-batches';

/** The person's batches, newest first, those still at work followed live. */
export function BatchesPage() {
  const batches = useQuery({ queryKey: ['batches'], queryFn: () => api('/api/batch?limit=50', BatchList) });
  const items = batches.data?.items ?? [];
  useLiveBatches(items.filter((batch) => !isFinished(batch.status)).map((batch) => batch.batchId));
  return (
    <section aria-labelledby="batches-title">
      <h2 id="batches-title">Batches</h2>
      {items.length === 0 && <p>No batch yet: upload some photos.</p>}
      <ul aria-label="Your batches">
        {items.map((batch) => (
          <li key={batch.batchId} data-batch-id={batch.batchId}>
            <span>
              {batch.name ?? new Date(batch.createdAt).toLocaleString()}: {batch.total}{' '}
              {batch.total === 1 ? 'image' : 'images'}
            </span>
            <span aria-live="polite">
              <span data-testid="batch-status">{batch.status}</span>, {batch.processed} of {batch.total} done
              <progress max={batch.total} value={batch.processed} aria-label={`Progress of the batch`} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
