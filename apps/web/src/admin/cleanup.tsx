import { CLEANUP_TASKS, CleanupResult } from '@renamer/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { ProblemLine } from '../ui/problem';

const WHAT: Record<(typeof CLEANUP_TASKS)[number], string> = {
  'expired-downloads': 'records of download links past their expiry',
  'orphaned-objects': 'stored originals and previews no image refers to (older than an hour)',
  'stale-batches': 'batches stuck at work: their unfinished images fail, so people can retry',
  'failed-jobs': 'failed jobs past their retention, in every queue',
  retention:
    'images (originals, previews) of batches past RETAIN_ORIGINALS_DAYS whose date people saw 7 days ago, then the batches; only when the setting is on',
};

/** Each cleanup task, with a dry run that counts (and samples) what a real run would remove. */
export function CleanupSection() {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Cleanup</h2>
      <p>The worker runs these on a schedule; run one now here. A dry run removes nothing.</p>
      <ul aria-label="Cleanup tasks">
        {CLEANUP_TASKS.map((task) => (
          <CleanupTask key={task} task={task} />
        ))}
      </ul>
    </section>
  );
}

function CleanupTask({ task }: { task: (typeof CLEANUP_TASKS)[number] }) {
  const [result, setResult] = useState<CleanupResult | undefined>();
  const run = useMutation({
    mutationFn: (dryRun: boolean) =>
      api(`/api/admin/cleanup/${task}${dryRun ? '?dryRun=true' : ''}`, CleanupResult, { method: 'POST' }),
    onSuccess: setResult,
  });
  return (
    <li>
      <span>
        <strong>{task}</strong>: {WHAT[task]}
        {result && (
          <span role="status" className="meta">
            {' '}
            · {result.dryRun ? `would remove ${result.removed}` : `removed ${result.removed}`}
            {result.sample?.length ? ` (e.g. ${result.sample.slice(0, 3).join(', ')})` : ''}
          </span>
        )}
        <ProblemLine error={run.error} />
      </span>
      <span className="actions">
        <button type="button" onClick={() => run.mutate(true)}>
          Dry run {task}
        </button>
        <button type="button" className="danger" onClick={() => run.mutate(false)}>
          Run {task}
        </button>
      </span>
    </li>
  );
}
