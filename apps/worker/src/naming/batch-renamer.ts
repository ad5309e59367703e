import { BATCH_STATUSES, type BatchStatus } from '@renamer/contracts';
import type { BatchRepository, Image, ImageRepository } from '@renamer/db';
import { isUniqueViolation, UNIQUE_FILENAME_PER_BATCH } from '@renamer/db';
import { BATCH_EVENTS, FINISHED_BATCH_STATUSES, type ProposeRequest, planProposals } from '@renamer/domain';

/** Each lost race means a person renamed an image meanwhile; this many in a row means something else is wrong. */
const MAX_NAMING_ROUNDS = 5;

export interface BatchNamerDeps {
  images: Pick<ImageRepository, 'listAllByBatch' | 'renameProposals'>;
  batches: Pick<BatchRepository, 'findById'>;
}

/**
 * Names the batch's images again from their stored analysis while the batch is in one of `statuses`, in
 * rounds: a name taken meanwhile by a person's rename means reading again. Returns the renamed images.
 */
function renamer(deps: BatchNamerDeps, statuses: readonly BatchStatus[]) {
  return async function rename(batchId: string, request: ProposeRequest = {}): Promise<Image[]> {
    for (let round = 0; round < MAX_NAMING_ROUNDS; round++) {
      const batch = await deps.batches.findById(batchId);
      if (!batch || !statuses.includes(batch.status)) return [];
      const changes = planProposals(batch, await deps.images.listAllByBatch(batchId), request).map((planned) => ({
        id: planned.image.id,
        from: planned.image.filename!,
        filename: planned.filename,
        seo: planned.seo,
        visionTags: planned.visionTags,
        altText: planned.altText,
      }));
      try {
        return await deps.images.renameProposals(batchId, changes, {
          includeEdited: request.includeEdited,
          batchStatuses: statuses,
        });
      } catch (error) {
        if (!isUniqueViolation(error, UNIQUE_FILENAME_PER_BATCH)) throw error;
      }
    }
    throw new Error(`lost ${MAX_NAMING_ROUNDS} races naming batch ${batchId}`);
  };
}

/**
 * Names the batch as a whole once its images are analysed: near-duplicates and shots of one subject share a
 * stem and are told apart by a distinguishing word. Only untouched proposals change; names a person gave,
 * approved images and the others' names stay, and are taken. A finished batch has its final names: a late run
 * of its job (a retry, a duplicate) must not move them under a person who is already reviewing them.
 */
export const batchNamer = (deps: BatchNamerDeps) =>
  renamer(
    deps,
    BATCH_STATUSES.filter((status) => !FINISHED_BATCH_STATUSES.includes(status)),
  );

/** Names proposed again on a person's request (`POST /api/batch/:batchId/propose`), while it holds the batch. */
export const batchProposer = (deps: BatchNamerDeps) => renamer(deps, [BATCH_EVENTS.propose.to]);
