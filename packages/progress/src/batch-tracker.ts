import type { BatchStatusResponse, ImageStatus } from '@renamer/contracts';
import type { BatchRepository, ImageRepository } from '@renamer/db';
import {
  BATCH_EVENTS,
  batchStatusPath,
  deriveBatchStatus,
  FINISHED_BATCH_STATUSES,
  IMAGE_EVENTS,
} from '@renamer/domain';
import { toBatchStatusView } from './batch-view';
import type { PublishProgress } from './progress-channel';

export interface RefreshOptions {
  /**
   * Whether the batch may move to a finished status. The worker's analyses leave that to the batch's
   * `process-batch` job, which names the batch as a whole first: a batch is `completed` only once its names
   * are final.
   */
  finish: boolean;
}

/** Each conflict means another writer moved the batch meanwhile; after this many, the last read is reported as is. */
const MAX_REFRESH_ROUNDS = 5;

export interface ChangedImage {
  id: string;
  batchId: string;
  status: ImageStatus;
  proposedFilename?: string | null;
  seo?: { score: number } | null;
  error?: string | null;
}

export interface BatchTrackerDeps {
  batches: Pick<BatchRepository, 'findById' | 'update'>;
  images: Pick<ImageRepository, 'countByStatus'>;
  publish: PublishProgress;
  /** Events are best effort (the database holds the truth): a failed publish is reported here, not thrown. */
  onPublishError: (error: unknown) => void;
  /**
   * Told when a batch reaches a finished status (by this writer's move) and when an image is reported failed,
   * for the person's webhooks; best effort like `publish` (a throw goes to `onPublishError`).
   */
  notify?: (notice: TrackerNotice) => Promise<unknown>;
  now?: () => Date;
}

export interface TrackerNotice {
  type: 'batch.completed' | 'batch.failed' | 'batch.cancelled' | 'image.failed';
  batchId: string;
  imageId?: string;
  at: Date;
}

const FINISHED_NOTICE = {
  completed: 'batch.completed',
  failed: 'batch.failed',
  cancelled: 'batch.cancelled',
} as const satisfies Partial<Record<string, TrackerNotice['type']>>;

/**
 * The one place that turns image changes into events and keeps the batch's status in step with its
 * images: every change, from the worker or from cancel, retry or delete, goes through here.
 */
export function createBatchTracker(deps: BatchTrackerDeps) {
  const now = deps.now ?? (() => new Date());
  const publish: PublishProgress = (event) => deps.publish(event).catch(deps.onPublishError);
  const notify = async (notice: TrackerNotice) => {
    if (!deps.notify) return;
    await deps.notify(notice).catch(deps.onPublishError);
  };

  async function refreshBatch(
    batchId: string,
    { finish }: RefreshOptions,
    roundsLeft = MAX_REFRESH_ROUNDS,
  ): Promise<BatchStatusResponse | null> {
    const batch = await deps.batches.findById(batchId);
    if (!batch) return null;
    const counts = await deps.images.countByStatus(batchId);
    let current = batch;
    // Each step is conditional on the status read, so two workers finishing the last images cannot undo
    // each other. The loser starts over from fresh reads of the batch and its counts: the winner may have
    // read older counts and moved the batch only as far as `processing`.
    const path = batchStatusPath(batch.status, deriveBatchStatus(counts, batch.status));
    const steps = finish ? path : path.filter((status) => !FINISHED_BATCH_STATUSES.includes(status));
    for (const status of steps) {
      const completedAt = FINISHED_BATCH_STATUSES.includes(status) ? now() : null;
      const updated = await deps.batches.update(batchId, { status, completedAt }, { expectStatus: [current.status] });
      if (!updated) {
        if (roundsLeft > 1) return refreshBatch(batchId, { finish }, roundsLeft - 1);
        current = (await deps.batches.findById(batchId)) ?? current;
        break;
      }
      current = updated;
      if (completedAt && Object.hasOwn(FINISHED_NOTICE, status)) {
        await notify({ type: FINISHED_NOTICE[status as keyof typeof FINISHED_NOTICE], batchId, at: completedAt });
      }
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
    if (image.status === 'failed') {
      await notify({ type: 'image.failed', batchId: image.batchId, imageId: image.id, at: now() });
    }
    await publish({
      type: 'image.status',
      batchId: image.batchId,
      imageId: image.id,
      status: image.status,
      ...(image.proposedFilename ? { proposedFilename: image.proposedFilename } : {}),
      ...(image.proposedFilename && image.seo ? { score: image.seo.score } : {}),
      ...(image.error ? { error: image.error } : {}),
      at: now().toISOString(),
    });
  }

  async function imagesChanged(
    batchId: string,
    images: readonly ChangedImage[],
    options: RefreshOptions = { finish: true },
  ) {
    for (const image of images) await publishImage(image);
    return refreshBatch(batchId, options);
  }

  return {
    refreshBatch: (batchId: string) => refreshBatch(batchId, { finish: true }),
    /** Broadcasts the images' new statuses, then the batch's. */
    imagesChanged,
    /**
     * Moves a queued or processing batch to `cancelled`, whatever its images' counts would make it, once its images
     * were cancelled (`cancelledImageIds`); the move's writer announces `batch.cancelled`.
     */
    async cancelled(batchId: string, cancelledImageIds: readonly string[]) {
      const completedAt = now();
      const moved = await deps.batches.update(
        batchId,
        { status: BATCH_EVENTS.cancel.to, completedAt },
        { expectStatus: BATCH_EVENTS.cancel.from },
      );
      if (moved) await notify({ type: 'batch.cancelled', batchId, at: completedAt });
      return imagesChanged(
        batchId,
        cancelledImageIds.map((id) => ({ id, batchId, status: IMAGE_EVENTS.cancel.to })),
      );
    },
  };
}

export type BatchTracker = ReturnType<typeof createBatchTracker>;
