import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type BatchRepository, type ImageRepository, isUniqueViolation, UNIQUE_FILENAME_PER_BATCH } from '@renamer/db';
import { IMAGE_EVENTS, isImageFormat, proposeFilename, uniqueFilename } from '@renamer/domain';
import type { BatchTracker } from '@renamer/pipeline';
import { defineHandler } from '@renamer/queue';
import type { ObjectStore } from '@renamer/storage';
import type { Job } from 'bullmq';
import type { ImageAnalyzer } from '../analysis/image-analyzer';

export interface AnalyzeImageDeps {
  images: Pick<ImageRepository, 'startAttempt' | 'update' | 'filenamesStartingWith'>;
  batches: Pick<BatchRepository, 'findById'>;
  store: Pick<ObjectStore, 'get'>;
  tracker: BatchTracker;
  analyzer: ImageAnalyzer;
  tempDir: string;
  /** Test hook: holds each analysis this long so a test can kill the worker mid-job. */
  delayMs?: number;
}

const isFinalAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
/** Each lost race means another worker just took a name; this many in a row means something else is wrong. */
const MAX_NAME_RACES = 20;
/** What the person sees; the cause (which may name paths or hosts) stays in the worker's log. */
export const ANALYSIS_FAILED = 'The image could not be analysed.';

/**
 * Claims the image, reads its object into a temporary file (sharp buffers streams, files it reads in
 * strips), analyses it, proposes a filename unique in its batch, and records the result. A failed
 * attempt puts the image back to `queued` for the next one, or `failed` after the last.
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
   * Writes the result under the first free name of the batch (`name`, `name-2`, …), read in one query.
   * The unique index settles two workers racing for one name: the loser reads again and moves on.
   */
  async function recordResult(imageId: string, batchId: string, proposed: string, set: Record<string, unknown>) {
    const stem = proposed.slice(0, proposed.lastIndexOf('.'));
    const collided = new Set<string>();
    for (let round = 0; round < MAX_NAME_RACES; round++) {
      const taken = new Set([...(await deps.images.filenamesStartingWith(batchId, stem, imageId)), ...collided]);
      const filename = uniqueFilename(proposed, taken);
      try {
        return await deps.images.update(
          imageId,
          { ...set, status: IMAGE_EVENTS.analysed.to, proposedFilename: filename, filename, error: null },
          { expectStatus: IMAGE_EVENTS.analysed.from },
        );
      } catch (error) {
        if (!isUniqueViolation(error, UNIQUE_FILENAME_PER_BATCH)) throw error;
        collided.add(filename);
      }
    }
    throw new Error(`lost ${MAX_NAME_RACES} races for a name like ${proposed} in batch ${batchId}`);
  }

  return defineHandler({
    name: 'analyze-image',
    handle: async ({ imageId, batchId }, job) => {
      const image = await deps.images.startAttempt(imageId, IMAGE_EVENTS.claim);
      if (!image) return { skipped: 'not queued (cancelled or deleted)' };
      await deps.tracker.imagesChanged(batchId, [image]);
      try {
        const batch = await deps.batches.findById(batchId);
        if (!batch) return { skipped: 'batch deleted' };
        if (deps.delayMs) await new Promise((resolve) => setTimeout(resolve, deps.delayMs));
        const analysis = await withObjectFile(image.storageKey, (path) =>
          deps.analyzer.analyze(path, {
            originalFilename: image.originalFilename,
            keywords: batch.keywords,
            batchName: batch.name,
            locale: batch.locale,
          }),
        );
        const format = analysis.metadata.format;
        if (!isImageFormat(format)) throw new Error(`unsupported format ${format}`);
        const proposal = proposeFilename(analysis.nameCandidates, { format, locale: batch.locale });
        if (!proposal.ok) throw new Error(`no usable filename (${proposal.reason})`);
        const ready = await recordResult(imageId, batchId, proposal.filename, {
          metadata: analysis.metadata,
          visionTags: analysis.visionTags,
          altText: analysis.altText,
        });
        if (!ready) return { skipped: 'cancelled during analysis' };
        await deps.tracker.imagesChanged(batchId, [ready]);
        return { filename: ready.filename };
      } catch (error) {
        const final = isFinalAttempt(job);
        const event = final ? IMAGE_EVENTS.failedForGood : IMAGE_EVENTS.attemptFailed;
        const next = await deps.images.update(
          imageId,
          { status: event.to, error: final ? ANALYSIS_FAILED : null },
          { expectStatus: event.from },
        );
        if (next) await deps.tracker.imagesChanged(batchId, [next]);
        throw error;
      }
    },
  });
}
