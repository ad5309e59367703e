import type { BatchRepository, Image, ImageRepository, ProposalRename } from '@renamer/db';
import { isUniqueViolation, UNIQUE_FILENAME_PER_BATCH } from '@renamer/db';
import { FINISHED_BATCH_STATUSES, nameBatch, parseTemplate, shotKey } from '@renamer/domain';
import { storedFacts } from '../analysis/name-image';

/** Each lost race means a person renamed an image meanwhile; this many in a row means something else is wrong. */
const MAX_NAMING_ROUNDS = 5;

export interface BatchNamerDeps {
  images: Pick<ImageRepository, 'listAllByBatch' | 'renameProposals'>;
  batches: Pick<BatchRepository, 'findById'>;
}

/** Images that still carry the analyser's proposal, untouched: the only ones naming the batch may change. */
const isUntouchedProposal = (image: Image) =>
  image.status === 'ready' && image.filename !== null && image.filename === image.proposedFilename && image.metadata;

/**
 * Names the batch as a whole once its images are analysed: near-duplicates and shots of one subject share a
 * stem and are told apart by a distinguishing word. Only untouched proposals change; names a person gave,
 * approved images and the others' names stay, and are taken. Returns the renamed images.
 */
export function batchNamer(deps: BatchNamerDeps) {
  async function proposals(batchId: string): Promise<ProposalRename[] | null> {
    const batch = await deps.batches.findById(batchId);
    // A finished batch has its final names: a late run of its job (a retry, a duplicate) must not move them
    // under a person who is already reviewing them.
    if (!batch || FINISHED_BATCH_STATUSES.includes(batch.status)) return null;
    const all = await deps.images.listAllByBatch(batchId);
    const untouched = all.filter(isUntouchedProposal);
    const untouchedIds = new Set(untouched.map((image) => image.id));
    const taken = new Set(
      all.flatMap((image) => (image.filename && !untouchedIds.has(image.id) ? [image.filename] : [])),
    );
    const seq = new Map(all.map((image, index) => [image.id, index + 1]));
    const parsed = batch.template ? parseTemplate(batch.template, batch.locale) : null;
    const named = nameBatch(
      untouched.map((image) => ({
        id: image.id,
        format: image.metadata!.format,
        tags: image.visionTags,
        perceptualHash: image.perceptualHash,
        shot: shotKey({ originalFilename: image.originalFilename, exif: image.metadata!.exif }),
        facts: storedFacts(image, seq.get(image.id)!),
      })),
      { locale: batch.locale, taken, template: parsed?.ok ? parsed.template : null },
    );
    return untouched.flatMap((image) => {
      const proposal = named.get(image.id);
      if (!proposal?.ok || proposal.filename === image.filename) return [];
      return [{ id: image.id, from: image.filename!, filename: proposal.filename, seo: proposal.seo }];
    });
  }

  return async function nameAsWhole(batchId: string): Promise<Image[]> {
    for (let round = 0; round < MAX_NAMING_ROUNDS; round++) {
      const changes = await proposals(batchId);
      if (!changes) return [];
      try {
        return await deps.images.renameProposals(batchId, changes);
      } catch (error) {
        if (!isUniqueViolation(error, UNIQUE_FILENAME_PER_BATCH)) throw error;
      }
    }
    throw new Error(`lost ${MAX_NAMING_ROUNDS} races naming batch ${batchId}`);
  };
}
