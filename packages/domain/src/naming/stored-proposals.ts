import type { ImageMetadata, ImageStatus, SeoScore, TagSource, VisionTag } from '@renamer/contracts';
import { altText } from './alt-text';
import type { ImageFacts } from './image-facts';
import { nameBatch } from './name-batch';
import { personTags } from './person-tags';
import { shotKey } from './shot-pairs';
import { parseTemplate } from './template';

/** What naming again reads of a stored image (a row of the images table). */
export interface StoredImage {
  id: string;
  status: ImageStatus;
  originalFilename: string;
  proposedFilename: string | null;
  filename: string | null;
  metadata: ImageMetadata | null;
  visionTags: VisionTag[];
  altText: string | null;
  perceptualHash: string | null;
  createdAt?: Date;
}

/** The words and template of a batch that naming again applies. */
export interface BatchWords {
  locale: string;
  keywords: readonly string[];
  context: string | null;
  template: string | null;
}

/** The facts of an image as stored, at position `seq` of its batch: a template's tokens and a name's last words. */
export function storedFacts(
  image: Pick<StoredImage, 'originalFilename' | 'metadata' | 'createdAt'>,
  seq: number | undefined,
): ImageFacts {
  const metadata = image.metadata;
  return {
    originalFilename: image.originalFilename,
    width: metadata?.width,
    height: metadata?.height,
    orientation: metadata?.orientation,
    capturedAt: metadata?.exif?.dateTimeOriginal,
    camera: metadata?.exif,
    uploadedAt: image.createdAt,
    seq,
  };
}

/** What the person said, stored among an image's tags: replaced by the batch's current words when named again. */
const PERSON_SOURCES: readonly TagSource[] = ['keywords', 'context', 'filename'];

/** The image's stored tags with the batch's current words in place of those it was analysed with. */
export function namingTags(
  batch: Omit<BatchWords, 'template'>,
  image: Pick<StoredImage, 'originalFilename' | 'visionTags'>,
): VisionTag[] {
  return [
    ...personTags({
      keywords: batch.keywords,
      context: batch.context,
      originalFilename: image.originalFilename,
      locale: batch.locale,
    }),
    ...image.visionTags.filter((tag) => !PERSON_SOURCES.includes(tag.source)),
  ];
}

export interface ProposeRequest {
  /** Only these images (of the batch); all by default. */
  imageIds?: readonly string[] | null;
  /** Names a person gave or approved are proposed again too (approved images go back to `ready`). */
  includeEdited?: boolean;
}

export interface PlannedProposal<I extends StoredImage = StoredImage> {
  image: I;
  filename: string;
  /** The image's tags with the batch's current words. */
  visionTags: VisionTag[];
  seo: SeoScore;
  /** Written again from the new tags and name, unless the vision model wrote it. */
  altText: string | null;
}

/** A name a person has not touched: still the analyser's proposal, not approved. */
const isUntouchedProposal = (image: StoredImage) =>
  image.status === 'ready' && image.filename !== null && image.filename === image.proposedFilename;

/** The analysed images a request names again: those it lists (all by default), untouched unless `includeEdited`. */
export function proposalTargets<I extends StoredImage>(all: readonly I[], request: ProposeRequest): I[] {
  const wanted = request.imageIds ? new Set(request.imageIds) : null;
  return all.filter(
    (image) =>
      (image.status === 'ready' || image.status === 'approved') &&
      image.metadata !== null &&
      image.filename !== null &&
      (wanted === null || wanted.has(image.id)) &&
      (request.includeEdited || isUntouchedProposal(image)),
  );
}

/**
 * The names the batch's images would get if proposed again from their stored analysis with the batch's current
 * keywords, context, template and locale; only the images whose name would change. `all` is every image of the
 * batch in upload order: those not named again keep their names, which no proposal takes.
 */
export function planProposals<I extends StoredImage>(
  batch: BatchWords,
  all: readonly I[],
  request: ProposeRequest,
): PlannedProposal<I>[] {
  const targets = proposalTargets(all, request);
  const targetIds = new Set(targets.map((image) => image.id));
  const taken = new Set(all.flatMap((image) => (image.filename && !targetIds.has(image.id) ? [image.filename] : [])));
  const seq = new Map(all.map((image, index) => [image.id, index + 1]));
  const parsed = batch.template ? parseTemplate(batch.template, batch.locale) : null;
  const tagsOf = new Map(targets.map((image) => [image.id, namingTags(batch, image)]));
  const named = nameBatch(
    targets.map((image) => ({
      id: image.id,
      format: image.metadata!.format,
      tags: tagsOf.get(image.id)!,
      perceptualHash: image.perceptualHash,
      shot: shotKey({ originalFilename: image.originalFilename, exif: image.metadata!.exif }),
      facts: storedFacts(image, seq.get(image.id)),
    })),
    { locale: batch.locale, taken, template: parsed?.ok ? parsed.template : null },
  );
  return targets.flatMap((image) => {
    const proposal = named.get(image.id);
    if (!proposal?.ok || proposal.filename === image.filename) return [];
    const visionTags = tagsOf.get(image.id)!;
    const modelWroteIt = visionTags.some((tag) => tag.source === 'llm');
    const alt = modelWroteIt
      ? image.altText
      : altText(visionTags, {
          filenameWords: proposal.words,
          locale: batch.locale,
          facts: storedFacts(image, seq.get(image.id)),
        });
    return [{ image, filename: proposal.filename, visionTags, seo: proposal.seo, altText: alt ?? image.altText }];
  });
}
