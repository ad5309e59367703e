import { z } from 'zod';
import { SingleLineText } from './text';

/** The events an endpoint may take; `webhook.test` is sent by `POST /api/webhooks/:id/test` only. */
export const WEBHOOK_EVENTS = ['batch.completed', 'batch.failed', 'batch.cancelled', 'image.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_MESSAGE_TYPES = [...WEBHOOK_EVENTS, 'webhook.test'] as const;
export type WebhookMessageType = (typeof WEBHOOK_MESSAGE_TYPES)[number];

/** At most this many endpoints per person. */
export const MAX_WEBHOOKS_PER_USER = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const CreateWebhookBody = z.object({
  url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).describe('An https URL (http and loopback only in development).'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .refine((events) => new Set(events).size === events.length, 'each event at most once'),
  description: SingleLineText.max(200).optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const WebhookView = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  /** Set when repeated failure disabled the endpoint. */
  disabledAt: z.iso.datetime({ offset: true }).nullable(),
  disabledReason: z.string().nullable(),
});
export type WebhookView = z.infer<typeof WebhookView>;

/** The answer to a creation: the only time the secret is shown. */
export const CreatedWebhook = WebhookView.extend({
  secret: z
    .string()
    .regex(/^whsec_/)
    .describe('Signs every delivery (Standard Webhooks); shown once.'),
});

export const WebhookList = z.object({ items: z.array(WebhookView), nextCursor: z.string().nullable() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One attempt to deliver one message. */
export const WebhookDeliveryView = z.object({
  id: z.uuid(),
  /** The message id (`webhook-id`), the same on every attempt of one message. */
  messageId: z.string(),
  event: z.enum(WEBHOOK_MESSAGE_TYPES),
  attempt: z.number().int().min(1),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  /** When the message is tried again after this failed attempt; null when none follows. */
  nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
});
export const WebhookDeliveryList = z.object({
  items: z.array(WebhookDeliveryView),
  nextCursor: z.string().nullable(),
});

export const WebhookTestAccepted = z.object({ messageId: z.string() });
