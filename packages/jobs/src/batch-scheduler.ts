import { randomUUID } from 'node:crypto';
import type { ProposeRequest } from '@renamer/domain';
import { withTimeout } from '@renamer/runtime';
import type { FlowProducer } from 'bullmq';
import { addFlow } from './flows';
import { enqueue, freeJobId, jobOptions, type Queues } from './queues';

export interface BatchSchedulerDeps {
  flows: FlowProducer;
  queues: Queues;
  now?: () => number;
  /** BullMQ waits for Redis without end; past this the caller is told, and the reconciler queues later. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

export interface ScheduleOptions {
  /** Images queued before (retry, reconciler): their finished jobs are removed first. */
  requeue?: boolean;
  /** After the round, only these images are named as a whole (a propose of some images); all by default. */
  nameOnly?: readonly string[] | null;
}

/**
 * Queues a batch's images as one flow: a `process-batch` parent with one `analyze-image` child per image.
 * Images are queued again (retry, reconciler) in a new round, after their finished jobs are removed so
 * the fixed job ids are free; an image whose job is still waiting or running is left to that job.
 */
export function createBatchScheduler(deps: BatchSchedulerDeps) {
  const now = deps.now ?? Date.now;

  /** Removes finished jobs of these images; returns the images that still have a live job. */
  async function freeJobIds(batchId: string, imageIds: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (const imageId of imageIds) {
      const { jobId } = jobOptions('analyze-image', { imageId, batchId });
      if (jobId && !(await freeJobId(deps.queues.images, jobId))) live.add(imageId);
    }
    return live;
  }

  async function scheduleNow(batchId: string, imageIds: readonly string[], options: ScheduleOptions) {
    const live = options.requeue ? await freeJobIds(batchId, imageIds) : new Set<string>();
    const pending = imageIds.filter((imageId) => !live.has(imageId));
    if (pending.length === 0) return 0;
    await addFlow(
      deps.flows,
      {
        name: 'process-batch',
        payload: { batchId, round: now(), imageIds: options.nameOnly ? [...options.nameOnly] : null },
      },
      pending.map((imageId) => ({ name: 'analyze-image', payload: { imageId, batchId } })),
    );
    return pending.length;
  }

  return {
    /** Queues names proposed again for a batch already moved to `processing`. */
    propose(batchId: string, request: ProposeRequest): Promise<unknown> {
      const payload = {
        batchId,
        imageIds: request.imageIds ? [...request.imageIds] : null,
        includeEdited: request.includeEdited ?? false,
        requestId: randomUUID(),
      };
      return withTimeout(
        enqueue(deps.queues, 'propose-batch', payload),
        deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        'queueing',
      );
    },

    schedule(batchId: string, imageIds: readonly string[], options: ScheduleOptions = {}): Promise<number> {
      return withTimeout(scheduleNow(batchId, imageIds, options), deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'queueing');
    },
  };
}

export type BatchScheduler = ReturnType<typeof createBatchScheduler>;
