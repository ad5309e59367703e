import {
  AppError,
  type BatchStatus,
  type BatchStatusResponse,
  emptyImageStatusCounts,
  PREVIEW_SIZES,
} from '@renamer/contracts';
import type { Batch, BatchRepository, BatchSettings, BatchStatusRow, ImageRepository } from '@renamer/db';
import {
  acceptedTemplate,
  BATCH_EVENTS,
  canRetryBatch,
  IMAGE_EVENTS,
  type ProposeRequest,
  planProposals,
  retentionRemovesAt,
} from '@renamer/domain';
import type { BatchScheduler } from '@renamer/jobs';
import { type BatchTracker, type PublishProgress, toBatchStatusView } from '@renamer/progress';
import type { CallLog } from '@renamer/runtime';
import { type ObjectStore, previewObjectKey } from '@renamer/storage';

export interface BatchServiceDeps {
  batches: Pick<
    BatchRepository,
    | 'findByIdForUser'
    | 'findStatusForUser'
    | 'findStatusWithApiKey'
    | 'findStatusWithSession'
    | 'listForUser'
    | 'noteRetentionShown'
    | 'update'
    | 'updateSettingsForUser'
    | 'delete'
  >;
  images: Pick<
    ImageRepository,
    'countByStatus' | 'countByStatusForBatches' | 'transitionByBatch' | 'listAllByBatch' | 'findDuplicateChecksums'
  >;
  tracker: BatchTracker;
  scheduler: BatchScheduler;
  publish: PublishProgress;
  store: Pick<ObjectStore, 'deleteMany'>;
  /** RETAIN_ORIGINALS_DAYS: the list shows each batch's removal date; unset, originals are kept. */
  retainOriginalsDays?: number | undefined;
  now?: () => Date;
}

const notFound = () => new AppError('not_found', 'No such batch.');
const isCancellable = (status: BatchStatus) => (BATCH_EVENTS.cancel.from as readonly BatchStatus[]).includes(status);
const canProposeAgain = (status: BatchStatus) => (BATCH_EVENTS.propose.from as readonly BatchStatus[]).includes(status);

export function createBatchService(deps: BatchServiceDeps) {
  const now = deps.now ?? (() => new Date());

  async function ownBatch(userId: string, batchId: string) {
    const batch = await deps.batches.findByIdForUser(batchId, userId);
    if (!batch) throw notFound();
    return batch;
  }

  async function cancelRunning(batchId: string) {
    const cancelled = await deps.images.transitionByBatch(batchId, IMAGE_EVENTS.cancel);
    return deps.tracker.cancelled(batchId, cancelled);
  }

  /** `read` is the status already read with the credentials (null: not the user's), when it was. */
  async function status(userId: string, batchId: string, read?: BatchStatusRow | null): Promise<BatchStatusResponse> {
    const found = read === undefined ? await deps.batches.findStatusForUser(batchId, userId) : read;
    if (!found) throw notFound();
    return toBatchStatusView(found.batch, found.counts);
  }

  return {
    status,

    /**
     * The batch's status read by the statement that checks the caller's credential (a `CredentialRead` of
     * `@renamer/auth`): `read` is the status, null when the batch is not the credential's user's.
     */
    statusWithCredentials: (batchId: string) => ({
      byApiKey: (keyHash: string, at: Date) => deps.batches.findStatusWithApiKey(keyHash, at, batchId),
      bySession: (sessionId: string, at: Date) => deps.batches.findStatusWithSession(sessionId, at, batchId),
    }),

    /**
     * Name, keywords, context, locale, template and instructions; what is already named keeps its name, later
     * proposals (`propose`, a retry) use them.
     */
    async updateSettings(userId: string, batchId: string, settings: BatchSettings) {
      const batch = await ownBatch(userId, batchId);
      // The template in force must hold in the locale in force, whichever of the two changes.
      const template = acceptedTemplate(settings.template, settings.locale ?? batch.locale);
      if (settings.template === undefined && settings.locale !== undefined)
        acceptedTemplate(batch.template, settings.locale);
      const instructions = settings.instructions === undefined ? undefined : settings.instructions?.trim() || null;
      const update = { ...settings, template, instructions };
      if (!(await deps.batches.updateSettingsForUser(batchId, userId, update))) throw notFound();
      return status(userId, batchId);
    },

    /**
     * Names proposed again from the stored analysis with the batch's current words and template: with `dryRun`
     * the changes it would make; otherwise the batch goes to `processing` and a job renames its images.
     */
    async propose(userId: string, batchId: string, request: ProposeRequest, dryRun: boolean, log: CallLog) {
      const batch = await ownBatch(userId, batchId);
      if (!canProposeAgain(batch.status)) {
        const next = isCancellable(batch.status) ? 'once it is completed' : 'once it is retried and completed';
        throw new AppError('conflict', `The batch is ${batch.status}: names can be proposed again ${next}.`);
      }
      const all = await deps.images.listAllByBatch(batchId);
      const ids = new Set(all.map((image) => image.id));
      const unknown = request.imageIds?.filter((id) => !ids.has(id)) ?? [];
      if (unknown.length > 0) throw new AppError('not_found', `No such image in this batch: ${unknown.join(', ')}.`);
      if (dryRun) {
        const changes = planProposals(batch, all, request).map((planned) => ({
          imageId: planned.image.id,
          from: planned.image.filename!,
          to: planned.filename,
        }));
        return { changes };
      }
      const moved = await deps.batches.update(
        batchId,
        { status: BATCH_EVENTS.propose.to, completedAt: null },
        { expectStatus: BATCH_EVENTS.propose.from },
      );
      if (!moved) throw new AppError('conflict', 'The batch changed meanwhile: names are already being proposed.');
      const view = await deps.tracker.imagesChanged(batchId, [], { finish: false });
      try {
        await deps.scheduler.propose(batchId, request);
      } catch (err) {
        log.error({ err, batchId }, 'names not proposed again: the job was not queued');
        await deps.tracker.refreshBatch(batchId);
        throw new AppError('unavailable', 'Names could not be proposed again just now; try again shortly.');
      }
      return view ?? status(userId, batchId);
    },

    /** Which of these files the user already has: clients skip them before uploading. */
    async existingFiles(userId: string, checksums: readonly string[]) {
      return { existing: await deps.images.findDuplicateChecksums(userId, [...new Set(checksums)]) };
    },

    /**
     * The batches, newest first. With a retention policy each carries its removal date, and the batches whose date
     * was never shown record that it is shown now (the removal waits at least 7 days after it).
     */
    async list(userId: string, page: { limit: number; cursor?: string }) {
      const { items, nextCursor } = await deps.batches.listForUser(userId, page);
      const ids = items.map((batch) => batch.id);
      const days = deps.retainOriginalsDays;
      const shownAt = now();
      const [counts, noticed] = await Promise.all([
        deps.images.countByStatusForBatches(ids),
        days ? deps.batches.noteRetentionShown(ids, shownAt) : new Map<string, Date>(),
      ]);
      const removesAt = (batch: Batch) =>
        days
          ? retentionRemovesAt(
              batch.createdAt,
              batch.retentionNoticeAt ?? noticed.get(batch.id) ?? shownAt,
              days,
              shownAt,
            ).toISOString()
          : null;
      return {
        items: items.map((batch) => ({
          ...toBatchStatusView(batch, counts.get(batch.id) ?? emptyImageStatusCounts()),
          removesAt: removesAt(batch),
        })),
        nextCursor,
      };
    },

    /** Stops queued images from running; a running analysis finds its image cancelled and drops its result. */
    async cancel(userId: string, batchId: string) {
      const batch = await ownBatch(userId, batchId);
      if (!isCancellable(batch.status)) {
        throw new AppError('conflict', `The batch is already ${batch.status}.`);
      }
      return (await cancelRunning(batchId)) ?? this.status(userId, batchId);
    },

    /** Queues failed and cancelled images again, in a new round of jobs. */
    async retry(userId: string, batchId: string, log: CallLog) {
      const batch = await ownBatch(userId, batchId);
      const counts = await deps.images.countByStatus(batchId);
      if (!canRetryBatch(batch.status, counts)) {
        throw new AppError('conflict', 'The batch has no failed or cancelled images to retry.');
      }
      // Analysed again, they count again: a credit for their failure is taken back with the move.
      const requeued = await deps.images.transitionByBatch(batchId, {
        ...IMAGE_EVENTS.retry,
        set: { error: null },
        uncredit: true,
      });
      await deps.batches.update(
        batchId,
        { status: BATCH_EVENTS.retry.to, completedAt: null },
        { expectStatus: BATCH_EVENTS.retry.from },
      );
      const view = await deps.tracker.imagesChanged(
        batchId,
        requeued.map((id) => ({ id, batchId, status: IMAGE_EVENTS.retry.to })),
      );
      await deps.scheduler.schedule(batchId, requeued, { requeue: true }).catch((err) => {
        log.error({ err, batchId }, 'retry not queued; the reconciler will queue it');
      });
      return view ?? this.status(userId, batchId);
    },

    /** Cancels what still runs (broadcast like any cancel), then removes the rows and the stored objects (originals and previews of every size). */
    async delete(userId: string, batchId: string, log: CallLog) {
      const batch = await ownBatch(userId, batchId);
      if (isCancellable(batch.status)) await cancelRunning(batchId);
      const keys = (await deps.images.listAllByBatch(batchId)).flatMap((image) => [
        image.storageKey,
        ...PREVIEW_SIZES.map((size) => previewObjectKey(image.userId, image.id, size)),
      ]);
      if (!(await deps.batches.delete(batchId, userId))) throw notFound();
      await deps.store.deleteMany(keys).catch((err) => {
        log.error({ err, batchId }, 'objects of a deleted batch were not all removed');
      });
      await deps.publish({ type: 'batch.deleted', batchId, at: now().toISOString() }).catch((err) => {
        log.warn({ err, batchId }, 'batch deletion not announced');
      });
    },
  };
}

export type BatchService = ReturnType<typeof createBatchService>;
