import type { BatchRepository, ImageRepository, StalledCursor, WebhookRepository } from '@renamer/db';
import type { Handler } from '@renamer/jobs';
import { toBatchStatusView } from '@renamer/progress';
import {
  DISABLE_AFTER_FAILED_MESSAGES,
  messageBody,
  messageIdFor,
  nextAttemptAt,
  type Resolver,
  sendMessage,
} from '@renamer/webhooks';

type Delivery = { endpointId: string; messageId: string; firstAttemptAt: Date };

export interface WebhookEventDeps {
  webhooks: Pick<WebhookRepository, 'listSubscribed' | 'insertDelivery' | 'attemptsOf'>;
  batches: Pick<BatchRepository, 'findById'>;
  images: Pick<ImageRepository, 'findById' | 'countByStatus'>;
  queueDelivery: (delivery: Delivery) => Promise<unknown>;
  now?: () => Date;
}

/**
 * A batch finished or an image failed: one message per endpoint of the batch's owner that takes the event,
 * its first attempt row written (`pending`) and its delivery queued. `data` is the batch's status (and the
 * image, for `image.failed`), as it is when the message is made.
 */
export const webhookEventHandler = (deps: WebhookEventDeps) =>
  ({
    async handle({ type, batchId, imageId, at: happened }, { logger }) {
      const now = deps.now ?? (() => new Date());
      const batch = await deps.batches.findById(batchId);
      if (!batch) return { messages: 0 };
      const endpoints = await deps.webhooks.listSubscribed(batch.userId, type);
      if (endpoints.length === 0) return { messages: 0 };
      const status = toBatchStatusView(batch, await deps.images.countByStatus(batchId));
      let data: unknown = status;
      if (type === 'image.failed') {
        const image = imageId ? await deps.images.findById(imageId) : null;
        // Retried since: no longer news.
        if (image?.status !== 'failed') return { messages: 0 };
        data = {
          image: { id: image.id, batchId, originalFilename: image.originalFilename, error: image.error },
          batch: status,
        };
      }
      const at = now();
      for (const endpoint of endpoints) {
        // A job run again (a later endpoint's queueing failed) finds the messages it made and makes no other.
        const messageId = messageIdFor(`${type}:${imageId ?? batchId}:${happened}`, endpoint.id);
        const made = await deps.webhooks.attemptsOf(endpoint.id, messageId);
        if (made.length > 0) {
          // Queued again only if its first attempt never ran (the queue drops a job id it still holds).
          if (made.length === 1 && made[0]!.status === 'pending') {
            await deps.queueDelivery({ endpointId: endpoint.id, messageId, firstAttemptAt: made[0]!.createdAt });
          }
          continue;
        }
        await deps.webhooks.insertDelivery({
          endpointId: endpoint.id,
          messageId,
          event: type,
          payload: messageBody(type, data, at),
          attempt: 1,
        });
        await deps.queueDelivery({ endpointId: endpoint.id, messageId, firstAttemptAt: at });
      }
      logger.info({ event: type, messages: endpoints.length }, 'webhook messages queued');
      return { messages: endpoints.length };
    },
  }) satisfies Handler<'webhook-event'>;

export interface DeliverWebhookDeps {
  webhooks: Pick<
    WebhookRepository,
    'findById' | 'attemptsOf' | 'insertDelivery' | 'finishDelivery' | 'recordSuccess' | 'recordFailedMessage'
  >;
  allowInsecure: boolean;
  /** The first back-off (`WEBHOOKS_RETRY_BASE_MS`). */
  retryBaseMs: number;
  queueRetry: (delivery: Delivery, attempt: number, delayMs: number) => Promise<unknown>;
  resolve?: Resolver;
  timeoutMs?: number;
  now?: () => Date;
}

/**
 * One attempt: its own row in the log (`pending`, then `delivered` or `failed` with the answer's status or the
 * error), signed anew. A failure queues the next attempt with the back-off, for 24 hours after the first; the
 * last failure of a message counts against the endpoint, which is disabled with the reason once
 * DISABLE_AFTER_FAILED_MESSAGES messages in a row have failed for good.
 */
export const deliverWebhookHandler = (deps: DeliverWebhookDeps) =>
  ({
    async handle({ endpointId, messageId, attempt, firstAttemptAt }, { logger }) {
      const now = deps.now ?? (() => new Date());
      const endpoint = await deps.webhooks.findById(endpointId);
      if (!endpoint) return { skipped: 'endpoint deleted' };
      const attempts = await deps.webhooks.attemptsOf(endpointId, messageId);
      const first = attempts[0];
      if (!first) return { skipped: 'message unknown' };
      const isTest = first.event === 'webhook.test';
      if (endpoint.disabledAt && !isTest) return { skipped: 'endpoint disabled' };
      // Sent already, by this attempt or another (a reconciler's copy of a job that ran meanwhile): never twice.
      if (attempts.some((existing) => existing.status === 'delivered')) return { delivered: true };
      const earlier = attempts.find((existing) => existing.attempt === attempt);
      // This attempt ran to its end before (its outcome recorded): what follows it was queued then.
      if (earlier && earlier.status !== 'pending') return { skipped: 'attempt already made' };
      // A job run again (its worker died mid-attempt) reuses its row rather than adding another.
      const row =
        earlier ??
        (await deps.webhooks.insertDelivery({
          endpointId,
          messageId,
          event: first.event,
          payload: first.payload,
          attempt,
        }));

      const result = await sendMessage(
        endpoint.url,
        { messageId, body: JSON.stringify(first.payload), secret: endpoint.secret, at: now() },
        { allowInsecure: deps.allowInsecure, resolve: deps.resolve, timeoutMs: deps.timeoutMs },
      );
      if (result.delivered) {
        await deps.webhooks.finishDelivery(row.id, { ...result, status: 'delivered', nextAttemptAt: null });
        await deps.webhooks.recordSuccess(endpointId);
        return { delivered: true };
      }
      const startedAt = new Date(firstAttemptAt);
      const next = nextAttemptAt(attempt, startedAt, now(), deps.retryBaseMs);
      await deps.webhooks.finishDelivery(row.id, { ...result, status: 'failed', nextAttemptAt: next });
      logger.info({ attempt, error: result.error, next }, 'webhook delivery failed');
      if (next) {
        await deps.queueRetry(
          { endpointId, messageId, firstAttemptAt: startedAt },
          attempt + 1,
          next.getTime() - now().getTime(),
        );
      } else if (!isTest) {
        const reason = `A message (${messageId}) could not be delivered for 24 hours: last attempt ${result.error}.`;
        const updated = await deps.webhooks.recordFailedMessage(
          endpointId,
          DISABLE_AFTER_FAILED_MESSAGES,
          reason,
          now(),
        );
        if (updated?.disabledAt) logger.warn({ endpointId, reason }, 'webhook endpoint disabled');
      }
      return { delivered: false, next };
    },
  }) satisfies Handler<'deliver-webhook'>;

export interface ReconcileWebhooksDeps {
  webhooks: Pick<WebhookRepository, 'listStalled'>;
  /** Queues the attempt unless a job for it is still waiting or running; true when it queued. */
  requeue: (delivery: Delivery, attempt: number) => Promise<boolean>;
  now?: () => Date;
}

const STALLED_PAGE = 500;
/** Bounds one run's work; the next run (a minute later) goes on. */
const MAX_STALLED_PAGES = 20;

/**
 * An attempt is recorded before the next one is queued: when queueing fails (Redis away), or the job is lost,
 * nothing would send the message again. This finds attempts due more than `olderThanSeconds` ago that never ran
 * and queues them; one whose job is still waiting or running is left to it.
 */
export const reconcileWebhooksHandler = (deps: ReconcileWebhooksDeps) =>
  ({
    async handle({ olderThanSeconds }, { logger }) {
      const now = deps.now ?? (() => new Date());
      const cutoff = new Date(now().getTime() - olderThanSeconds * 1000);
      let stalled = 0;
      let requeued = 0;
      // Page by page, so that attempts whose jobs are merely waiting in a backlog cannot hide a lost one behind them.
      let after: StalledCursor | undefined;
      for (let page = 0; page < MAX_STALLED_PAGES; page++) {
        const attempts = await deps.webhooks.listStalled(cutoff, STALLED_PAGE, after);
        stalled += attempts.length;
        for (const { cursor: _, attempt, ...delivery } of attempts) {
          // One that cannot be queued now (its job changing state under us, Redis away) is found again next run.
          const queued = await deps.requeue(delivery, attempt).catch((err: unknown) => {
            logger.warn({ err, ...delivery, attempt }, 'webhook attempt not queued again yet');
            return false;
          });
          if (queued) requeued += 1;
        }
        if (attempts.length < STALLED_PAGE) break;
        after = attempts.at(-1)?.cursor;
      }
      if (requeued > 0) logger.info({ stalled, requeued }, 'webhook attempts queued again');
      return { stalled, requeued };
    },
  }) satisfies Handler<'reconcile-webhooks'>;
