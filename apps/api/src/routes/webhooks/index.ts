import { principalOf } from '@renamer/auth';
import {
  CreatedWebhook,
  CreateWebhookBody,
  IdParams,
  ListQuery,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestAccepted,
  WebhookView,
} from '@renamer/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhookService } from '../../services/webhooks';

/** The caller's webhook endpoints, a test ping, and the log of every attempt to deliver to one. */
export async function webhookEndpointRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];

  typed.post(
    '/api/webhooks',
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Add a webhook endpoint; its signing secret is shown in this answer only',
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook },
        errors: ['invalid_webhook_url', 'conflict'],
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(principalOf(request).user.id, request.body)),
  );

  typed.get(
    '/api/webhooks',
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'The caller’s webhook endpoints, without their secrets',
        response: { 200: WebhookList },
      },
    },
    async (request) => ({ items: await webhooks.list(principalOf(request).user.id), nextCursor: null }),
  );

  typed.get(
    '/api/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'One webhook endpoint, without its secret',
        params: IdParams,
        response: { 200: WebhookView },
      },
    },
    (request) => webhooks.get(principalOf(request).user.id, request.params.id),
  );

  typed.delete(
    '/api/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery log; nothing more is sent to it',
        params: IdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await webhooks.delete(principalOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  typed.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Send a `webhook.test` event to the endpoint',
        params: IdParams,
        response: { 202: WebhookTestAccepted },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.test(principalOf(request).user.id, request.params.id)),
  );

  typed.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Every attempt to deliver to the endpoint, newest first',
        params: IdParams,
        querystring: ListQuery,
        response: { 200: WebhookDeliveryList },
      },
    },
    (request) => webhooks.deliveries(principalOf(request).user.id, request.params.id, request.query),
  );
}
