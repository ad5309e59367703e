import { CLEANUP_TASKS, type CleanupResult, type CleanupTask, PREVIEW_SIZES, QUEUE_NAMES } from '@renamer/contracts';
import type { BatchRepository, DownloadRepository, ImageRepository } from '@renamer/db';
import { IMAGE_EVENTS, retentionCutoffs } from '@renamer/domain';
import type { Queues } from '@renamer/jobs';
import type { BatchTracker } from '@renamer/progress';
import { type ListedObject, type ObjectStore, previewObjectKey } from '@renamer/storage';
import type { CleanupEnv } from './cleanup-config';
import { objectOwner } from './object-owner';

export interface CleanupDeps {
  downloads: Pick<DownloadRepository, 'findExpired' | 'deleteExpired'>;
  images: Pick<ImageRepository, 'referencedStorageKeys' | 'existingIds' | 'transitionByBatch'>;
  batches: Pick<BatchRepository, 'listStuck' | 'findRetentionDue' | 'deleteRetentionDue'>;
  tracker: Pick<BatchTracker, 'imagesChanged'>;
  store: Pick<ObjectStore, 'list' | 'deleteMany'>;
  queues: Queues;
  config: CleanupEnv;
  now?: () => Date;
}

export interface CleanupOptions {
  /** Only count, and sample, what would be removed. */
  dryRun: boolean;
}

/** An object younger than this may belong to an upload still in flight (stored before its row): never touched. */
export const ORPHAN_MIN_AGE_MS = 3600 * 1000;
export const STUCK_BATCH_ERROR = 'Processing timed out; retry the batch.';
/** The service never finished these images: their quota is given back (the reason kept on the credit). */
export const STUCK_BATCH_CREDIT = 'processing timed out (stale batch)';
const SAMPLE_SIZE = 10;
/** Objects checked against the database at a time: one query per kind of object per page. */
const OBJECT_PAGE = 500;
const STUCK_BATCH_PAGE = 100;
const FAILED_JOB_PAGE = 1_000;
/** Batches the retention task removes per transaction. */
const RETENTION_PAGE = 50;

export const isCleanupTask = (task: string): task is CleanupTask => (CLEANUP_TASKS as readonly string[]).includes(task);

/**
 * The maintenance an operator runs on demand (the admin API) and the worker runs on a schedule. Each task
 * removes only what its rule names, is safe to run twice or at the same time as itself (what one run removed
 * the other no longer finds), and with `dryRun` removes nothing and counts the same.
 */
export function createCleanupTasks(deps: CleanupDeps) {
  const now = deps.now ?? (() => new Date());

  const tasks: Record<CleanupTask, (options: CleanupOptions) => Promise<Omit<CleanupResult, 'task' | 'dryRun'>>> = {
    /**
     * Records of download links expired more than DOWNLOAD_HISTORY_DAYS ago (the archives are streamed, never
     * stored); until then they are the person's download list and the admin analytics.
     */
    async 'expired-downloads'({ dryRun }) {
      const at = new Date(now().getTime() - deps.config.DOWNLOAD_HISTORY_DAYS * 24 * 3600 * 1000);
      const { ids, total } = await deps.downloads.findExpired(at, SAMPLE_SIZE);
      return { removed: dryRun ? total : await deps.downloads.deleteExpired(at), sample: ids };
    },

    /**
     * Stored originals and previews no image references, older than an hour. The store is read a page at a
     * time and each page checked with one query per kind, so memory stays flat however large the store.
     */
    async 'orphaned-objects'({ dryRun }) {
      const cutoff = now().getTime() - ORPHAN_MIN_AGE_MS;
      const sample: string[] = [];
      let removed = 0;
      let page: ListedObject[] = [];
      const settle = async () => {
        const orphans = await orphansOf(page);
        page = [];
        if (orphans.length === 0) return;
        if (!dryRun) await deps.store.deleteMany(orphans);
        removed += orphans.length;
        sample.push(...orphans.slice(0, SAMPLE_SIZE - sample.length));
      };
      for await (const object of deps.store.list('users')) {
        if (object.lastModified.getTime() >= cutoff) continue;
        page.push(object);
        if (page.length === OBJECT_PAGE) await settle();
      }
      await settle();
      return { removed, sample };
    },

    /** Batches stuck queued or processing: their unfinished images fail with a reason, and the batch follows. */
    async 'stale-batches'({ dryRun }) {
      const before = new Date(now().getTime() - deps.config.STALE_BATCH_AFTER_MINUTES * 60_000);
      const sample: string[] = [];
      const handled = new Set<string>();
      for (;;) {
        const stuck = await deps.batches.listStuck(before, STUCK_BATCH_PAGE);
        sample.push(...stuck.slice(0, SAMPLE_SIZE - sample.length).map((batch) => batch.id));
        if (dryRun) return { removed: stuck.length, sample };
        // A batch the refresh could not move (it should) is not taken again: the loop always ends.
        const fresh = stuck.filter((batch) => !handled.has(batch.id));
        for (const batch of fresh) {
          const failed = await deps.images.transitionByBatch(batch.id, {
            ...IMAGE_EVENTS.timedOut,
            set: { error: STUCK_BATCH_ERROR },
            credit: STUCK_BATCH_CREDIT,
          });
          await deps.tracker.imagesChanged(
            batch.id,
            failed.map((id) => ({ id, batchId: batch.id, status: IMAGE_EVENTS.timedOut.to, error: STUCK_BATCH_ERROR })),
          );
          handled.add(batch.id);
        }
        if (stuck.length < STUCK_BATCH_PAGE || fresh.length === 0) return { removed: handled.size, sample };
      }
    },

    /** Failed jobs past their retention, in every queue (BullMQ's clean). */
    async 'failed-jobs'({ dryRun }) {
      const graceMs = deps.config.FAILED_JOB_RETENTION_DAYS * 24 * 3600 * 1000;
      const cutoff = now().getTime() - graceMs;
      const sample: string[] = [];
      let removed = 0;
      for (const name of QUEUE_NAMES) {
        const queue = deps.queues[name];
        const ids = dryRun
          ? await failedBefore(queue, cutoff)
          : await queue.clean(graceMs, Number.MAX_SAFE_INTEGER, 'failed');
        removed += ids.length;
        sample.push(...ids.slice(0, SAMPLE_SIZE - sample.length).map((id) => `${name}:${id}`));
      }
      return { removed, sample };
    },

    /**
     * The images (rows, originals and previews of every size) of batches older than RETAIN_ORIGINALS_DAYS whose
     * date the batch list showed at least 7 days ago, then those batches. An original another image still names is
     * kept (none does today: every image, a re-upload too, has an object of its own; this keeps it so if that
     * changes). `removed` counts images; nothing runs while the setting is off.
     */
    async retention({ dryRun }) {
      const days = deps.config.RETAIN_ORIGINALS_DAYS;
      if (!days) return { removed: 0 };
      const cutoffs = retentionCutoffs(days, now());
      if (dryRun) {
        const { total, ids } = await deps.batches.findRetentionDue(cutoffs, SAMPLE_SIZE);
        return { removed: total, sample: ids };
      }
      const sample: string[] = [];
      let removed = 0;
      for (;;) {
        const taken = await deps.batches.deleteRetentionDue(cutoffs, RETENTION_PAGE);
        if (taken.batches === 0) return { removed, sample };
        removed += taken.images.length;
        sample.push(...taken.images.slice(0, SAMPLE_SIZE - sample.length).map((image) => image.id));
        const stillUsed = await deps.images.referencedStorageKeys([
          ...new Set(taken.images.map((image) => image.storageKey)),
        ]);
        // Rows first, objects after: an object left behind by a failure here is the orphaned-objects task's.
        await deps.store.deleteMany([
          ...new Set(taken.images.map((image) => image.storageKey).filter((key) => !stillUsed.has(key))),
          ...taken.images.flatMap((image) =>
            PREVIEW_SIZES.map((size) => previewObjectKey(image.userId, image.id, size)),
          ),
        ]);
        if (taken.batches < RETENTION_PAGE) return { removed, sample };
      }
    },
  };

  /** The keys of `objects` that are an image's original or preview with no image behind them. */
  async function orphansOf(objects: readonly ListedObject[]): Promise<string[]> {
    const owned = objects.map((object) => ({ key: object.key, owner: objectOwner(object.key) }));
    const originals = owned.filter((entry) => entry.owner?.kind === 'original').map((entry) => entry.key);
    const previews = owned.flatMap((entry) => (entry.owner?.kind === 'preview' ? [entry.owner] : []));
    const [referenced, existing] = await Promise.all([
      deps.images.referencedStorageKeys(originals),
      deps.images.existingIds(previews),
    ]);
    return owned
      .filter(({ key, owner }) =>
        owner?.kind === 'original' ? !referenced.has(key) : owner?.kind === 'preview' && !existing.has(owner.id),
      )
      .map((entry) => entry.key);
  }

  /** The tasks this configuration runs: `retention` only when RETAIN_ORIGINALS_DAYS is set. */
  const available = CLEANUP_TASKS.filter((task) => task !== 'retention' || deps.config.RETAIN_ORIGINALS_DAYS);

  return {
    available,
    async run(task: CleanupTask, options: CleanupOptions): Promise<CleanupResult> {
      const { removed, sample } = await tasks[task](options);
      return { task, removed, dryRun: options.dryRun, ...(sample?.length ? { sample } : {}) };
    },
  };
}

export type CleanupTasks = ReturnType<typeof createCleanupTasks>;

/** The ids of the queue's failed jobs that finished before `cutoff`, read a page at a time. */
async function failedBefore(queue: Queues[keyof Queues], cutoff: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; ; start += FAILED_JOB_PAGE) {
    const jobs = await queue.getFailed(start, start + FAILED_JOB_PAGE - 1);
    for (const job of jobs) if (job?.id && (job.finishedOn ?? job.timestamp) < cutoff) ids.push(job.id);
    if (jobs.length < FAILED_JOB_PAGE) return ids;
  }
}
