import {
  AppError,
  type FilenameCheckBody,
  type FilenameCheckResponse,
  type ImageDetail,
  type ImageFormat,
  type ImageStatus,
  type ImageView,
  type ProblemFieldError,
} from '@renamer/contracts';
import {
  type BatchRepository,
  type FilenameHistoryRepository,
  type FilenameSource,
  type Image,
  type ImageRepository,
  type ImageUpdate,
  isUniqueViolation,
  type Page,
  UNIQUE_FILENAME_PER_BATCH,
} from '@renamer/db';
import {
  FILENAME_REJECTIONS,
  type FilenameOptions,
  fixedWordsOf,
  formatOfTypedName,
  IMAGE_EVENTS,
  namingTags,
  normalizeFilename,
  originalAsFilename,
  parsedTemplate,
  proposeName,
  type StatusEvent,
  scoreFilename,
  sharedPrefix,
  storedFacts,
  uniqueShape,
} from '@renamer/domain';
import type { BatchTracker } from '@renamer/progress';
import { toImageDetail, toImageView } from './image-view';

export interface ImageServiceDeps {
  images: Pick<
    ImageRepository,
    | 'findByIdForUser'
    | 'listByBatch'
    | 'update'
    | 'changeFilename'
    | 'transitionByBatch'
    | 'isFilenameTaken'
    | 'filenamesStartingWith'
    | 'positionInBatch'
  >;
  batches: Pick<BatchRepository, 'findByIdForUser' | 'findById'>;
  filenameHistory: Pick<FilenameHistoryRepository, 'listForImage'>;
  tracker: Pick<BatchTracker, 'imagesChanged'>;
  now?: () => Date;
}

export type RevertTarget = 'original' | 'proposed';

const noSuchImage = () => new AppError('not_found', 'No such image.');
const filenameError = (code: 'invalid_filename' | 'filename_conflict', message: string): ProblemFieldError => ({
  path: 'filename',
  message,
  code,
});
const noSuchBatch = () => new AppError('not_found', 'No such batch.');
const isIn = (status: ImageStatus, event: StatusEvent<ImageStatus>) => event.from.includes(status);
/**
 * A person's rename or approval never finishes a batch (its jobs do): while names are proposed again the batch is
 * `processing` with every image ready, and finishing it then would end the propose before it ran.
 */
const A_PERSONS_CHANGE = { finish: false };

/**
 * What a person does with their images: read them, rename, approve, unapprove and revert one, approve a
 * batch. Every status change is one of the domain's events (its `from` is the UPDATE's guard), every
 * filename change writes its history row in the same transaction, and every change is broadcast through
 * the tracker, which keeps the batch's status and counts in step.
 */
export function createImageService(deps: ImageServiceDeps) {
  const now = deps.now ?? (() => new Date());

  /** The name `template` would give the image now, with its batch's current words, unique in its batch. */
  async function checkTemplate(userId: string, text: string, imageId: string): Promise<FilenameCheckResponse> {
    const image = await ownImage(userId, imageId);
    const batch = await deps.batches.findById(image.batchId);
    if (!batch) throw noSuchImage();
    const template = parsedTemplate(text, batch.locale);
    if (!image.metadata) {
      const message = 'The image is not analysed yet: a template names it once it is.';
      return { filename: null, valid: false, errors: [filenameError('invalid_filename', message)], seo: null };
    }
    const tags = namingTags(batch, image);
    const proposal = proposeName(tags, {
      format: image.metadata.format,
      locale: batch.locale,
      facts: storedFacts(image, await deps.images.positionInBatch(image)),
      template,
    });
    if (!proposal.ok) {
      const message = FILENAME_REJECTIONS[proposal.reason];
      return { filename: null, valid: false, errors: [filenameError('invalid_filename', message)], seo: null };
    }
    const taken = new Set(
      await deps.images.filenamesStartingWith(image.batchId, sharedPrefix(proposal.shape), image.id),
    );
    const { filename, shape } = uniqueShape(proposal.shape, image.metadata.format, taken) ?? proposal;
    const seo = scoreFilename(filename, { tags, locale: batch.locale, fixedWords: fixedWordsOf(shape) });
    return { filename, valid: true, errors: [], seo };
  }

  async function ownImage(userId: string, imageId: string): Promise<Image> {
    const image = await deps.images.findByIdForUser(imageId, userId);
    if (!image) throw noSuchImage();
    return image;
  }

  async function detail(image: Image): Promise<ImageDetail> {
    return toImageDetail(image, await deps.filenameHistory.listForImage(image.id));
  }

  /** After a guarded write found the image in another state: it moved meanwhile (or is gone). */
  async function changedMeanwhile(userId: string, imageId: string): Promise<never> {
    const image = await ownImage(userId, imageId);
    throw new AppError('conflict', `The image is ${image.status} now; read it again.`);
  }

  /** The image, if a new filename may be given to it, with what the filename rules need to know of it. */
  async function renamable(userId: string, imageId: string): Promise<{ image: Image; options: FilenameOptions }> {
    const image = await ownImage(userId, imageId);
    const format = image.metadata?.format;
    if (!isIn(image.status, IMAGE_EVENTS.rename) || !format) {
      throw new AppError('conflict', `A ${image.status} image cannot be renamed: only ready or approved ones can.`);
    }
    const batch = await deps.batches.findById(image.batchId);
    if (!batch) throw noSuchImage();
    return { image, options: { format, locale: batch.locale } };
  }

  /**
   * Gives the image `filename` with its SEO score (an approved image goes back to `ready`) and its history
   * row. A name equal to the current one changes nothing; one another image of the batch holds is
   * `filename_conflict`.
   */
  async function changeFilename(
    { image, options }: Awaited<ReturnType<typeof renamable>>,
    filename: string,
    source: FilenameSource,
    userId: string,
  ) {
    if (filename === image.filename) return detail(image);
    const seo = scoreFilename(filename, { tags: image.visionTags, locale: options.locale });
    const changed = await deps.images
      .changeFilename(
        image.id,
        { filename, source, by: userId, set: { status: IMAGE_EVENTS.rename.to, approvedAt: null, seo } },
        { expectStatus: IMAGE_EVENTS.rename.from },
      )
      .catch((error: unknown) => {
        if (!isUniqueViolation(error, UNIQUE_FILENAME_PER_BATCH)) throw error;
        throw new AppError('filename_conflict', `Another image of the batch is already named ${filename}.`, [
          filenameError('filename_conflict', `${filename} is taken in this batch.`),
        ]);
      });
    if (!changed) return changedMeanwhile(userId, image.id);
    await deps.tracker.imagesChanged(changed.batchId, [changed], A_PERSONS_CHANGE);
    return detail(changed);
  }

  /** Approve and unapprove: an image already where the event leads is answered as it is. */
  async function move(userId: string, imageId: string, event: StatusEvent<ImageStatus>, set: ImageUpdate) {
    const image = await ownImage(userId, imageId);
    if (image.status === event.to) return detail(image);
    if (!isIn(image.status, event)) {
      throw new AppError('conflict', `A ${image.status} image cannot become ${event.to}.`);
    }
    const moved = await deps.images.update(imageId, { ...set, status: event.to }, { expectStatus: event.from });
    if (!moved) return changedMeanwhile(userId, imageId);
    await deps.tracker.imagesChanged(moved.batchId, [moved], A_PERSONS_CHANGE);
    return detail(moved);
  }

  /** The images of a batch moved by `event` in one statement (all it applies to, or those of `imageIds`). */
  async function moveBatch(
    userId: string,
    batchId: string,
    event: StatusEvent<ImageStatus>,
    set: { approvedAt: Date | null },
    imageIds?: readonly string[],
  ): Promise<number> {
    if (!(await deps.batches.findByIdForUser(batchId, userId))) throw noSuchBatch();
    const moved = await deps.images.transitionByBatch(batchId, { ...event, set, imageIds });
    if (moved.length > 0) {
      await deps.tracker.imagesChanged(
        batchId,
        moved.map((id) => ({ id, batchId, status: event.to })),
        A_PERSONS_CHANGE,
      );
    }
    return moved.length;
  }

  return {
    async get(userId: string, imageId: string): Promise<ImageDetail> {
      return detail(await ownImage(userId, imageId));
    },

    async listByBatch(
      userId: string,
      batchId: string,
      query: { limit: number; cursor?: string; status?: ImageStatus; sort?: 'upload' | 'score' },
    ): Promise<Page<ImageView>> {
      if (!(await deps.batches.findByIdForUser(batchId, userId))) throw noSuchBatch();
      const page = await deps.images.listByBatch(batchId, userId, query);
      return { items: page.items.map(toImageView), nextCursor: page.nextCursor };
    },

    /** A name the person typed, normalised by the filename rules; the extension follows the real format. */
    async rename(userId: string, imageId: string, typed: string): Promise<ImageDetail> {
      const target = await renamable(userId, imageId);
      const normalised = normalizeFilename(typed, target.options);
      if (!normalised.ok) {
        const message = FILENAME_REJECTIONS[normalised.reason];
        throw new AppError('invalid_filename', message, [filenameError('invalid_filename', message)]);
      }
      return changeFilename(target, normalised.filename, 'user', userId);
    },

    /**
     * What a rename to `typed` would give, saving nothing: the name as the rules make it, its score, and
     * why it would be refused. For one of the user's images: its real format, its batch's locale and tags,
     * and the batch's other names; otherwise the typed extension's format (JPEG when it names none).
     */
    async checkFilename(userId: string, check: FilenameCheckBody): Promise<FilenameCheckResponse> {
      if ('template' in check) return checkTemplate(userId, check.template, check.imageId);
      const image = check.imageId ? await ownImage(userId, check.imageId) : undefined;
      const batch = image ? await deps.batches.findById(image.batchId) : undefined;
      if (image && !batch) throw noSuchImage();
      const format: ImageFormat = image?.metadata?.format ?? formatOfTypedName(check.filename) ?? 'jpeg';
      const locale = batch?.locale ?? check.locale ?? 'en';
      const normalised = normalizeFilename(check.filename, { format, locale });
      if (!normalised.ok) {
        const message = FILENAME_REJECTIONS[normalised.reason];
        return { filename: null, valid: false, errors: [filenameError('invalid_filename', message)], seo: null };
      }
      const { filename } = normalised;
      const seo = scoreFilename(filename, { tags: image?.visionTags ?? [], locale });
      const taken =
        image && filename !== image.filename && (await deps.images.isFilenameTaken(image.batchId, filename, image.id));
      const errors = taken ? [filenameError('filename_conflict', `${filename} is taken in this batch.`)] : [];
      return { filename, valid: !taken, errors, seo };
    },

    /** Back to the uploaded name (made path-safe, with the real extension) or to the analyser's proposal. */
    async revert(userId: string, imageId: string, to: RevertTarget): Promise<ImageDetail> {
      const target = await renamable(userId, imageId);
      const { image, options } = target;
      const filename = to === 'proposed' ? image.proposedFilename : originalAsFilename(image.originalFilename, options);
      if (!filename) throw new AppError('conflict', 'The image has no proposed filename to go back to.');
      return changeFilename(target, filename, 'revert', userId);
    },

    approve: (userId: string, imageId: string) => move(userId, imageId, IMAGE_EVENTS.approve, { approvedAt: now() }),

    /** Back to `ready`, with the filename as it is. */
    unapprove: (userId: string, imageId: string) => move(userId, imageId, IMAGE_EVENTS.unapprove, { approvedAt: null }),

    /** Every ready image of the batch, or those of `imageIds` that are ready, in one statement. */
    async approveBatch(userId: string, batchId: string, imageIds?: readonly string[]): Promise<{ approved: number }> {
      return { approved: await moveBatch(userId, batchId, IMAGE_EVENTS.approve, { approvedAt: now() }, imageIds) };
    },

    /** Every approved image of the batch back to `ready`, or those of `imageIds` (what undoes `approveBatch`). */
    async unapproveBatch(userId: string, batchId: string, imageIds?: readonly string[]) {
      return { unapproved: await moveBatch(userId, batchId, IMAGE_EVENTS.unapprove, { approvedAt: null }, imageIds) };
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
