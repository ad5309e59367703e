import type { BatchStatus, ImageStatus } from '@renamer/contracts';
import {
  CANCELLABLE_BATCH_STATUSES,
  canTransitionBatch,
  FINISHED_BATCH_STATUSES,
  RETRYABLE_BATCH_STATUSES,
} from './batch-state';
import { CANCELLABLE_IMAGE_STATUSES, canTransitionImage, RETRYABLE_IMAGE_STATUSES } from './image-state';

export interface StatusEvent<S extends string> {
  /** The statuses the event applies to: the guard of the conditional UPDATE that carries it out. */
  from: readonly S[];
  to: S;
}

/**
 * Everything that moves an image, as the transitions of IMAGE_TRANSITIONS it uses. Callers take both
 * `from` (the SQL guard) and `to` from here, so no status change bypasses the state machine.
 */
export const IMAGE_EVENTS = {
  /** A worker takes the image; `processing` again when a job whose worker died runs a second time. */
  claim: { from: ['queued', 'processing'], to: 'processing' },
  analysed: { from: ['processing'], to: 'ready' },
  attemptFailed: { from: ['processing'], to: 'queued' },
  failedForGood: { from: ['processing'], to: 'failed' },
  /** Stuck, queued or processing, past the stale-batch timeout: failed with a reason, for the person to retry. */
  timedOut: { from: ['queued', 'processing'], to: 'failed' },
  cancel: { from: CANCELLABLE_IMAGE_STATUSES, to: 'cancelled' },
  retry: { from: RETRYABLE_IMAGE_STATUSES, to: 'queued' },
  /** Named again once the vision model or its instructions changed: the pixels are analysed again. */
  reanalyse: { from: ['ready', 'approved'], to: 'queued' },
  approve: { from: ['ready'], to: 'approved' },
  unapprove: { from: ['approved'], to: 'ready' },
  /** A new filename (a person's, or a revert): an approved image goes back to `ready`, a ready one stays. */
  rename: { from: ['ready', 'approved'], to: 'ready' },
} as const satisfies Record<string, StatusEvent<ImageStatus>>;

export const BATCH_EVENTS = {
  cancel: { from: CANCELLABLE_BATCH_STATUSES, to: 'cancelled' },
  retry: { from: RETRYABLE_BATCH_STATUSES, to: 'queued' },
  /** Names proposed again from the stored analysis: `processing` until they are written. */
  propose: { from: ['completed'], to: 'processing' },
} as const satisfies Record<string, StatusEvent<BatchStatus>>;

/** True when every `from` → `to` of the event is a transition or stays put (a re-claim, a rename of a ready image). */
export function eventFollowsImageMachine(event: StatusEvent<ImageStatus>): boolean {
  return event.from.every((from) => from === event.to || canTransitionImage(from, event.to));
}

export function eventFollowsBatchMachine(event: StatusEvent<BatchStatus>): boolean {
  return event.from.every((from) => canTransitionBatch(from, event.to));
}

/**
 * The statuses a batch passes through to reach `target`: a queued batch whose images all finished before it
 * was seen `processing` still goes through `processing`, as the machine requires. Empty if unreachable.
 */
export function batchStatusPath(current: BatchStatus, target: BatchStatus): BatchStatus[] {
  if (current === target) return [];
  // Only a propose moves a finished batch back to `processing`, by its own event: counts never do (a cancelled
  // batch whose last analysis is still running stays cancelled).
  if (FINISHED_BATCH_STATUSES.includes(current) && target === 'processing') return [];
  if (canTransitionBatch(current, target)) return [target];
  if (current === 'queued' && canTransitionBatch('processing', target)) {
    return ['processing', target];
  }
  return [];
}
