import type { BatchTracker } from '@renamer/pipeline';
import { defineHandler } from '@renamer/queue';

/** Runs when every image job of a round has finished: settles the batch's final status. */
export const processBatchHandler = (deps: { tracker: Pick<BatchTracker, 'refreshBatch'> }) =>
  defineHandler({
    name: 'process-batch',
    handle: async ({ batchId }) => {
      const view = await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted' };
    },
  });
