import {
  BATCH_STATUSES,
  type BatchStatus,
  emptyImageStatusCounts,
  IMAGE_STATUSES,
  type ImageStatus,
  type ImageStatusCounts,
} from '@renamer/contracts';
import { describe, expect, it } from 'vitest';
import {
  assertBatchTransition,
  assertImageTransition,
  BATCH_EVENTS,
  BATCH_TRANSITIONS,
  batchProgress,
  batchStatusPath,
  CANCELLABLE_BATCH_STATUSES,
  CANCELLABLE_IMAGE_STATUSES,
  canRetryBatch,
  canTransitionBatch,
  canTransitionImage,
  deriveBatchStatus,
  eventFollowsBatchMachine,
  eventFollowsImageMachine,
  FINISHED_IMAGE_STATUSES,
  IMAGE_EVENTS,
  IMAGE_TRANSITIONS,
  InvalidTransitionError,
  RETRYABLE_BATCH_STATUSES,
  RETRYABLE_IMAGE_STATUSES,
} from '../src';

function counts(partial: Partial<ImageStatusCounts>): ImageStatusCounts {
  return { ...emptyImageStatusCounts(), ...partial };
}

function allPairs<S extends string>(statuses: readonly S[]): [S, S][] {
  return statuses.flatMap((from) => statuses.map((to): [S, S] => [from, to]));
}

const ALLOWED_IMAGE_TRANSITIONS = new Set([
  'queued>processing',
  'queued>cancelled',
  'queued>failed',
  'processing>ready',
  'processing>failed',
  'processing>queued',
  'processing>cancelled',
  'ready>approved',
  'approved>ready',
  'ready>queued',
  'approved>queued',
  'failed>queued',
  'cancelled>queued',
]);

const ALLOWED_BATCH_TRANSITIONS = new Set([
  'queued>processing',
  'queued>cancelled',
  'processing>completed',
  'processing>failed',
  'processing>cancelled',
  'completed>queued',
  'failed>queued',
  'cancelled>queued',
  'completed>processing',
]);

describe('image state machine', () => {
  it.each(allPairs<ImageStatus>(IMAGE_STATUSES))('%s → %s follows the table', (from, to) => {
    const allowed = ALLOWED_IMAGE_TRANSITIONS.has(`${from}>${to}`);
    expect(canTransitionImage(from, to)).toBe(allowed);
    expect(IMAGE_TRANSITIONS[from].includes(to)).toBe(allowed);
    if (allowed) expect(() => assertImageTransition(from, to)).not.toThrow();
    else expect(() => assertImageTransition(from, to)).toThrow(InvalidTransitionError);
  });

  it('reports what was refused', () => {
    const error = catchError(() => assertImageTransition('ready', 'ready'));
    expect(error).toBeInstanceOf(InvalidTransitionError);
    expect(error).toMatchObject({ entity: 'image', from: 'ready', to: 'ready', name: 'InvalidTransitionError' });
  });

  it('lists the statuses that count as finished and those cancel and retry act on', () => {
    expect([...FINISHED_IMAGE_STATUSES].sort()).toEqual(['approved', 'cancelled', 'failed', 'ready']);
    expect(CANCELLABLE_IMAGE_STATUSES).toEqual(['queued', 'processing']);
    expect(RETRYABLE_IMAGE_STATUSES).toEqual(['failed', 'cancelled']);
    for (const status of CANCELLABLE_IMAGE_STATUSES) expect(canTransitionImage(status, 'cancelled')).toBe(true);
    for (const status of RETRYABLE_IMAGE_STATUSES) expect(canTransitionImage(status, 'queued')).toBe(true);
  });
});

describe('batch state machine', () => {
  it.each(allPairs<BatchStatus>(BATCH_STATUSES))('%s → %s follows the table', (from, to) => {
    const allowed = ALLOWED_BATCH_TRANSITIONS.has(`${from}>${to}`);
    expect(canTransitionBatch(from, to)).toBe(allowed);
    expect(BATCH_TRANSITIONS[from].includes(to)).toBe(allowed);
    if (allowed) expect(() => assertBatchTransition(from, to)).not.toThrow();
    else expect(() => assertBatchTransition(from, to)).toThrow(InvalidTransitionError);
  });

  it('reports what was refused', () => {
    expect(catchError(() => assertBatchTransition('completed', 'cancelled'))).toMatchObject({
      entity: 'batch',
      from: 'completed',
      to: 'cancelled',
    });
  });

  it('cancels only unfinished batches', () => {
    expect(CANCELLABLE_BATCH_STATUSES).toEqual(['queued', 'processing']);
  });

  it('retries a finished batch only when it holds failed or cancelled images', () => {
    expect(RETRYABLE_BATCH_STATUSES).toEqual(['completed', 'failed', 'cancelled']);
    expect(canRetryBatch('completed', counts({ ready: 3, failed: 1 }))).toBe(true);
    expect(canRetryBatch('completed', counts({ ready: 3, cancelled: 1 }))).toBe(true);
    expect(canRetryBatch('completed', counts({ ready: 3, approved: 1 }))).toBe(false);
    expect(canRetryBatch('failed', counts({ failed: 2 }))).toBe(true);
    expect(canRetryBatch('cancelled', counts({ ready: 1, cancelled: 2 }))).toBe(true);
    expect(canRetryBatch('processing', counts({ processing: 1, failed: 1 }))).toBe(false);
    expect(canRetryBatch('queued', counts({ queued: 1, failed: 1 }))).toBe(false);
  });
});

describe('deriveBatchStatus', () => {
  it.each<[string, Partial<ImageStatusCounts>, BatchStatus, BatchStatus]>([
    ['stays queued until a job starts', { queued: 3 }, 'queued', 'queued'],
    ['turns processing once a job starts', { queued: 2, processing: 1 }, 'queued', 'processing'],
    ['stays processing while a job waits for its next attempt', { queued: 1, ready: 2 }, 'processing', 'processing'],
    ['stays queued after a retry until a job starts', { queued: 1, ready: 2 }, 'queued', 'queued'],
    ['completes with at least one ready image', { ready: 1, failed: 4 }, 'processing', 'completed'],
    ['completes with approved and cancelled images', { approved: 2, cancelled: 1 }, 'processing', 'completed'],
    ['fails when every image failed', { failed: 3 }, 'processing', 'failed'],
    [
      'fails when images failed or were cancelled and none is ready',
      { failed: 1, cancelled: 2 },
      'processing',
      'failed',
    ],
    ['is cancelled when every image was cancelled', { cancelled: 2 }, 'processing', 'cancelled'],
    ['keeps a cancelled batch cancelled', { ready: 2, cancelled: 3 }, 'cancelled', 'cancelled'],
    ['leaves a cancelled batch once retry re-queues images', { ready: 2, queued: 3 }, 'cancelled', 'queued'],
    ['goes back to completed after a rename', { ready: 1, approved: 1 }, 'completed', 'completed'],
    ['keeps the current status of an empty batch', {}, 'queued', 'queued'],
  ])('%s', (_, partial, current, expected) => {
    expect(deriveBatchStatus(counts(partial), current)).toBe(expected);
  });
});

describe('batchProgress', () => {
  it('counts finished images as processed', () => {
    expect(batchProgress(counts({ queued: 1, processing: 1, ready: 3, approved: 1, failed: 1, cancelled: 1 }))).toEqual(
      { total: 8, processed: 6, progress: 0.75 },
    );
  });

  it('is 0 for an empty batch', () => {
    expect(batchProgress(counts({}))).toEqual({ total: 0, processed: 0, progress: 0 });
  });

  it('is 1 when every image finished', () => {
    expect(batchProgress(counts({ failed: 2, ready: 2 })).progress).toBe(1);
  });
});

function catchError(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('status events', () => {
  it('move images only along the transitions of the machine', () => {
    for (const [name, event] of Object.entries(IMAGE_EVENTS)) {
      expect(eventFollowsImageMachine(event), name).toBe(true);
    }
  });

  it('move batches only along the transitions of the machine', () => {
    for (const [name, event] of Object.entries(BATCH_EVENTS)) {
      expect(eventFollowsBatchMachine(event), name).toBe(true);
    }
  });

  it('lets a queued batch whose images all finished pass through processing', () => {
    expect(batchStatusPath('queued', 'completed')).toEqual(['processing', 'completed']);
    expect(batchStatusPath('processing', 'completed')).toEqual(['completed']);
    expect(batchStatusPath('completed', 'completed')).toEqual([]);
    expect(batchStatusPath('cancelled', 'processing')).toEqual([]);
  });
});
