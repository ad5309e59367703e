import type { Handler } from '@renamer/jobs';
import type { BatchTracker } from '@renamer/progress';
import type { batchNamer } from '../naming/batch-renamer';

export interface ProcessBatchDeps {
  tracker: Pick<BatchTracker, 'refreshBatch' | 'imagesChanged'>;
  nameAsWhole: ReturnType<typeof batchNamer>;
}

/**
 * Runs when every image job of a round has finished: names the batch as a whole (announcing each image
 * whose proposal changed), then settles the batch's final status. The naming improves names the images
 * already have; when it fails the batch is settled all the same, since it is the only job that finishes it.
 */
export const processBatchHandler = (deps: ProcessBatchDeps) =>
  ({
    async handle({ batchId, imageIds }, { logger }) {
      const renamed = await deps.nameAsWhole(batchId, { imageIds }).catch((err: unknown) => {
        logger.error({ err }, 'the batch was not named as a whole; its images keep their own proposals');
        return [];
      });
      const view = renamed.length
        ? await deps.tracker.imagesChanged(batchId, renamed)
        : await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted', renamed: renamed.length };
    },

    // Even settling failed three times (the database was down): a batch must not wait in `processing` for ever.
    onFailedForGood: async ({ batchId }) => {
      await deps.tracker.refreshBatch(batchId);
    },
  }) satisfies Handler<'process-batch'>;
