import type { Image, ImageRepository } from '@renamer/db';
import type { BatchScheduler, Handler } from '@renamer/jobs';

export interface ReconcileDeps {
  images: Pick<ImageRepository, 'listStale'>;
  scheduler: Pick<BatchScheduler, 'schedule'>;
  now?: () => Date;
}

const PAGE_SIZE = 500;
/** Bounds one run's work; the next run (a minute later) goes on. */
const MAX_PAGES = 40;

/**
 * Rows are committed before their jobs are queued; if the process died in between, or Redis lost the
 * jobs, images wait in `queued` with nothing to run them. This queues them again (an image whose job
 * is still waiting or running is left alone).
 */
export const reconcileImagesHandler = (deps: ReconcileDeps) =>
  ({
    async handle({ olderThanSeconds }, { logger }) {
      const now = deps.now ?? (() => new Date());
      const cutoff = new Date(now().getTime() - olderThanSeconds * 1000);
      let stale = 0;
      let requeued = 0;
      // Page by page, so a deep backlog of images still waiting in the queue cannot hide a lost one behind it.
      let after: Image | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const images = await deps.images.listStale(['queued'], cutoff, PAGE_SIZE, after);
        stale += images.length;
        const byBatch = new Map<string, string[]>();
        for (const image of images) byBatch.set(image.batchId, [...(byBatch.get(image.batchId) ?? []), image.id]);
        for (const [batchId, imageIds] of byBatch) {
          requeued += await deps.scheduler.schedule(batchId, imageIds, { requeue: true });
        }
        if (images.length < PAGE_SIZE) break;
        after = images.at(-1);
      }
      if (requeued > 0) logger.info({ stale, requeued }, 'images without a job queued again');
      return { stale, requeued };
    },
  }) satisfies Handler<'reconcile-images'>;
