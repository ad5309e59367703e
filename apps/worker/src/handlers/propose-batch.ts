import type { BatchTracker } from '@renamer/pipeline';
import type { Handler } from '@renamer/queue';
import type { batchProposer } from './name-batch';

export interface ProposeBatchDeps {
  tracker: Pick<BatchTracker, 'refreshBatch' | 'imagesChanged'>;
  proposeAgain: ReturnType<typeof batchProposer>;
}

/**
 * Names a batch's images again from their stored analysis with its current words and template (the API moved
 * the batch to `processing`), announces each renamed image, then settles the batch back to `completed`. No
 * quota is counted: nothing is uploaded or analysed.
 */
export const proposeBatchHandler = (deps: ProposeBatchDeps) =>
  ({
    async handle({ batchId, imageIds, includeEdited }) {
      const renamed = await deps.proposeAgain(batchId, { imageIds, includeEdited });
      const view = renamed.length
        ? await deps.tracker.imagesChanged(batchId, renamed)
        : await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted', renamed: renamed.length };
    },

    // The batch must not wait in `processing` for ever: its names stay as they were.
    onFailedForGood: async ({ batchId }) => {
      await deps.tracker.refreshBatch(batchId);
    },
  }) satisfies Handler<'propose-batch'>;
