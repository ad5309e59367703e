import type { BatchStatus, ImageStatus } from '@renamer/contracts';
import type { BatchRepository, ImageRepository } from '@renamer/db';
import { deriveBatchStatus } from '@renamer/domain';
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
  now?: () => Date;
}

const FINAL_BATCH_STATUSES: readonly BatchStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The one place that turns image changes into events and keeps the batch's status in step with its
 * images: every change, from the worker or from cancel, retry or delete, goes through here.
 */
export function createBatchTracker(deps: BatchTrackerDeps) {
  const now = deps.now ?? (() => new Date());

  async function refreshBatch(batchId: string) {
    const batch = await deps.batches.findById(batchId);
    if (!batch) return null;
    const counts = await deps.images.countByStatus(batchId);
    const status = deriveBatchStatus(counts, batch.status);
    // Conditional on the status read, so two workers finishing the last images cannot undo each other.
    const current =
      status === batch.status
        ? batch
        : ((await deps.batches.update(
            batchId,
            { status, completedAt: FINAL_BATCH_STATUSES.includes(status) ? now() : null },
            { expectStatus: [batch.status] },
          )) ?? (await deps.batches.findById(batchId)));
    if (!current) return null;
    const view = toBatchStatusView(current, counts);
    await deps.publish({
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
    await deps.publish({
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
