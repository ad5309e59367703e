import { z } from 'zod';
import { BatchStatusResponse } from './batches';
import { BatchStatus, ImageStatus } from './enums';

/** Client → server messages on `GET /api/ws`. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), batchId: z.uuid() }),
  z.object({ type: z.literal('unsubscribe'), batchId: z.uuid() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const ImageStatusEvent = z.object({
  type: z.literal('image.status'),
  batchId: z.uuid(),
  imageId: z.uuid(),
  status: ImageStatus,
  proposedFilename: z.string().optional(),
  /** The SEO score of the proposal, with `proposedFilename`. */
  score: z.number().int().min(0).max(100).optional(),
  error: z.string().optional(),
  at: z.iso.datetime(),
});

export const BatchStatusEvent = z.object({
  type: z.literal('batch.status'),
  batchId: z.uuid(),
  status: BatchStatus,
  processed: z.number().int(),
  total: z.number().int(),
  progress: z.number().min(0).max(1),
  at: z.iso.datetime(),
});

/** Internal only: tells every API instance to close the batch's room (clients get `unsubscribed`). */
export const BatchDeletedEvent = z.object({
  type: z.literal('batch.deleted'),
  batchId: z.uuid(),
  at: z.iso.datetime(),
});

/** What travels on the Redis progress channel from any service to every API instance. */
export const ProgressEvent = z.discriminatedUnion('type', [ImageStatusEvent, BatchStatusEvent, BatchDeletedEvent]);
export type ProgressEvent = z.infer<typeof ProgressEvent>;

/**
 * What travels on the Redis channel of ended credentials: a user's every session and key (a ban, a deleted
 * account), or one session or key (a sign-out, a deleted key). Every API instance closes the sockets opened
 * with them at once.
 */
export const CredentialsEnded = z.union([
  z.object({ userId: z.uuid() }).strict(),
  z.object({ credentialId: z.uuid() }).strict(),
]);
export type CredentialsEnded = z.infer<typeof CredentialsEnded>;

/** Server → client messages. */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribed'), batchId: z.uuid(), status: BatchStatusResponse }),
  z.object({ type: z.literal('unsubscribed'), batchId: z.uuid() }),
  ImageStatusEvent,
  BatchStatusEvent,
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
