import type { BatchTracker } from '@renamer/pipeline';
import type { Handler } from '@renamer/queue';
import type { batchNamer } from './name-batch';

export interface ProcessBatchDeps {
  tracker: Pick<BatchTracker, 'refreshBatch' | 'imagesChanged'>;
  nameAsWhole: ReturnType<typeof batchNamer>;
}

/**
 * Runs when every image job of a round has finished: names the batch as a whole (announcing each image
 * whose proposal changed), then settles the batch's final status.
 */
export const processBatchHandler = (deps: ProcessBatchDeps) =>
  ({
    async handle({ batchId }) {
      const renamed = await deps.nameAsWhole(batchId);
      const view = renamed.length
        ? await deps.tracker.imagesChanged(batchId, renamed)
        : await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted', renamed: renamed.length };
    },
  }) satisfies Handler<'process-batch'>;
