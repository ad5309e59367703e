import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { WebhookMessageType } from '@renamer/contracts';

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks names them. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A message id (`webhook-id`): unique per message, the same on each of its attempts. */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * The message id of one event for one endpoint, the same however often the event is handled (a retried job makes
 * no second message the receiver could not tell from the first).
 */
export const messageIdFor = (event: string, endpointId: string) =>
  `msg_${createHash('sha256').update(`${event}\n${endpointId}`).digest('hex').slice(0, 32)}`;

/** The body every delivery carries: `{ type, timestamp, data }`. */
export const messageBody = (type: WebhookMessageType, data: unknown, at: Date) => ({
  type,
  timestamp: at.toISOString(),
  data,
});
