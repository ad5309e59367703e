import { type BatchStatus, IMAGE_STATUSES, type ImageStatus, type ImageStatusCounts } from '@renamer/contracts';
import { FINISHED_IMAGE_STATUSES, InvalidTransitionError, RETRYABLE_IMAGE_STATUSES } from './image-state';

/**
 * For each status, the statuses a batch may move to. Staying in the same status is not a transition.
 * Retrying a completed batch is only allowed when it holds failed or cancelled images: see `canRetryBatch`.
 * A completed batch goes back to `processing` while its names are proposed again (`BATCH_EVENTS.propose`); a
 * failed or cancelled one is retried first, so that naming again never hides what stopped it.
 */
export const BATCH_TRANSITIONS: Readonly<Record<BatchStatus, readonly BatchStatus[]>> = {
  queued: ['processing', 'cancelled'],
  processing: ['completed', 'failed', 'cancelled'],
  completed: ['queued', 'processing'],
  failed: ['queued'],
  cancelled: ['queued'],
};

export const FINISHED_BATCH_STATUSES: readonly BatchStatus[] = ['completed', 'failed', 'cancelled'];
export const CANCELLABLE_BATCH_STATUSES: readonly BatchStatus[] = ['queued', 'processing'];
export const RETRYABLE_BATCH_STATUSES: readonly BatchStatus[] = ['completed', 'failed', 'cancelled'];

export function canTransitionBatch(from: BatchStatus, to: BatchStatus): boolean {
  return BATCH_TRANSITIONS[from].includes(to);
}

export function assertBatchTransition(from: BatchStatus, to: BatchStatus): void {
  if (!canTransitionBatch(from, to)) throw new InvalidTransitionError('batch', from, to);
}

/** Whether retry applies: the batch is finished and holds images that retry would re-queue. */
export function canRetryBatch(status: BatchStatus, counts: ImageStatusCounts): boolean {
  return RETRYABLE_BATCH_STATUSES.includes(status) && sumOf(counts, RETRYABLE_IMAGE_STATUSES) > 0;
}

/** The status a batch should have, given how many of its images are in each status. */
export function deriveBatchStatus(counts: ImageStatusCounts, current: BatchStatus): BatchStatus {
  const total = sumOf(counts, IMAGE_STATUSES);
  if (total === 0) return current;

  if (counts.queued + counts.processing > 0) {
    // A running batch stays `processing` while a job waits for its next attempt, instead of flapping back.
    return counts.processing > 0 || current === 'processing' ? 'processing' : 'queued';
  }
  if (current === 'cancelled') return 'cancelled';
  if (counts.ready + counts.approved > 0) return 'completed';
  return counts.failed > 0 ? 'failed' : 'cancelled';
}

export function batchProgress(counts: ImageStatusCounts): { total: number; processed: number; progress: number } {
  const total = sumOf(counts, IMAGE_STATUSES);
  const processed = sumOf(counts, FINISHED_IMAGE_STATUSES);
  return { total, processed, progress: total === 0 ? 0 : processed / total };
}

function sumOf(counts: ImageStatusCounts, statuses: readonly ImageStatus[]): number {
  return statuses.reduce((sum, status) => sum + counts[status], 0);
}
