import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookMessageType } from '@renamer/contracts';

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks names them. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A message id (`webhook-id`): unique per message, the same on each of its attempts. */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/** The body every delivery carries: `{ type, timestamp, data }`. */
export const messageBody = (type: WebhookMessageType, data: unknown, at: Date) => ({
  type,
  timestamp: at.toISOString(),
  data,
});
