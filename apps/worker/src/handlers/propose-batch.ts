import type { BatchRepository, ImageRepository } from '@renamer/db';
import { IMAGE_EVENTS, proposalTargets } from '@renamer/domain';
import type { BatchScheduler, Handler } from '@renamer/jobs';
import type { BatchTracker } from '@renamer/progress';
import { needsTheModelAgain } from '../analysis/vision-model-records';
import type { batchProposer } from '../naming/batch-renamer';

export interface ProposeBatchDeps {
  batches: Pick<BatchRepository, 'findById'>;
  images: Pick<ImageRepository, 'listAllByBatch' | 'transitionByBatch'>;
  scheduler: Pick<BatchScheduler, 'schedule'>;
  tracker: Pick<BatchTracker, 'refreshBatch' | 'imagesChanged'>;
  proposeAgain: ReturnType<typeof batchProposer>;
  /** The vision model this worker asks now (its analysis step's source), or null when it asks none. */
  modelSource: () => Promise<string | null>;
}

/**
 * Names a batch's images again with its current words, template and instructions (the API moved the batch to
 * `processing`). Images whose stored analysis the vision model in use would not give now (a model added or
 * changed, other instructions) are analysed again: queued in a new round whose `process-batch` finishes the batch.
 * The others are named from their stored analysis at once, each renamed image announced. No quota is counted.
 */
export const proposeBatchHandler = (deps: ProposeBatchDeps) =>
  ({
    async handle({ batchId, imageIds, includeEdited }) {
      const batch = await deps.batches.findById(batchId);
      if (batch?.status !== 'processing') return { skipped: 'the batch is not being named again' };
      const modelSource = await deps.modelSource();
      const all = await deps.images.listAllByBatch(batchId);
      const targets = proposalTargets(all, { imageIds, includeEdited });
      const stale = targets.filter((image) => needsTheModelAgain(image.analysisSteps, batch.instructions, modelSource));
      // Queued by an earlier attempt of this job that failed before their round was: they are queued again.
      const waiting = all.filter((image) => image.status === IMAGE_EVENTS.reanalyse.to).map((image) => image.id);
      const requeued = stale.length
        ? await deps.images.transitionByBatch(batchId, {
            ...IMAGE_EVENTS.reanalyse,
            imageIds: stale.map((image) => image.id),
            set: { approvedAt: null },
          })
        : [];
      if (requeued.length) {
        await deps.tracker.imagesChanged(
          batchId,
          requeued.map((id) => ({ id, batchId, status: IMAGE_EVENTS.reanalyse.to })),
          { finish: false },
        );
      }
      const analysedAgain = [...waiting, ...requeued];
      if (analysedAgain.length) {
        // Only the images this propose named are named as a whole after their round.
        const nameOnly = imageIds ? targets.map((image) => image.id) : null;
        await deps.scheduler.schedule(batchId, analysedAgain, { requeue: true, nameOnly });
      }
      const fresh = targets.filter((image) => !requeued.includes(image.id)).map((image) => image.id);
      const renamed = fresh.length ? await deps.proposeAgain(batchId, { imageIds: fresh, includeEdited }) : [];
      const view = renamed.length
        ? await deps.tracker.imagesChanged(batchId, renamed)
        : await deps.tracker.refreshBatch(batchId);
      return { status: view?.status ?? 'deleted', renamed: renamed.length, analysedAgain: analysedAgain.length };
    },

    // The batch must not wait in `processing` for ever: its names stay as they were.
    onFailedForGood: async ({ batchId }) => {
      await deps.tracker.refreshBatch(batchId);
    },
  }) satisfies Handler<'propose-batch'>;
