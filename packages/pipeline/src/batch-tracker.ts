import type { ImageStatus } from '@renamer/contracts';
import type { BatchRepository, ImageRepository } from '@renamer/db';
import { batchStatusPath, deriveBatchStatus, FINISHED_BATCH_STATUSES } from '@renamer/domain';
import { toBatchStatusView } from './batch-view';
import type { PublishProgress } from './progress';

export interface ChangedImage {
  id: string;
  batchId: string;
  status: ImageStatus;
  proposedFilename?: string | null;
  error?: string | null;
}

export interface BatchTrackerDeps {
  batches: Pick<BatchRepository, 'findById' | 'update'>;
  images: Pick<ImageRepository, 'countByStatus'>;
  publish: PublishProgress;
  /** Events are best effort (the database holds the truth): a failed publish is reported here, not thrown. */
  onPublishError: (error: unknown) => void;
  now?: () => Date;
}

/**
 * The one place that turns image changes into events and keeps the batch's status in step with its
 * images: every change, from the worker or from cancel, retry or delete, goes through here.
 */
export function createBatchTracker(deps: BatchTrackerDeps) {
  const now = deps.now ?? (() => new Date());
  const publish: PublishProgress = (event) => deps.publish(event).catch(deps.onPublishError);

  async function refreshBatch(batchId: string) {
    const batch = await deps.batches.findById(batchId);
    if (!batch) return null;
    const counts = await deps.images.countByStatus(batchId);
    let current = batch;
    // Each step is conditional on the status read, so two workers finishing the last images cannot undo
    // each other: the loser re-reads what the winner wrote.
    for (const status of batchStatusPath(batch.status, deriveBatchStatus(counts, batch.status))) {
      const completedAt = FINISHED_BATCH_STATUSES.includes(status) ? now() : null;
      const updated = await deps.batches.update(batchId, { status, completedAt }, { expectStatus: [current.status] });
      if (!updated) {
        current = (await deps.batches.findById(batchId)) ?? current;
        break;
      }
      current = updated;
    }
    const view = toBatchStatusView(current, counts);
    await publish({
      type: 'batch.status',
      batchId,
      status: view.status,
      processed: view.processed,
      total: view.total,
      progress: view.progress,
      at: now().toISOString(),
    });
    return view;
  }

  async function publishImage(image: ChangedImage) {
    await publish({
      type: 'image.status',
      batchId: image.batchId,
      imageId: image.id,
      status: image.status,
      ...(image.proposedFilename ? { proposedFilename: image.proposedFilename } : {}),
      ...(image.error ? { error: image.error } : {}),
      at: now().toISOString(),
    });
  }

  return {
    refreshBatch,
    /** Broadcasts the images' new statuses, then the batch's. */
    async imagesChanged(batchId: string, images: readonly ChangedImage[]) {
      for (const image of images) await publishImage(image);
      return refreshBatch(batchId);
    },
  };
}

export type BatchTracker = ReturnType<typeof createBatchTracker>;
