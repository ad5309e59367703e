import type { BatchStatus, ImageStatus } from '@renamer/contracts';

/** A status change the state machine does not allow; the API answers it with 409 `conflict`. */
export class InvalidTransitionError extends Error {
  override readonly name = 'InvalidTransitionError';

  constructor(
    readonly entity: 'image' | 'batch',
    readonly from: ImageStatus | BatchStatus,
    readonly to: ImageStatus | BatchStatus,
  ) {
    super(`Cannot move ${entity} from ${from} to ${to}`);
  }
}

/** For each status, the statuses an image may move to. Staying in the same status is not a transition. */
export const IMAGE_TRANSITIONS: Readonly<Record<ImageStatus, readonly ImageStatus[]>> = {
  // Failed without running: stuck past the stale-batch timeout (the cleanup task), for the person to retry.
  queued: ['processing', 'cancelled', 'failed'],
  // Back to queued: a retryable attempt failed or the worker died, so the job runs again.
  processing: ['ready', 'failed', 'queued', 'cancelled'],
  // Back to queued: named again after the vision model or its instructions changed, so analysed again.
  ready: ['approved', 'queued'],
  approved: ['ready', 'queued'],
  failed: ['queued'],
  cancelled: ['queued'],
};

/** Images that count as processed for progress and that no worker will touch again. */
export const FINISHED_IMAGE_STATUSES: readonly ImageStatus[] = ['ready', 'approved', 'failed', 'cancelled'];
export const CANCELLABLE_IMAGE_STATUSES: readonly ImageStatus[] = ['queued', 'processing'];
export const RETRYABLE_IMAGE_STATUSES: readonly ImageStatus[] = ['failed', 'cancelled'];

export function canTransitionImage(from: ImageStatus, to: ImageStatus): boolean {
  return IMAGE_TRANSITIONS[from].includes(to);
}

export function assertImageTransition(from: ImageStatus, to: ImageStatus): void {
  if (!canTransitionImage(from, to)) throw new InvalidTransitionError('image', from, to);
}
