import { QueueJobCounts } from '@renamer/contracts';
import { CHECK_TIMEOUT_MS, withTimeout } from '@renamer/runtime';
import type { Queue } from 'bullmq';

const JOB_STATES = QueueJobCounts.keyof().options;

/** A queue's jobs by state, its live workers and whether it is paused, bounded in time like a health check. */
export async function queueState(queue: Queue) {
  const [counts, workers, paused] = await withTimeout(
    Promise.all([queue.getJobCounts(...JOB_STATES), queue.getWorkersCount(), queue.isPaused()]),
    CHECK_TIMEOUT_MS,
    `queue ${queue.name}`,
  );
  return { ...QueueJobCounts.parse(counts), workers, paused };
}
