import { JOB_CATALOG } from '@renamer/contracts';
import type { TrackerNotice } from '@renamer/progress';
import { withTimeout } from '@renamer/runtime';
import { enqueue, freeJobId, jobOptions, type Queues } from './queues';

const QUEUE_TIMEOUT_MS = 5_000;

/**
 * The tracker's `notify`: a batch that finished or an image that failed becomes a `webhook-event` job, which
 * finds the person's endpoints that take it (the fixed job id drops a second report of the same moment).
 */
export const webhookNotifier =
  (queues: Queues) =>
  (notice: TrackerNotice): Promise<unknown> =>
    withTimeout(
      enqueue(queues, 'webhook-event', {
        type: notice.type,
        batchId: notice.batchId,
        ...(notice.imageId ? { imageId: notice.imageId } : {}),
        at: notice.at.getTime(),
      }),
      QUEUE_TIMEOUT_MS,
      'queueing a webhook event',
    );

/** Queues the first attempt of a message to one endpoint; each attempt queues the next itself when it fails. */
export const queueWebhookDelivery = (
  queues: Queues,
  delivery: { endpointId: string; messageId: string; firstAttemptAt: Date },
  attempt = 1,
  delayMs = 0,
) => {
  const payload = JOB_CATALOG['deliver-webhook'].payload.parse({
    endpointId: delivery.endpointId,
    messageId: delivery.messageId,
    attempt,
    firstAttemptAt: delivery.firstAttemptAt.toISOString(),
  });
  return withTimeout(
    delayMs > 0
      ? queues.webhooks.add('deliver-webhook', payload, { ...jobOptions('deliver-webhook', payload), delay: delayMs })
      : enqueue(queues, 'deliver-webhook', payload),
    QUEUE_TIMEOUT_MS,
    'queueing a webhook delivery',
  );
};

/**
 * Queues an attempt the reconciler found due and never run (its queueing failed, or its job was lost or failed):
 * false when a job for that attempt is still waiting, delayed or running.
 */
export async function requeueWebhookDelivery(
  queues: Queues,
  delivery: { endpointId: string; messageId: string; firstAttemptAt: Date },
  attempt: number,
): Promise<boolean> {
  const { jobId } = jobOptions('deliver-webhook', {
    endpointId: delivery.endpointId,
    messageId: delivery.messageId,
    attempt,
    firstAttemptAt: delivery.firstAttemptAt.toISOString(),
  });
  if (jobId && !(await freeJobId(queues.webhooks, jobId))) return false;
  await queueWebhookDelivery(queues, delivery, attempt);
  return true;
}
