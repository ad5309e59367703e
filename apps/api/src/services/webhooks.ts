import {
  AppError,
  type CreateWebhookBody,
  MAX_WEBHOOKS_PER_USER,
  type WebhookEvent,
  type WebhookView,
} from '@renamer/contracts';
import type { PageParams, WebhookDelivery, WebhookEndpoint, WebhookRepository } from '@renamer/db';
import {
  checkWebhookUrl,
  generateWebhookSecret,
  messageBody,
  newMessageId,
  RefusedWebhookUrl,
  type Resolver,
} from '@renamer/webhooks';

export interface WebhookServiceDeps {
  webhooks: WebhookRepository;
  /** `WEBHOOKS_ALLOW_INSECURE`: http and loopback allowed. */
  allowInsecure: boolean;
  /** Queues the first attempt of a message (the worker delivers it). */
  queueDelivery: (delivery: { endpointId: string; messageId: string; firstAttemptAt: Date }) => Promise<unknown>;
  resolve?: Resolver;
  now?: () => Date;
}

const notFound = () => new AppError('not_found', 'No such webhook.');

export const toWebhookView = (endpoint: WebhookEndpoint): WebhookView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events as WebhookEvent[],
  description: endpoint.description,
  createdAt: endpoint.createdAt.toISOString(),
  disabledAt: endpoint.disabledAt?.toISOString() ?? null,
  disabledReason: endpoint.disabledReason,
});

export const toDeliveryView = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  messageId: delivery.messageId,
  event: delivery.event as WebhookEvent | 'webhook.test',
  attempt: delivery.attempt,
  status: delivery.status as 'pending' | 'delivered' | 'failed',
  responseStatus: delivery.responseStatus,
  error: delivery.error,
  createdAt: delivery.createdAt.toISOString(),
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
});

/** A person's webhook endpoints: made (the URL checked after DNS resolution), listed, deleted, pinged. */
export function createWebhookService(deps: WebhookServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const policy = { allowInsecure: deps.allowInsecure };

  async function ownEndpoint(userId: string, id: string) {
    const endpoint = await deps.webhooks.findForUser(id, userId);
    if (!endpoint) throw notFound();
    return endpoint;
  }

  return {
    async create(userId: string, input: CreateWebhookBody) {
      let url: URL;
      try {
        url = await checkWebhookUrl(input.url, policy, deps.resolve);
      } catch (error) {
        if (!(error instanceof RefusedWebhookUrl)) throw error;
        throw new AppError('invalid_webhook_url', error.message, [
          { path: 'body.url', message: error.message, code: 'invalid_webhook_url' },
        ]);
      }
      const secret = generateWebhookSecret();
      const created = await deps.webhooks.createWithin(
        { userId, url: url.href, events: [...input.events], description: input.description ?? null, secret },
        MAX_WEBHOOKS_PER_USER,
      );
      if (!created) {
        throw new AppError(
          'conflict',
          `An account may hold at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first.`,
        );
      }
      return { ...toWebhookView(created), secret };
    },

    list: async (userId: string) => (await deps.webhooks.listForUser(userId)).map(toWebhookView),

    get: async (userId: string, id: string) => toWebhookView(await ownEndpoint(userId, id)),

    async delete(userId: string, id: string) {
      if (!(await deps.webhooks.deleteForUser(id, userId))) throw notFound();
    },

    /** Queues a `webhook.test` message to the endpoint (even a disabled one: the ping shows whether it is back). */
    async test(userId: string, id: string) {
      const endpoint = await ownEndpoint(userId, id);
      const at = now();
      const messageId = newMessageId();
      await deps.webhooks.insertDelivery({
        endpointId: endpoint.id,
        messageId,
        event: 'webhook.test',
        payload: messageBody('webhook.test', { webhookId: endpoint.id }, at),
        attempt: 1,
      });
      await deps.queueDelivery({ endpointId: endpoint.id, messageId, firstAttemptAt: at });
      return { messageId };
    },

    async deliveries(userId: string, id: string, params: PageParams) {
      const endpoint = await ownEndpoint(userId, id);
      const page = await deps.webhooks.listDeliveries(endpoint.id, params);
      return { items: page.items.map(toDeliveryView), nextCursor: page.nextCursor };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
