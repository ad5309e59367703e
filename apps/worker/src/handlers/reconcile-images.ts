import type { ImageRepository } from '@renamer/db';
import type { BatchScheduler } from '@renamer/pipeline';
import { defineHandler } from '@renamer/queue';

export interface ReconcileDeps {
  images: Pick<ImageRepository, 'listStale'>;
  scheduler: Pick<BatchScheduler, 'schedule'>;
  now?: () => Date;
}

/**
 * Rows are committed before their jobs are queued; if the process died in between, or Redis lost the
 * jobs, images wait in `queued` with nothing to run them. This queues them again (an image whose job
 * is still waiting or running is left alone).
 */
export const reconcileImagesHandler = (deps: ReconcileDeps) =>
  defineHandler({
    name: 'reconcile-images',
    handle: async ({ olderThanSeconds }) => {
      const now = deps.now ?? (() => new Date());
      const stale = await deps.images.listStale(['queued'], new Date(now().getTime() - olderThanSeconds * 1000), 1000);
      const byBatch = new Map<string, string[]>();
      for (const image of stale) byBatch.set(image.batchId, [...(byBatch.get(image.batchId) ?? []), image.id]);
      let requeued = 0;
      for (const [batchId, imageIds] of byBatch) {
        requeued += await deps.scheduler.schedule(batchId, imageIds, { requeue: true });
      }
      return { stale: stale.length, requeued };
    },
  });
