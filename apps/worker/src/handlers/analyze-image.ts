import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ImageFormat, SeoScore } from '@renamer/contracts';
import {
  type BatchRepository,
  type ImageRepository,
  type ImageUpdate,
  isUniqueViolation,
  UNIQUE_FILENAME_PER_BATCH,
} from '@renamer/db';
import { fixedWordsOf, IMAGE_EVENTS, scoreFilename, sharedPrefix, uniqueShape } from '@renamer/domain';
import { PREVIEW_CONTENT_TYPE } from '@renamer/imaging';
import type { Handler } from '@renamer/jobs';
import type { BatchTracker } from '@renamer/progress';
import { type ObjectStore, previewObjectKey } from '@renamer/storage';
import type { ImageAnalyzer } from '../analysis/image-analyzer';
import { type ImageName, nameImage } from '../analysis/name-image';

export interface AnalyzeImageDeps {
  images: Pick<
    ImageRepository,
    'startAttempt' | 'update' | 'failForGood' | 'changeFilename' | 'filenamesStartingWith' | 'positionInBatch'
  >;
  batches: Pick<BatchRepository, 'findById'>;
  store: Pick<ObjectStore, 'get' | 'put' | 'delete'>;
  tracker: Pick<BatchTracker, 'imagesChanged'>;
  analyzer: ImageAnalyzer;
  tempDir: string;
  /** Whether to fail an image the safety classifier judges unsafe, instead of naming it (asked per image). */
  refuseUnsafe: () => Promise<boolean>;
}

/** What the analysis adds to the image row, beside its new name and status. */
type AnalysisResult = Pick<
  ImageUpdate,
  'metadata' | 'visionTags' | 'altText' | 'safety' | 'perceptualHash' | 'analysisSteps'
>;

/** The batch finishes in its `process-batch` job, once it is named as a whole, never in an image's. */
const UNTIL_NAMED = { finish: false };

/** Each lost race means another worker just took a name; this many in a row means something else is wrong. */
const MAX_NAME_RACES = 20;
/** What the person sees; the cause (which may name paths or hosts) stays in the worker's log. */
export const ANALYSIS_FAILED = 'The image could not be analysed.';
export const UNSAFE_IMAGE = 'The image was judged unsafe and is not named.';
/** Why the quota of an image is given back (the service's fault, not the file's): kept on its `quota_credits` row. */
export const CREDIT_ANALYSIS_FAILED = 'analysis failed after its last attempt';
export const CREDIT_WORKER_DIED = 'the workers analysing it stopped too often';

/**
 * Claims the image, reads its object into a temporary file (sharp buffers streams, files it reads in
 * strips), analyses it, stores its preview (a retry replaces it), proposes a filename unique in its batch,
 * and records the result. A failed
 * attempt puts the image back to `queued` for the next one, or `failed` after the last; a job that
 * failed for good without reaching that path (its workers died) marks its image `failed` then.
 */
export function analyzeImageHandler(deps: AnalyzeImageDeps) {
  async function withObjectFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(deps.tempDir, 'renamer-analyze-'));
    try {
      const path = join(dir, 'image');
      await pipeline(await deps.store.get(key), createWriteStream(path, { mode: 0o600 }));
      return await use(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * Writes the result under the first free name of the batch (`name`, `name-2`, …), read in one query,
   * with the proposal's history row (by nobody: the analyser) in the same transaction. The unique index
   * settles two workers racing for one name: the loser's transaction writes nothing; it reads again and
   * moves on.
   */
  async function recordResult(
    imageId: string,
    batchId: string,
    proposed: ImageName,
    format: ImageFormat,
    result: AnalysisResult,
    scoreOf: (filename: string, fixedWords: string[]) => SeoScore,
  ) {
    const prefix = sharedPrefix(proposed.shape);
    const collided = new Set<string>();
    for (let round = 0; round < MAX_NAME_RACES; round++) {
      const taken = new Set([...(await deps.images.filenamesStartingWith(batchId, prefix, imageId)), ...collided]);
      const unique = uniqueShape(proposed.shape, format, taken) ?? {
        filename: proposed.filename,
        shape: proposed.shape,
      };
      const { filename } = unique;
      try {
        return await deps.images.changeFilename(
          imageId,
          {
            filename,
            source: 'proposal',
            by: null,
            set: {
              ...result,
              seo: scoreOf(filename, fixedWordsOf(unique.shape)),
              status: IMAGE_EVENTS.analysed.to,
              proposedFilename: filename,
              error: null,
            },
          },
          { expectStatus: IMAGE_EVENTS.analysed.from },
        );
      } catch (error) {
        if (!isUniqueViolation(error, UNIQUE_FILENAME_PER_BATCH)) throw error;
        collided.add(filename);
      }
    }
    throw new Error(`lost ${MAX_NAME_RACES} races for a name like ${proposed.filename} in batch ${batchId}`);
  }

  /**
   * Back to `queued` for the next attempt, or `failed` with the generic message (or `error`) after the last.
   * A final failure may settle the batch: it can come after the batch's `process-batch` already ran (a job
   * that stalled for good is reported once its parent was released), and nothing else would finish it then.
   * A final failure with `credit` (the service's fault, not the file's) gives the image's quota back in the
   * transaction of the status change; reported again, the image is no longer `processing` and nothing changes.
   */
  async function settleFailure(
    imageId: string,
    batchId: string,
    final: boolean,
    { error = ANALYSIS_FAILED, credit }: { error?: string; credit?: string } = {},
  ) {
    const next = final
      ? await deps.images.failForGood(imageId, { from: IMAGE_EVENTS.failedForGood.from, error, credit })
      : await deps.images.update(
          imageId,
          { status: IMAGE_EVENTS.attemptFailed.to, error: null },
          { expectStatus: IMAGE_EVENTS.attemptFailed.from },
        );
    if (next) await deps.tracker.imagesChanged(batchId, [next], final ? { finish: true } : UNTIL_NAMED);
  }

  return {
    async handle({ imageId, batchId }, { logger, finalAttempt }) {
      const image = await deps.images.startAttempt(imageId, IMAGE_EVENTS.claim);
      if (!image) return { skipped: 'not queued (cancelled or deleted)' };
      await deps.tracker.imagesChanged(batchId, [image], UNTIL_NAMED);
      try {
        const batch = await deps.batches.findById(batchId);
        if (!batch) return { skipped: 'batch deleted' };
        const context = {
          originalFilename: image.originalFilename,
          keywords: batch.keywords,
          context: batch.context,
          locale: batch.locale,
          template: batch.template,
          instructions: batch.instructions,
          uploadedAt: image.createdAt,
          seq: await deps.images.positionInBatch(image),
          format: image.metadata?.format,
        };
        const analysis = await withObjectFile(image.storageKey, (path) => deps.analyzer.analyze(path, context));
        for (const skipped of analysis.provenance.filter(
          (record) => record.outcome === 'failed' || record.outcome === 'timed-out',
        )) {
          logger.warn({ analysisStep: skipped }, 'optional analysis step skipped');
        }
        const refuseUnsafe = await deps.refuseUnsafe();
        // Refusing what was not judged would let an unsafe image through whenever the classifier is down.
        if (refuseUnsafe && !analysis.safety) throw new Error('the safety step did not judge the image');
        if (refuseUnsafe && analysis.safety?.unsafe) {
          // The file's content, not the service, is why: no quota given back.
          await settleFailure(imageId, batchId, true, { error: UNSAFE_IMAGE });
          return { skipped: 'judged unsafe' };
        }
        const previewKey = previewObjectKey(image.userId, imageId);
        if ('webp' in analysis.preview) {
          const { webp } = analysis.preview;
          await deps.store.put(previewKey, Readable.from([webp]), {
            size: webp.length,
            contentType: PREVIEW_CONTENT_TYPE,
          });
        } else {
          logger.warn({ reason: analysis.preview.error }, 'no preview: the image could not be decoded');
        }
        const named = nameImage(analysis, context);
        const ready = await recordResult(
          imageId,
          batchId,
          named,
          analysis.metadata.format,
          {
            // The header says nothing of a Motion Photo's video: the upload's check found it, the flag stays.
            metadata: { ...analysis.metadata, ...(image.metadata?.motionPhoto && { motionPhoto: true }) },
            visionTags: named.tags,
            altText: named.altText,
            safety: analysis.safety,
            perceptualHash: analysis.perceptualHash,
            analysisSteps: analysis.provenance.map(({ error: _logOnly, ...record }) => record),
          },
          (filename, fixedWords) => scoreFilename(filename, { tags: named.tags, locale: batch.locale, fixedWords }),
        );
        if (!ready) {
          // Cancelled, or deleted with its batch while it was analysed: the deletion may have missed the preview.
          await deps.store.delete(previewKey);
          return { skipped: 'cancelled during analysis' };
        }
        await deps.tracker.imagesChanged(batchId, [ready], UNTIL_NAMED);
        return { filename: ready.filename };
      } catch (error) {
        await settleFailure(imageId, batchId, finalAttempt, { credit: CREDIT_ANALYSIS_FAILED });
        throw error;
      }
    },

    // A job that stalled too often never reached `handle`'s failure path: its image is still `processing`.
    onFailedForGood: ({ imageId, batchId }) => settleFailure(imageId, batchId, true, { credit: CREDIT_WORKER_DIED }),
  } satisfies Handler<'analyze-image'>;
}
