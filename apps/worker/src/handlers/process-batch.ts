import type { BatchTracker } from '@renamer/pipeline';
import type { Handler } from '@renamer/queue';

/** Runs when every image job of a round has finished: settles the batch's final status. */
export const processBatchHandler = (deps: { tracker: Pick<BatchTracker, 'refreshBatch'> }) =>
  ({
    async handle({ batchId }) {
      const view = await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted' };
    },
  }) satisfies Handler<'process-batch'>;
